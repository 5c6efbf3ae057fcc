"""The action queue: a seat's private list of action-phase moves, played on its turns.

The queue's rules (which entries, choice fields and ranges, what may follow a pass, what
to do on the seat's turn) are the rules engine's ``queue`` (``engine.queue``); the site
stores the list per seat with the round it was made for, and plays what the engine says.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from games.errors import NotSeated, QueueChanged, QueueError
from games.models import Game, GameStatus, MoveSource, Seat
from games.rules import RulesEngine, engine_for, load_game, player_message
from games.services.clocks import _player_decided
from games.services.locks import GameId, _lock_game, _require_active
from games.services.store import _queue_verdict, _store

#: At most this many entries in a seat's action queue (the site's bound, passed to the
#: engine's ``check_queue`` as its ``limit``).
ACTION_QUEUE_LIMIT = 10


def _queue_round(rules_engine: RulesEngine, state: Any) -> int:
    """The round a queue stored now is for (a queue of an earlier round is ignored)."""
    return rules_engine.game_part(state)[0]


def _save_queue_after_move(rules_engine: RulesEngine, seat: Seat, action: dict) -> None:
    """Store the seat's queue after its own move, by hand or queued (the engine's
    ``queue_after_move``: e.g. a pass keeps only the answers for what follows it, using the
    place at its head removes that entry: the player made the choice the queue was waiting
    for). The queue's note (why it waited or was dropped) has been read: it is cleared."""
    if seat.action_queue_note or seat.action_queue_note_message is not None:
        _note(seat, None)
    if not seat.action_queue:
        return
    after = rules_engine.queue.queue_after_move(seat.action_queue, action)
    if after != seat.action_queue:
        seat.action_queue = after
        seat.save(update_fields=["action_queue"])


#: Reasons a queue waits for its player at a decision (noted on the queue card, RULES §8.7).
_WAIT_NOTES = ("queue_choice_open", "queue_choice_illegal", "queue_answer_changed")


#: The seat fields a queue note is stored in (its English text and its code and params).
_NOTE_FIELDS = ["action_queue_note", "action_queue_note_message"]


def _note(seat: Seat, reason: dict | None, *, save: bool = True) -> None:
    """Set the seat's queue note to the engine's ``reason`` (``{"code", "params",
    "message"}``; None clears it): its English sentence and its code and params, which the
    queue card renders in the viewer's language (``games.messages.queue_note``)."""
    text = reason["message"] if reason else ""
    structured = {"code": reason["code"], "params": reason.get("params") or {}} if reason else None
    if (seat.action_queue_note, seat.action_queue_note_message) != (text, structured):
        seat.action_queue_note, seat.action_queue_note_message = text, structured
        if save:
            seat.save(update_fields=_NOTE_FIELDS)


def _next_queue_move(game: Game, rules_engine: RulesEngine, state: Any) -> tuple[Seat, str, Any] | None:
    """The first awaited seat whose queue (of this round) has something to do: ``(seat,
    "play", action)`` or ``(seat, "drop", reason)``; None if every queue waits. A queue
    waiting at a decision its player must make leaves the engine's reason as its note.
    No query when the seats the last store wrote (``store._sync_awaiting``) show no
    queue of this round among the awaited seats."""
    awaited = list(rules_engine.awaiting(state))
    current = _queue_round(rules_engine, state)
    synced = getattr(game, "_synced_seats", None)  # the seats as the last move's store wrote them
    if synced is not None and not any(s.action_queue and s.action_queue_round == current and s.order in awaited
                                      for s in synced):
        return None  # no queue of this round among the awaited seats: nothing to read
    game.__dict__.pop("_synced_seats", None)  # seats are read (and noted) below: the store's are out of date
    # one query a move played: the seats' clocks and queues change as moves are stored
    for seat in Seat.objects.filter(game=game, order__in=awaited,
                                    action_queue_round=current).order_by("order"):
        found = _queue_verdict(rules_engine, state, seat)
        if found is None:
            continue
        verdict, detail = found
        if verdict != "wait":
            return seat, verdict, detail
        if detail["code"] in _WAIT_NOTES:
            _note(seat, detail)
    return None


def _play_queues(game: Game, state: Any) -> None:
    """Play queued actions while a seat's queue has one the engine says to play now.

    Caller holds the game row lock, after storing ``state``. For each awaited seat with a
    queue of this round, the engine's ``next_queued`` decides (RULES §8.7): ``play`` applies
    the action (it counts as the player's decision: the increment, no clock time charged,
    since a seat played from its queue is not awaited, ``store._sync_awaiting``) and keeps
    ``queue_after_move``; ``wait`` (not its turn, a choice the queue does not fix or that is
    not possible now) leaves the queue for the player with the engine's reason as its note;
    ``drop`` (the game went another way) empties it and leaves the reason as the note.
    """
    rules_engine = engine_for(game)
    for _ in range(ACTION_QUEUE_LIMIT * Game.MAX_SEATS * 2):
        if game.status != GameStatus.ACTIVE:
            return
        found = _next_queue_move(game, rules_engine, state)
        if found is None:
            return
        seat, verdict, detail = found
        if verdict == "drop":
            seat.action_queue = []
            _note(seat, detail, save=False)
            seat.save(update_fields=["action_queue", *_NOTE_FIELDS])
            continue
        _save_queue_after_move(rules_engine, seat, detail)
        _player_decided(game, seat)
        state, events = rules_engine.apply(state, seat.order, detail)
        _store(game, state, seat=seat.order, action=detail, events=events, source=MoveSource.QUEUE)


def _lock_queue(game_id: GameId, user) -> tuple[Game, Seat, RulesEngine, Any]:
    """Lock the game for a queue change; return it, the user's seat, its engine and state."""
    game = _lock_game(game_id)
    _require_active(game)
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise NotSeated(gettext("You do not have a seat at this game."))
    rules_engine, state = load_game(game)
    return game, seat, rules_engine, state


def _store_queue(game: Game, seat: Seat, rules_engine: RulesEngine, state: Any, entries: list) -> list[dict]:
    """Check ``entries`` with the engine's ``check_queue`` (its refusal becomes a
    ``QueueError`` with the engine's code and player sentence), store them for this round
    and play what can be played now."""
    try:
        checked = rules_engine.queue.check_queue(state, seat.order, entries, limit=ACTION_QUEUE_LIMIT)
    except rules_engine.QueueRefused as exc:
        raise QueueError(player_message(exc), code=exc.code) from exc
    seat.action_queue = checked
    seat.action_queue_round = _queue_round(rules_engine, state)
    _note(seat, None, save=False)
    seat.save(update_fields=["action_queue", "action_queue_round", *_NOTE_FIELDS])
    game.__dict__.pop("_synced_seats", None)  # a queue was stored since: read the seats
    _play_queues(game, state)
    seat.refresh_from_db(fields=["action_queue"])
    return seat.action_queue


@transaction.atomic
def seat_queue_change(*, game_id: GameId, user, op: str, entry: Any = None, index: Any = None) -> list[dict]:
    """Edit the user's action queue under the game's row lock (two tabs cannot lose an edit).

    ``op`` is ``add`` (append ``entry``), ``remove`` (the entry at ``index``, which must
    still be ``entry``: a tab showing an older queue cannot remove another entry) or
    ``clear``. The whole queue is checked by the engine (only while planning or in the
    action phase, RULES §8.7). Returns the queue as stored. Raises ``QueueError`` (with
    the engine's refusal sentence), ``QueueChanged``, ``NotSeated``, ``WrongStatus``.
    """
    game, seat, rules_engine, state = _lock_queue(game_id, user)
    queue = list(seat.action_queue) if seat.action_queue_round == _queue_round(rules_engine, state) else []
    if op == "add":
        queue.append(entry)
    elif op == "remove":
        if not isinstance(index, int) or not 0 <= index < len(queue) or queue[index] != entry:
            raise QueueChanged(gettext("Your queue has changed in the meantime: here it is again."))
        del queue[index]
    elif op == "clear":
        queue = []
    else:
        raise QueueError(gettext("Unknown queue operation."))
    return _store_queue(game, seat, rules_engine, state, queue)
