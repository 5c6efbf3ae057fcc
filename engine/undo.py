"""Taking back one's own last decision(s) (issue 13), decided by the engine alone.

A decision is undoable when it revealed nothing and drew nothing: the random streams are
untouched (no draw from a bag, no random event or tile), no simultaneous step became
complete (no plan is revealed: the reveal waits for ``resolve``), and the game is still in
the same round and phase (a phase change turns hourglass tiles and runs the event, RULES
§5, §9). Like editing a plan before it is submitted (RULES §14 decision 14) it changes
nothing the other players could not see or have answered yet.

:func:`record` keeps, in ``data["undo"]``, what such a decision changed: ``{"seat": s,
"changed": {key: value before}, "players": [[index, player before], ...], "added": [keys new in
it], "prior": <the record before it or None>}`` — a difference, so a state carrying it stays
small. Any other seat's decision or a resolution replaces or drops it, so a take-back is
allowed only while no other player has acted since. A seat's consecutive undoable decisions
chain through ``prior``, at most ``DEPTH`` deep; another seat's record is not kept in it
(that right was lost when this seat acted). The record is bookkeeping: ``engine.view``
never shows it.
"""
from __future__ import annotations

from .errors import IllegalAction
from .messages import render
from .state import GameState, clone

#: How many consecutive decisions of one seat can be taken back.
DEPTH = 5

#: The action log entry of a take-back: ``(seat, UNDO)`` in a log means ``undo(state, seat)``
#: (:func:`engine.replay_steps` replays it, with the event :func:`undo_event`). Never a
#: legal action.
UNDO = {"type": "undo"}


def undo_event(seat: int) -> dict:
    """The public event of ``seat``'s take-back (the log's line for it)."""
    return {"kind": "undo", "seat": seat, "text": render("event.undo"), "msg": "event.undo", "params": {}}


def is_undo(action) -> bool:
    """True if ``action`` (a log entry's action) is the take-back entry :data:`UNDO`."""
    return isinstance(action, dict) and action.get("type") == UNDO["type"] and len(action) == 1


def _trim(record: dict | None, depth: int) -> dict | None:
    """``record`` with its chain cut to at most ``depth`` records (the oldest dropped);
    ``record`` itself when it is short enough (records are never changed, so shared)."""
    if record is None or depth <= 0:
        return None
    last, n = record, 1
    while n <= depth and last["prior"] is not None:  # is the chain longer than depth?
        last, n = last["prior"], n + 1
    if n <= depth:
        return record
    return {**record, "prior": _trim(record["prior"], depth - 1)}


def record(before: dict, after: dict, seat: int) -> None:
    """After ``seat``'s decision took ``before`` to ``after`` (a new tree, changed in
    place, that may share unchanged parts with ``before``): store the take-back record in ``after`` if the decision is undoable, else
    drop any record. ``before`` is a returned state's tree, never changed by the engine, so
    its values are kept without copying."""
    after.pop("undo", None)
    if (after["rng"] != before["rng"] or after["barrier"] or after["phase"] == "over"
            or after["round"] != before["round"] or after["phase"] != before["phase"]):
        return
    prior = before.get("undo")
    if prior is not None and prior["seat"] != seat:
        prior = None
    # ``after`` shares the parts apply did not copy: the same object is unchanged (engine.state.work_copy)
    changed = {}
    missing = 0  # keys of ``before`` that ``after`` lacks: then len(after) tells whether it has new ones
    get, absent = after.get, _MISSING  # locals: this loop runs over every top-level key
    for k, v in before.items():  # one pass, in ``before``'s key order
        w = get(k, absent)
        if w is not v:
            if w is absent:
                missing += 1
            if k != "undo" and k != "players" and w != v:
                changed[k] = v
    ps, qs = before["players"], after["players"]
    if len(ps) != len(qs):
        raise ValueError("a decision cannot change the number of players")
    players = []
    for i in range(len(ps)):  # a plain loop: cheaper than a comprehension for four seats
        if qs[i] is not ps[i] and qs[i] != ps[i]:
            players.append([i, ps[i]])
    added = [] if len(after) == len(before) - missing else [k for k in after if k not in before]
    after["undo"] = {"seat": seat, "changed": changed, "players": players, "added": added,
                     "prior": _trim(prior, DEPTH - 1)}


_MISSING = object()


def record_own_step(before: dict, after: dict, seat: int) -> None:
    """:func:`record` for a step of ``seat`` that changed nothing but, below the top level,
    its own player (a placement or a take-back while planning, ``engine.flow._PROVISIONAL``,
    which neither draws nor changes the round, the phase or the barrier): the same record
    (nothing else changed, no key added), without comparing the rest of the tree."""
    after.pop("undo", None)
    prior = before.get("undo")
    if prior is not None and prior["seat"] != seat:
        prior = None
    p, q = before["players"][seat], after["players"][seat]
    after["undo"] = {"seat": seat, "changed": {}, "players": [[seat, p]] if q is not p and q != p else [],
                     "added": [], "prior": _trim(prior, DEPTH - 1)}


def forget(after: dict) -> None:
    """A resolution (or any step not by one seat) ends every take-back."""
    after.pop("undo", None)


def undoable(state: GameState, seat: int) -> bool:
    """True if ``seat`` may take back its last decision now (see the module doc)."""
    last = state.data.get("undo")
    return last is not None and last["seat"] == seat


def undo(state: GameState, seat: int) -> GameState:
    """The state before ``seat``'s last decision, exactly (its random streams, turn and
    awaited decisions included); the seat's earlier consecutive decisions stay undoable.
    Raises :class:`IllegalAction` (code ``not_undoable``) if :func:`undoable` is False;
    ``state`` is never changed."""
    if not undoable(state, seat):
        raise IllegalAction(f"seat {seat} has no decision to take back in round {state.data['round']} "
                            f"({state.data['phase']})", code="not_undoable")
    last = state.data["undo"]
    data = clone({k: v for k, v in state.data.items() if k != "undo"})
    for key in last["added"]:
        data.pop(key, None)
    data.update(clone(last["changed"]))
    for index, player in last["players"]:
        data["players"][index] = clone(player)
    if last["prior"] is not None:
        data["undo"] = clone(last["prior"])
    return GameState(data)
