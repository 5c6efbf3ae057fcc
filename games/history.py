"""A game's history as one JSON document: the export (``docs/export-format.md``).

Read-only. ``finished_export(game)`` is the whole record of a finished game (options, seed,
the full log with timestamps and move sources, the outcome): enough to replay it anywhere.
``seat_export(game, seat)`` is an ongoing game's record as one seat may see it: no seed,
other seats' private steps without their action, and the position as ``engine.view`` of
that seat. ``games.services.imports.game_import`` reads the finished form back.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext

from games.errors import ServiceError
from games.models import Game, GameStatus, Move, Seat
from games.rules import engine_for, load_game

#: ``format`` of every export document.
FORMAT = "orleans-online-game"
#: Raise when a reader of the previous version would misread a document.
FORMAT_VERSION = 1
#: Who made a move (``log[].source``).
SOURCES = ("player", "queue", "timeout", "bot", "system")


class ExportRefused(ServiceError):
    """This export is not available (a game not started, or an ongoing game for a spectator)."""

    default_code = "export_refused"


def move_source(move: Move) -> str:
    """Who made ``move``: ``system`` (a resolution), ``timeout`` (the timeout policy),
    ``queue`` (the seat's action queue), ``bot`` or ``player``: its ``Move.source``."""
    return move.source


def source_fields(source: str) -> dict:
    """The ``Move`` fields that record ``source`` (the inverse of ``move_source``, for import)."""
    return {"source": source}


def _when(moment: dt.datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("order"))


def _header(game: Game, kind: str, seats: list[Seat]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind,
        "rules": game.rules,
        "engine_version": game.engine_version,
        "game": {"id": str(game.pk), "name": game.name, "status": game.status,
                 "created_at": _when(game.created_at), "started_at": _when(game.started_at),
                 "finished_at": _when(game.finished_at)},
        "options": dict(game.options or {}),
        "seats": [{"seat": s.order, "name": s.display_name, "colour": s.colour} for s in seats],
    }


def _entry(move: Move, *, action: bool = True) -> dict[str, Any]:
    entry = {"seq": move.seq, "seat": move.seat, "action": move.action if action else None,
             "events": list(move.events or []), "at": _when(move.created_at), "source": move_source(move)}
    if move.taken_back:  # optional in the format: absent means false
        entry["taken_back"] = True
    return entry


def finished_export(game: Game) -> dict[str, Any]:
    """The export document of a finished ``game``: everything, seed and every action
    included (nothing is secret once the game is over). Raises ``ExportRefused`` for a
    game that is not finished and ``GameDamaged`` for one that cannot be loaded."""
    if game.status != GameStatus.FINISHED or game.state is None:
        raise ExportRefused(gettext("Only a finished game can be downloaded whole."))
    load_game(game)  # a damaged game is not exported (its pin or snapshot is in doubt)
    document = _header(game, "finished", _seats(game))
    document["seed"] = game.seed
    document["log"] = [_entry(m) for m in Move.objects.filter(game=game).order_by("seq")]
    document["outcome"] = game.outcome
    return document


def seat_export(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The export document of an ongoing ``game`` for the player at ``seat``: what that
    seat can see only. No seed; another seat's private steps (drawing, planning, answering
    an event: the engine's ``is_private_step``) keep their public events but not their
    action; ``position`` is ``engine.view`` of the seat now. Raises ``ExportRefused`` for a
    game not being played (saying which, ``Game.not_playing_reason``, to anyone) or a
    spectator (``seat`` None), ``GameDamaged`` as ``load_game``."""
    if game.state is None or game.status != GameStatus.ACTIVE:  # said first, to a spectator too
        raise ExportRefused(game.not_playing_reason() or gettext("This game is not being played."))
    if seat is None:
        raise ExportRefused(gettext("Only the game's players can download a game in progress."))
    rules_engine, state = load_game(game)
    document = _header(game, "seat", _seats(game))
    document["viewer_seat"] = seat.order
    document["log"] = [
        _entry(m, action=m.seat is None or m.seat == seat.order or not rules_engine.is_private_step(m.action))
        for m in Move.objects.filter(game=game).order_by("seq")
    ]
    document["position"] = engine_for(game).view(state, seat.order)
    return document
