"""The action queue, pure: a seat lists its action-phase moves in advance (RULES §8.7).

A queue is a list of entries, the JSON the site stores per seat: ``{"type": "pass"}`` or
``{"type": "activate", "space": <place id>}`` with optional scalar choice fields
(``recruit``, ``place_tile``, ``route``, ``good``, ``coins``) fixing the choices of that
place, as in ``engine`` actions. An entry matches a legal action when every field of the
entry has the same value in the action.

- :func:`check_queue` checks and normalises a whole queue for a seat (raises
  :class:`QueueRefused` with a code and a player sentence);
- :func:`next_queued` says what to do on the seat's turn: ``("play", action)``,
  ``("wait", reason)`` or ``("drop", reason)``;
- :func:`queue_after_move` is the queue after the seat's own move (by hand or queued).

Reasons are ``{"code", "params", "message"}`` dicts (JSON-safe; the message is one English
sentence, or two for a dropped queue).
"""

from __future__ import annotations

from .describe import describe_queue_entry
from .errors import QueueRefused
from .flow import awaiting_data, legal_data
from .places import activatable_places, choice_fields
from .refusals import reason as refusal_reason, render
from .state import GameState

#: At most this many entries in a queue (the site may pass its own ``limit``).
QUEUE_LIMIT = 10
#: Phases in which a queue may be set (RULES §8.4 planning, §8.7 actions).
QUEUE_PHASES = ("planning", "actions")
_SCALARS = (str, int, type(None))


def own_places(state: GameState, seat: int) -> list[str]:
    """The places ``seat`` owns that are an action of the action phase, in board order:
    the ten board spaces and its place tiles with an action (RULES §5, §8.7, §11)."""
    return activatable_places(state.data["players"][seat])


def _refuse(code: str, **params) -> QueueRefused:
    return QueueRefused(f"queue refused: {code} {params!r}", code=code, params=params)


def check_entry(state: GameState, seat: int, entry) -> dict:
    """Check one queue entry for ``seat`` and return it normalised (a new dict).

    ``entry`` may be any JSON value. Refused (:class:`QueueRefused`) with code
    ``queue_entry`` (not a pass or an activation), ``queue_not_action`` (an own place tile
    without an action-phase action: Sacristy, Herb Garden, School), ``queue_field`` (a field that place does
    not choose), ``queue_choice`` (a value out of the component data's range) or
    ``queue_not_own`` (not one of :func:`own_places`).
    """
    if not isinstance(entry, dict) or entry.get("type") not in ("activate", "pass") \
            or not isinstance(entry.get("type"), str):
        raise _refuse("queue_entry")
    if entry["type"] == "pass":
        return {"type": "pass"}
    space = entry.get("space")
    if not isinstance(space, str) or space not in own_places(state, seat):
        if isinstance(space, str) and space in state.data["players"][seat]["places"]:
            raise _refuse("queue_not_action", place=space)  # Sacristy, Herb Garden, School (RULES §11)
        raise _refuse("queue_not_own")
    fields = choice_fields(space)
    unknown = sorted(str(k) for k in entry if k not in ("type", "space") and k not in fields)
    if unknown:
        raise _refuse("queue_field", place=space, fields=unknown)
    for key in entry:
        if key in fields:
            value = entry[key]
            if not isinstance(value, _SCALARS) or isinstance(value, bool) or value not in fields[key]:
                raise _refuse("queue_choice", place=space, field=key)
    return dict(entry)


def check_queue(state: GameState, seat: int, entries, limit: int = QUEUE_LIMIT) -> list[dict]:
    """Check and normalise a whole queue for ``seat`` (each entry as :func:`check_entry`).

    Refused (:class:`QueueRefused`) with code ``queue_phase`` (only while planning or in the
    action phase), ``queue_limit`` (more than ``limit`` entries), ``queue_after_pass``
    (passing ends the round, RULES §8.7) or ``queue_place_twice`` (each place is used once a
    round, RULES §8.7), or an entry's code.
    """
    if state.data["phase"] not in QUEUE_PHASES:
        raise _refuse("queue_phase")
    if not isinstance(entries, list):
        raise _refuse("queue_entry")
    if len(entries) > limit:
        raise _refuse("queue_limit", limit=limit)
    checked = [check_entry(state, seat, entry) for entry in entries]
    if any(entry["type"] == "pass" for entry in checked[:-1]):
        raise _refuse("queue_after_pass")
    spaces = [entry["space"] for entry in checked if entry["type"] == "activate"]
    if len(spaces) != len(set(spaces)):
        raise _refuse("queue_place_twice")
    return checked


def matches(action: dict, entry: dict) -> bool:
    """True if every field of ``entry`` has the same value in ``action``."""
    return all(action.get(key) == value for key, value in entry.items())


def queue_after_move(entries: list, action) -> list:
    """The queue after the seat's own move ``action``: a pass empties it (RULES §8.7: the
    round is over for the seat); using a place (by hand or from the queue) removes that
    place's entry wherever it stands in the queue (a queue holds a place once, and a used
    place is not ready again this round); any other move leaves it as it is. Returns a new
    list."""
    if not entries or not isinstance(action, dict):
        return list(entries or [])
    if action.get("type") == "pass":
        return []
    if action.get("type") == "activate":
        return [e for e in entries if not (isinstance(e, dict) and e.get("type") == "activate"
                                           and e.get("space") == action.get("space"))]
    return list(entries)


def _reason(code: str, **params) -> dict:
    return {"code": code, "params": params, "message": render(code, params)}


def next_queued(state: GameState, seat: int, entries: list) -> tuple:
    """What the queue does now for ``seat``:

    - ``("play", action)``: the head matches exactly one legal action of the seat's action
      decision (RULES §8.7); apply it, then keep :func:`queue_after_move`;
    - ``("wait", reason)``: nothing to do now — the queue is empty (``queue_empty``), the
      seat is not deciding an action now (``queue_not_turn``: another seat's turn, a prompt,
      another phase, the game's end), or the head leaves a choice open that the queue does
      not fix (``queue_choice_open``; the player decides, the queue stays);
    - ``("drop", reason)``: the head cannot be played (``queue_not_playable``; the game
      went another way), so the whole queue is dropped; the reason's ``params["why"]`` is
      the refusal code of the head as an action and its message names both. A head that
      :func:`check_entry` refuses by its shape (any JSON value: ``queue_entry``,
      ``queue_field``, ``queue_choice``) is dropped with that code, never raises.
    """
    if not entries:
        return "wait", _reason("queue_empty")
    if awaiting_data(state.data).get(seat) != "action":
        return "wait", _reason("queue_not_turn")
    head = entries[0]
    try:
        check_entry(state, seat, head)
    except QueueRefused as refused:
        if not (isinstance(head, dict) and isinstance(head.get("space"), str)
                and refused.code in ("queue_not_own", "queue_not_action")):
            # not an entry at all (stored by other means than check_queue): dropped, never
            # matched loosely or searched for a reason with values of the wrong type
            return "drop", _reason("queue_not_playable", entry=describe_queue_entry(head), why=refused.code,
                                   why_params=dict(refused.params))
    legal = legal_data(state.data, seat)
    found = [a for a in legal if matches(a, head)]
    label = describe_queue_entry(head)
    if len(found) == 1:
        return "play", found[0]
    if found:
        return "wait", _reason("queue_choice_open", entry=label)
    why, why_params = ("not_allowed", {})
    if isinstance(head, dict) and head.get("type") == "activate" and isinstance(head.get("space"), str):
        why, why_params = refusal_reason(state.data, seat, dict(head), legal)
    return "drop", _reason("queue_not_playable", entry=label, why=why, why_params=why_params)
