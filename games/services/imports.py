"""Importing a finished game from its export document (``manage.py game_import``).

The document (``docs/export-format.md``, ``games.history.finished_export``) is trusted for
nothing: it is replayed under the engine registered for its rules, and refused with the
reason unless every move is accepted with the events it records and the replay ends with
the outcome it claims. The game it creates is finished and read-only (``Game.imported``);
its seats belong to placeholder users (inactive, no password) named after the document's
players, so an import never adds a game to a real player's record.
"""
from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.errors import ServiceError, UnknownRules
from games.history import FORMAT, FORMAT_VERSION, SOURCES, source_fields
from games.models import Game, GameStatus, Move, Seat
from games.rules import as_recorded, engine_named, replay_entry

#: Placeholder users of imported seats are named ``<prefix><player name>``.
PLACEHOLDER_PREFIX = "imported-"


class ImportRefused(ServiceError):
    """The document is not a game this site can import; ``message`` says why."""

    default_code = "import_refused"


def _require(condition: bool, reason: str) -> None:
    if not condition:
        raise ImportRefused(f"The document is refused: {reason}.")


def _when(value: Any, what: str) -> dt.datetime | None:
    if value is None:
        return None
    moment = parse_datetime(value) if isinstance(value, str) else None
    _require(moment is not None, f"{what} is not a date and time ({json.dumps(value)[:40]})")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, dt.timezone.utc)


def _check_shape(document: Any) -> None:
    _require(isinstance(document, dict), "it is not a JSON object")
    _require(document.get("format") == FORMAT, f"its format is not {FORMAT!r}")
    _require(document.get("format_version") == FORMAT_VERSION,
             f"format version {document.get('format_version')!r} is not {FORMAT_VERSION}")
    _require(document.get("kind") == "finished",
             "it is not a finished game's export (a player's export of a game in progress has no seed)")
    for key, kind in (("options", dict), ("seats", list), ("log", list), ("outcome", dict), ("game", dict)):
        _require(isinstance(document.get(key), kind), f"{key!r} is missing or not a {kind.__name__}")
    _require(isinstance(document.get("seed"), int) and not isinstance(document.get("seed"), bool),
             "'seed' is missing or not an integer")
    seats = document["seats"]
    _require(all(isinstance(s, dict) and isinstance(s.get("name"), str) and s["name"] for s in seats),
             "every seat needs a name")
    _require([s.get("seat") for s in seats] == list(range(len(seats))), "seats must be numbered 0, 1, ... in order")
    for number, entry in enumerate(document["log"], start=1):
        _require(isinstance(entry, dict) and entry.get("seq") == number,
                 f"log entry {number} is missing or out of order")
        _require(entry.get("source", "player") in SOURCES, f"log entry {number} has an unknown source")


def _replay(document: dict) -> tuple[Any, Any, list[list]]:
    """``(engine, final state, events per entry)``; refuses at the first entry that fails."""
    try:
        rules_engine = engine_named(str(document.get("rules", "orleans")))
    except UnknownRules as exc:
        raise ImportRefused(f"The document is refused: {exc.message}") from exc
    version = str(document.get("engine_version", ""))
    _require(rules_engine.loads_version(version),
             f"it was played with engine version {version!r}, which this site's engine "
             f"({rules_engine.ENGINE_VERSION}) does not declare compatible")
    try:
        options = rules_engine.GameOptions.from_dict(document["options"])
        state = rules_engine.new_game(options, document["seed"])
    except Exception as exc:  # noqa: BLE001 - any bad options or seed is a refusal
        raise ImportRefused(f"The document is refused: its options cannot start a game "
                            f"({getattr(exc, 'message', '') or exc}).") from exc
    _require(len(document["seats"]) == getattr(options, "players", len(document["seats"])),
             "the number of seats does not match the options")
    events_of = []
    for entry in document["log"]:
        seq, seat = entry["seq"], entry.get("seat")
        try:
            state, events = replay_entry(rules_engine, state, seat, entry.get("action"))
        except Exception as exc:  # noqa: BLE001 - a refused move, a bad seat: the reason is shown
            reason = getattr(exc, "message", "") or type(exc).__name__
            raise ImportRefused(f"The document is refused: move #{seq} does not replay ({reason}).") from exc
        events = json.loads(json.dumps(list(events)))
        _require("events" not in entry or entry["events"] == as_recorded(events, entry["events"]),
                 f"move #{seq} records other events than its replay")
        # the record is kept as written: events exported before message ids stay text only
        events_of.append(entry["events"] if "events" in entry else events)
    return rules_engine, state, events_of


def _placeholder(name: str):
    users = get_user_model()
    username = (PLACEHOLDER_PREFIX + name)[:150]
    user, created = users.objects.get_or_create(username=username, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def game_import(*, document: Any, is_public: bool = True) -> Game:
    """Create a finished, read-only game from an export ``document`` (a parsed JSON value).

    The log is replayed (``_replay``); the game is refused with ``ImportRefused`` (its
    ``message`` names the reason: the format, the engine version, the first move that does
    not replay, other events, another outcome, a game that is not over) and nothing is
    written. The new game has a new id, the current engine's version, the replayed snapshot,
    the log with its timestamps and sources, and the document's outcome.
    """
    _check_shape(document)
    rules_engine, state, events_of = _replay(document)
    if rules_engine.is_over(state):
        replayed = rules_engine.outcome(state)
    else:
        replayed = rules_engine.score(state)
        _require(document["outcome"].get("ended_early") is True, "its log does not end the game")
    _require(json.loads(json.dumps(replayed)) == document["outcome"],
             "its outcome is not the one its log replays to")
    meta = document["game"]
    name = str(meta.get("name") or "Imported game")[:80]
    game = Game.objects.create(
        name=name, creator=_placeholder(document["seats"][0]["name"]), max_seats=len(document["seats"]),
        options=rules_engine.GameOptions.from_dict(document["options"]).to_dict(), seed=document["seed"],
        rules=str(document.get("rules", "orleans")), engine_version=rules_engine.ENGINE_VERSION,
        state=rules_engine.to_json(state), version=len(document["log"]), status=GameStatus.FINISHED,
        outcome=document["outcome"], is_public=is_public, imported=True,
        started_at=_when(meta.get("started_at"), "started_at"),
        finished_at=_when(meta.get("finished_at"), "finished_at") or timezone.now(),
    )
    created = _when(meta.get("created_at"), "created_at")
    if created is not None:  # auto_now_add ignores a given time
        Game.objects.filter(pk=game.pk).update(created_at=created)
        game.created_at = created
    for entry in document["seats"]:
        Seat.objects.create(game=game, user=_placeholder(entry["name"]), order=entry["seat"],
                            colour=str(entry.get("colour") or Seat.COLOURS[entry["seat"] % len(Seat.COLOURS)])[:16])
    moves = Move.objects.bulk_create([
        Move(game=game, seq=entry["seq"], seat=entry.get("seat"), action=entry.get("action"), events=events,
             taken_back=entry.get("taken_back") is True, **source_fields(entry.get("source", "player")))
        for entry, events in zip(document["log"], events_of, strict=True)
    ])
    for move, entry in zip(moves, document["log"], strict=True):
        move.created_at = _when(entry.get("at"), f"move #{entry['seq']}'s time") or move.created_at
    Move.objects.bulk_update(moves, ["created_at"], batch_size=200)  # auto_now_add ignores given times
    return game
