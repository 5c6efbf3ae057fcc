"""Scenario builders for the engine rule tests (tests/engine/test_<rule area>.py).

Every builder starts from a real new game (``engine.new_game``), edits a deep copy of its
JSON-safe state tree and wraps it in a fresh :class:`engine.GameState`, so each test sets up
exactly the position a RULES.md section talks about and then drives the public API.

Player edits are given as dicts per seat: ``goods`` and ``tracks`` are merged into the
existing dicts, every other key replaces the player's value.
"""
from __future__ import annotations

import pytest

import engine
from engine.state import clone

MERGED_FIELDS = ("goods", "tracks")
#: A ready Scriptorium (Knight + Scholar): keeps a seat in the action phase without
#: passing, so the turn stays put after another seat acts.
BLOCKER = {"scriptorium": ["knight", "scholar"]}


def new_data(players: int = 2, seed: int = 1, **options) -> dict:
    """A deep copy of a fresh game's state tree (round 1, planning)."""
    return clone(engine.new_game(engine.GameOptions(players=players, **options), seed).data)


def edit_player(d: dict, seat: int, fields: dict | None) -> None:
    """Apply ``fields`` to seat ``seat`` of the tree ``d`` (goods/tracks merged)."""
    p = d["players"][seat]
    for key, value in (fields or {}).items():
        if key in MERGED_FIELDS:
            p[key].update(value)
        else:
            p[key] = clone({"v": value})["v"]


def build(phase: str, seats: dict | None = None, players: int = 2, seed: int = 1, options: dict | None = None,
          stage=None, **top) -> engine.GameState:
    """A state in ``phase`` with every seat's bag, market and spaces emptied, then edited.

    ``seats`` maps seat -> player edits; ``top`` replaces top-level keys (round, event, ...).
    """
    d = new_data(players, seed, **(options or {}))
    d.update(phase=phase, turn=None, barrier=False, event_waited=False, start_player=0)
    for p in d["players"]:
        p.update(stage=stage, passed=False, market=[], bag={}, plan=[], pulled=0, spaces={}, prompts=[])
    for seat, fields in (seats or {}).items():
        edit_player(d, seat, fields)
    d.update(clone(top))
    return engine.GameState(d)


def action_state(p0: dict | None = None, players: int = 2, event: str = "trading_day", round: int = 2,
                 others: dict | None = None, blockers: bool = True, **kw) -> engine.GameState:
    """Action phase, seat 0 to act, start player 0; the event (Trading Day) pays nothing
    without stations, so a round that ends during a test changes no coins.

    Each other seat gets ``others`` (or, with ``blockers``, a ready Scriptorium) so that the
    turn waits on it after seat 0 acts instead of rolling on into the event phase.
    """
    seats = {0: p0 or {}}
    for seat in range(1, players):
        seats[seat] = dict(others or ({"spaces": BLOCKER} if blockers else {}))
    return build("actions", seats, players=players, event=event, round=round, **{"turn": 0, **kw})


def planning_state(seats: dict | None = None, players: int = 2, round: int = 2, event: str = "income",
                   **kw) -> engine.GameState:
    """Planning phase, every seat in the ``plan`` stage."""
    return build("planning", seats, players=players, stage="plan", round=round, event=event, **kw)


def draw_state(seats: dict | None = None, players: int = 2, round: int = 2, event: str = "income",
               **kw) -> engine.GameState:
    """Followers phase, every seat in the ``draw`` stage."""
    return build("planning", seats, players=players, stage="draw", round=round, event=event, **kw)


def end_of_actions(seats: dict | None = None, players: int = 2, event: str = "pilgrimage", round: int = 2,
                   **kw) -> engine.GameState:
    """Action phase where every seat but 0 has passed and seat 0 is to act."""
    seats = dict(seats or {})
    for seat in range(1, players):
        seats[seat] = {"passed": True, **seats.get(seat, {})}
    return build("actions", seats, players=players, event=event, round=round, **{"turn": 0, **kw})


def run_event(event: str, seats: dict | None = None, players: int = 2, round: int = 2, **kw):
    """Seat 0 passes last: the round's ``event`` is resolved (and, if no prompt is open,
    the next round starts with its census). Returns ``(state, events)``."""
    state = end_of_actions(seats, players=players, event=event, round=round, **kw)
    return engine.apply(state, 0, {"type": "pass"})


def without_undo(state: engine.GameState) -> dict:
    """The state's tree without its take-back bookkeeping (``engine.undo``): what two
    positions of the same game reached by different numbers of decisions share."""
    return {k: v for k, v in state.data.items() if k != "undo"}


def act(state: engine.GameState, seat: int = 0, **action) -> engine.GameState:
    """Apply ``action`` (keyword fields, ``type`` included) and return the new state."""
    return engine.apply(state, seat, action)[0]


def activate(state: engine.GameState, space: str, seat: int = 0, **choice) -> engine.GameState:
    """Activate ``space`` for ``seat`` with the given choice fields."""
    return act(state, seat, type="activate", space=space, **choice)


def activations(state: engine.GameState, space: str, seat: int = 0) -> list[dict]:
    """The legal ``activate`` actions of ``space`` for ``seat`` (choice fields only)."""
    return [{k: v for k, v in a.items() if k not in ("type", "space")}
            for a in engine.legal_actions(state, seat) if a["type"] == "activate" and a["space"] == space]


def can_activate(state: engine.GameState, space: str, seat: int = 0) -> bool:
    """True if ``space`` has at least one legal activation for ``seat`` now."""
    return bool(activations(state, space, seat))


def placements(state: engine.GameState, seat: int = 0) -> set[tuple[str, str]]:
    """``{(follower, space)}`` of the legal ``place`` actions of ``seat``."""
    return {(a["follower"], a["space"]) for a in engine.legal_actions(state, seat) if a["type"] == "place"}


def draw_counts(state: engine.GameState, seat: int = 0) -> list[int]:
    """The counts of the legal ``draw`` actions of ``seat``."""
    return [a["count"] for a in engine.legal_actions(state, seat) if a["type"] == "draw"]


def torture_items(state: engine.GameState, seat: int = 0) -> list[dict]:
    """Legal torture actions of ``seat`` without the ``type`` field."""
    return [{k: v for k, v in a.items() if k != "type"} for a in engine.legal_actions(state, seat)]


def player(state: engine.GameState, seat: int = 0) -> dict:
    """The raw player dict of ``seat``."""
    return state.data["players"][seat]


def assert_refused(state: engine.GameState, seat, action, error=engine.IllegalAction) -> None:
    """``apply`` raises ``error`` and leaves ``state`` exactly as it was."""
    before = clone(state.data)
    with pytest.raises(error):
        engine.apply(state, seat, action)
    assert state.data == before


def edited(state: engine.GameState, change) -> engine.GameState:
    """A new state: ``change(d)`` applied to a deep copy of ``state``'s tree."""
    d = clone(state.data)
    change(d)
    return engine.GameState(d)
