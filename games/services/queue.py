"""The action queue: a seat's private list of action-phase moves, played on its turns.

The queue's rules (which choice fields, which ranges, what may follow a pass) are still
copied here from the engine; the engine's pure queue module will replace ``_QUEUE_CHOICES``
and ``_queue_entry`` in one place.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction

import engine  # the Orléans components (_QUEUE_CHOICES), until the engine's queue module
from games.errors import NotSeated, QueueChanged, QueueError
from games.models import Game, GameStatus, Seat
from games.presenters.queue import queue_entry_label
from games.rules import engine_for
from games.services.clocks import _player_decided
from games.services.locks import GameId, _lock_game, _require_status
from games.services.store import _store

#: At most this many entries in a seat's action queue.
ACTION_QUEUE_LIMIT = 10


_QUEUE_CHOICES = {
    "recruit": lambda v: v in ("boatman", "craftsman", "trader"),
    "place_tile": lambda v: v in engine.content.PLACE_TILES,
    "route": lambda v: v in engine.content.ROUTES,
    "good": lambda v: v is None or v in engine.content.GOODS,
    "coins": lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 3,
}


def _queue_entry(entry: dict, seat_order: int, view: dict) -> dict:
    """Check and normalise an action queue entry: ``{"type": "pass"}`` or
    ``{"type": "activate", "space": <one of the seat's places>}`` with optional choice
    fields as in ``engine`` actions (``recruit``, ``place_tile``, ``route``, ``good``, ``coins``),
    each checked against the game's components. ``view`` is the engine's view of the game
    for the seat. Raises ``QueueError``."""
    if not isinstance(entry, dict) or entry.get("type") not in ("activate", "pass"):
        raise QueueError("Queue an action on one of your places, or passing.")
    if entry["type"] == "pass":
        return {"type": "pass"}
    unknown = set(entry) - {"type", "space"} - set(_QUEUE_CHOICES)
    if unknown:
        raise QueueError(f"Unknown fields in the queued action: {sorted(unknown)}.")
    for key, valid in _QUEUE_CHOICES.items():
        if key in entry and not valid(entry[key]):
            raise QueueError(f"The queued action's {key} is not valid.")
    places = set(engine.content.BOARD_SPACES) | set(view["players"][seat_order]["places"])
    if not isinstance(entry.get("space"), str) or entry["space"] not in places:
        raise QueueError("You can only queue actions on your own places.")
    return dict(entry)


def _matches(action: dict, entry: dict) -> bool:
    return all(action.get(key) == value for key, value in entry.items())


def _queue_follows_manual_move(seat: Seat, action: dict) -> None:
    """A manual pass empties the queue; using the place at its head by hand removes that
    entry (the player made the choice the queue was waiting for)."""
    if not seat.action_queue:
        return
    if action.get("type") == "pass":
        seat.action_queue = []
    elif action.get("type") == "activate" and seat.action_queue[0].get("space") == action.get("space"):
        seat.action_queue = seat.action_queue[1:]
    else:
        return
    seat.save(update_fields=["action_queue"])


def _play_queues(game: Game, state: Any) -> None:
    """Play queued actions while the seat whose turn it is has one that is legal now.

    Caller holds the game row lock, after storing ``state``. For the seat awaited for an
    action this round, the head of its queue is matched against the legal actions: exactly
    one match is played (and counts as the player's decision); several (a choice the queue
    does not fix, e.g. which good) leave the queue waiting for the player; none means the
    game went another way, so the queue is dropped. It stops at anything else (a prompt,
    another phase, the game's end).
    """
    rules_engine = engine_for(game)
    for _ in range(ACTION_QUEUE_LIMIT * Game.MAX_SEATS):
        if game.status != GameStatus.ACTIVE:
            return
        turn = [order for order, kind in rules_engine.awaiting(state).items() if kind == "action"]
        if not turn:
            return
        seat = Seat.objects.get(game=game, order=turn[0])
        if not seat.action_queue or seat.action_queue_round != state.round:
            return
        head = seat.action_queue[0]
        matches = [a for a in rules_engine.legal_actions(state, seat.order) if _matches(a, head)]
        if len(matches) != 1:
            if not matches:
                seat.action_queue = []
                seat.action_queue_note = (f"Your queue stopped at “{queue_entry_label(head)}”: it could not be "
                                          "played when your turn came, so the rest was dropped.")
                seat.save(update_fields=["action_queue", "action_queue_note"])
            return
        seat.action_queue = seat.action_queue[1:] if matches[0]["type"] != "pass" else []
        seat.save(update_fields=["action_queue"])
        _player_decided(game, seat)
        state, events = rules_engine.apply(state, seat.order, matches[0])
        _store(game, state, seat=seat.order, action=matches[0], events=events, queued=True)


def _lock_queue(game_id: GameId, user) -> tuple[Game, Seat, Any]:
    """Lock the game for a queue change; return it, the user's seat and the state."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.ACTIVE, "This game is not being played.")
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise NotSeated("You do not have a seat at this game.")
    state = engine_for(game).from_json(game.state)
    if state.phase not in ("planning", "actions"):
        raise QueueError("Actions can be queued while planning and during the action phase.")
    return game, seat, state


def _store_queue(game: Game, seat: Seat, state: Any, entries: list) -> list[dict]:
    if len(entries) > ACTION_QUEUE_LIMIT:
        raise QueueError(f"At most {ACTION_QUEUE_LIMIT} actions can be queued.")
    view = engine_for(game).view(state, seat.order)
    checked = [_queue_entry(entry, seat.order, view) for entry in entries]
    if any(entry["type"] == "pass" for entry in checked[:-1]):
        raise QueueError("Passing ends your round: nothing can be queued after it.")
    spaces = [entry["space"] for entry in checked if entry["type"] == "activate"]
    if len(spaces) != len(set(spaces)):
        raise QueueError("Each place can be used once a round: it is already in your queue.")
    seat.action_queue = checked
    seat.action_queue_round = state.round
    seat.action_queue_note = ""
    seat.save(update_fields=["action_queue", "action_queue_round", "action_queue_note"])
    _play_queues(game, state)
    seat.refresh_from_db(fields=["action_queue"])
    return seat.action_queue


@transaction.atomic
def seat_queue_change(*, game_id: GameId, user, op: str, entry: Any = None, index: Any = None) -> list[dict]:
    """Edit the user's action queue under the game's row lock (two tabs cannot lose an edit).

    ``op`` is ``add`` (append ``entry``), ``remove`` (the entry at ``index``, which must
    still be ``entry``: a tab showing an older queue cannot remove another entry) or
    ``clear``. Returns the queue as stored. Raises ``QueueError``, ``NotSeated``,
    ``WrongStatus``.
    """
    game, seat, state = _lock_queue(game_id, user)
    queue = list(seat.action_queue) if seat.action_queue_round == state.round else []
    if op == "add":
        queue.append(entry)
    elif op == "remove":
        if not isinstance(index, int) or not 0 <= index < len(queue) or queue[index] != entry:
            raise QueueChanged("Your queue has changed in the meantime: here it is again.")
        del queue[index]
    elif op == "clear":
        queue = []
    else:
        raise QueueError("Unknown queue operation.")
    return _store_queue(game, seat, state, queue)

