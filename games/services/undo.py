"""Taking back one's own last decision on the site (issue 13): ``game_take_back``.

The engine alone decides what may be taken back (``undoable``: no other seat acted since,
nothing drawn or revealed); the site adds one rule of its own: only a decision its player
made by hand, never one played by the action queue, the timeout policy or a bot. A
take-back is stored as a move of its own (action ``UNDO`` with the engine's ``undo_event``,
replayed with its ``undo``); the move it took back stays in the log marked ``taken_back``, and the turn
emails that move queued are cancelled.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import clock

from games.errors import NotSeated, StaleVersion, TakeBackRefused
from games.history import move_source
from games.models import Game, GameStatus, Move
from games.rules import RulesEngine, load_game
from games.selectors import forget_recent_moves
from games.services import outbox
from games.services.locks import GameId, _lock_game_for_seat, _read_seats, _require_active
from games.services.queue import _play_queues
from games.services.store import _store, read_page_with_writes

#: Shown when the engine says there is nothing to take back.
NOTHING_TO_TAKE_BACK = ("There is nothing to take back: another player has acted since, or your "
                        "last decision drew or revealed something.")
#: Shown when the last decision was not made by the player's own hand.
NOT_BY_HAND = "A move played by your action queue, the timeout or a bot cannot be taken back."


#: Rows ``last_own_move`` reads per query.
_LAST_OWN_PAGE = 8


def last_own_move(game: Game, rules_engine: RulesEngine, seat_order: int) -> Move | None:
    """The move a take-back by ``seat_order`` would take back: the seat's latest move that is
    neither a take-back itself nor already taken back (None if there is none). While the
    engine says the seat may take back, no other seat has moved after it. No query when
    ``game`` is the row a store just wrote (``store._store_moves``) and its newest move is
    that seat's decision: the game's newest move cannot have been taken back."""
    newest = getattr(game, "_newest_move", None)
    if newest is not None and newest.seq == game.version and newest.seat == seat_order \
            and not rules_engine.is_undo(newest.action):
        return newest
    moves = (Move.objects.filter(game=game, seat=seat_order, taken_back=False).order_by("-seq")
             .only("seq", "seat", "action", "source", "taken_back"))
    # small pages, not a server-side cursor over every row: the move is almost always
    # within the first few (only this seat's take-backs come before it)
    start = 0
    while True:
        page = list(moves[start:start + _LAST_OWN_PAGE])
        found = next((m for m in page if not rules_engine.is_undo(m.action)), None)
        if found is not None or len(page) < _LAST_OWN_PAGE:
            return found
        start += _LAST_OWN_PAGE


def take_back_refusal(game: Game, rules_engine: RulesEngine, state, seat_order: int) -> str:
    """Why ``seat_order`` may not take back its last decision now ("" if it may): the
    engine's ``undoable``, then the decision must be its player's own (``move_source``)."""
    if game.status != GameStatus.ACTIVE or not rules_engine.undoable(state, seat_order):
        return NOTHING_TO_TAKE_BACK
    move = last_own_move(game, rules_engine, seat_order)
    if move is None:
        return NOTHING_TO_TAKE_BACK
    if move_source(move) != "player":
        return NOT_BY_HAND
    return ""


@transaction.atomic
def game_take_back(*, game_id: GameId, user, expected_version: int, seated_only: bool = False,
                   answer_page: bool = False) -> Move:
    """Take back the user's last decision in an active game; returns the take-back move.

    Locks the game; refuses with ``StaleVersion`` unless the game is still at
    ``expected_version`` (a second tab showing an older position), ``NotSeated``,
    ``WrongStatus`` (not being played) or ``TakeBackRefused`` (``take_back_refusal``: the
    engine says nothing can be taken back, or the move was queued, timed out or a bot's).
    Otherwise stores the engine's ``undo`` as a new move (action ``UNDO``, ``undo_event``; the
    version goes up, so other tabs' pages are stale), marks the taken-back move
    ``taken_back``, cancels the turn emails it queued, removes the clock increment the
    decision earned (``clock.take_back``), and plays action queues as after any move.
    Nothing changes when it refuses. ``seated_only``, ``answer_page``: as
    ``play.game_submit_action``'s.
    """
    game = _lock_game_for_seat(game_id, user, seated_only=seated_only, with_seats=True)
    if answer_page:
        read_page_with_writes(game, user)
    _require_active(game)
    rules_engine, state = load_game(game)
    if game.version != expected_version:
        raise StaleVersion(expected=expected_version, actual=game.version, code=rules_engine.STALE)
    seats = _read_seats(game, keep=True)  # all of them (read with the lock), kept for the store
    seat = next((s for s in seats if user.pk is not None and s.user_id == user.pk), None)
    if seat is None:
        raise NotSeated(gettext("You do not have a seat at this game."))
    refusal = take_back_refusal(game, rules_engine, state, seat.order)
    if refusal:
        raise TakeBackRefused(refusal)
    taken_back = last_own_move(game, rules_engine, seat.order)
    new_state = rules_engine.undo(state, seat.order)
    if clock.has_clock(game) and not rules_engine.is_provisional(taken_back.action):
        clock.take_back(seat, game, timezone.now())  # the decision's increment goes with it
        seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline"])
    forget_recent_moves(game)  # a stored move changes: what this process kept of it is stale
    Move.objects.filter(pk=taken_back.pk).update(taken_back=True)
    outbox.move_taken_back(game, taken_back.seq)
    move = _store(game, new_state, seat=seat.order, action=dict(rules_engine.UNDO),
                  events=[rules_engine.undo_event(seat.order)])
    _play_queues(game, new_state)
    return move
