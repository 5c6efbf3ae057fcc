"""Integrity of a stored game: does its ``Move`` log replay to its snapshot?

A game is stored twice: the snapshot (``Game.state`` at ``Game.version``) the site plays
from, and the append-only log of ``Move`` rows that produced it. :func:`verify_game`
replays the log with the game's rules engine (``games.rules.engine_for``) from
``new_game(options, seed)`` and reports the first place where the two disagree: a move the
engine refuses, a resolve step with nothing to resolve, events that differ from the
recorded ones, a gap in the sequence, a snapshot that cannot be loaded (unknown schema)
or that differs from the replay, a finished game's result that differs from the replay's. Read-only; used by ``manage.py games_verify``.

:func:`replay_log` replays the log alone under the engine registered for the game's rules
(not the pinned version): ``games.services.repair`` rebuilds a snapshot from it when the
log replays cleanly, which is what ``games_verify --fix`` does.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.errors import ServiceError
from games.models import Game, GameStatus, Move
from games.rules import RulesEngine, as_recorded, engine_for, engine_named, replay_entry


@dataclass(frozen=True)
class Divergence:
    """Why a game's log and snapshot disagree.

    ``move`` is the ``Move.seq`` of the first move that fails or differs (None when the
    problem is not one move's: the snapshot itself, the version); ``why`` one English
    sentence for the operator.
    """

    game_id: str
    move: int | None
    why: str

    def __str__(self) -> str:
        where = f"move #{self.move}" if self.move is not None else "snapshot"
        return f"game {self.game_id}: {where}: {self.why}"


def _plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON column (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def first_difference(stored: Any, replayed: Any, path: str = "state") -> str | None:
    """Where two JSON values first differ, e.g. ``"state.players[1].coins: stored 12,
    replayed 5"``; None if they are equal."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in sorted(set(stored) | set(replayed), key=str):
            if key not in stored:
                return f"{path}.{key}: missing from the stored snapshot"
            if key not in replayed:
                return f"{path}.{key}: not in the replayed state"
            found = first_difference(stored[key], replayed[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(replayed, list):
        for index, (left, right) in enumerate(zip(stored, replayed, strict=False)):  # lengths below
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        if len(stored) != len(replayed):
            return f"{path}: stored {len(stored)} items, replayed {len(replayed)}"
        return None
    if stored != replayed:
        return f"{path}: stored {_short(stored)}, replayed {_short(replayed)}"
    return None


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _move_label(move: Move) -> str:
    who = "resolve step" if move.seat is None else f"seat {move.seat}"
    return f"{who}, action {_short(move.action)}"


def verify_game(game: Game) -> Divergence | None:
    """Replay ``game``'s log and compare it with the stored snapshot and version.

    Returns the first :class:`Divergence`, or None when the log replays exactly to
    ``game.state`` in ``game.version`` moves (and, where recorded, to each move's events).
    A game that never started (no state) must have no moves. Never raises for a damaged
    game: an unknown rules name, another engine major version, an unreadable snapshot
    and any engine error are all reported as divergences.
    """
    game_id = str(game.pk)
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    if game.state is None:
        if moves or game.version:
            return Divergence(game_id, None, f"no snapshot, but version {game.version} and "
                                             f"{len(moves)} logged moves")
        if game.status in (GameStatus.ACTIVE, GameStatus.FINISHED):
            return Divergence(game_id, None, f"the game is {game.status} but has no snapshot")
        return None
    try:
        rules_engine = engine_for(game)
    except ServiceError as exc:
        return Divergence(game_id, None, f"cannot be loaded: {exc}")
    try:
        rules_engine.from_json(game.state)
    except Exception as exc:  # noqa: BLE001 - any damage to the stored state is reported
        return Divergence(game_id, None, f"the stored snapshot cannot be loaded "
                                         f"({type(exc).__name__}: {exc})")
    state, divergence = _replay_moves(game, rules_engine, moves)
    if divergence is not None:
        return divergence
    if len(moves) != game.version:
        return Divergence(game_id, None, f"version {game.version} but {len(moves)} logged moves")
    difference = first_difference(_plain(game.state), _plain(rules_engine.to_json(state)))
    if difference:
        return Divergence(game_id, None, f"differs from the replayed log at {difference}")
    if rules_engine.is_over(state):
        if game.status != GameStatus.FINISHED:
            return Divergence(game_id, None, f"the replayed game is over but its status is {game.status}")
        difference = first_difference(_plain(game.outcome), _plain(rules_engine.outcome(state)),
                                      "outcome")
        if difference:
            return Divergence(game_id, None, f"the stored result differs from the replayed one at "
                                             f"{difference}")
    return None


def _replay_moves(game: Game, rules_engine: RulesEngine, moves: list[Move]) -> tuple[Any, Divergence | None]:
    """``(state, None)`` after replaying ``moves`` from ``new_game(options, seed)`` under
    ``rules_engine``, each move's events checked; ``(None, divergence)`` at the first problem."""
    game_id = str(game.pk)
    try:
        options = rules_engine.GameOptions.from_dict(game.options)
        state = rules_engine.new_game(options, game.seed)
    except Exception as exc:  # noqa: BLE001
        return None, Divergence(game_id, None, f"cannot set up the game from its options and seed "
                                               f"({type(exc).__name__}: {exc})")
    for expected_seq, move in enumerate(moves, start=1):
        if move.seq != expected_seq:
            return None, Divergence(game_id, move.seq, f"the log skips from move #{expected_seq - 1} "
                                                       f"to #{move.seq}")
        try:
            if move.seat is None and not rules_engine.needs_resolution(state):
                return None, Divergence(game_id, move.seq, "a resolve step where the engine has "
                                                           "nothing to resolve")
            state, events = replay_entry(rules_engine, state, move.seat, move.action)
        except Exception as exc:  # noqa: BLE001 - a refused move or an engine crash alike
            message = str(exc) or getattr(exc, "message", "")  # the developer text: for operators
            return None, Divergence(game_id, move.seq, f"the engine refuses it ({_move_label(move)}): "
                                                       f"{type(exc).__name__}: {message}")
        if _plain(as_recorded(list(events), move.events)) != _plain(move.events):
            return None, Divergence(game_id, move.seq, f"its recorded events differ from the replay "
                                                       f"({_move_label(move)})")
    return state, None


def replay_log(game: Game) -> tuple[RulesEngine, Any, int, Divergence | None]:
    """Replay ``game``'s move log under the engine now registered for its rules, ignoring
    its pinned engine version and its stored snapshot.

    Returns ``(engine, state, moves replayed, None)`` when every move replays, with the
    events it recorded; ``(engine or None, None, 0, divergence)`` at the first problem
    (unknown rules, a gap, a refused move, other events). Never raises for a damaged game.
    """
    try:
        rules_engine = engine_named(game.rules)
    except ServiceError as exc:
        return None, None, 0, Divergence(str(game.pk), None, f"cannot be loaded: {exc}")
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    state, divergence = _replay_moves(game, rules_engine, moves)
    return rules_engine, state, len(moves), divergence
