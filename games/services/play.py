"""Playing a game: a player's action, a phase's resolution, a timeout, the vote to end.

Every function is keyword-only, runs in one ``transaction.atomic`` block and locks the
game row first. Rules are never decided here: the services ask the game's rules engine
(``games.rules.engine_for``: which moves are private steps or provisional, the score as it
stands, the part of the game a timeout stops at) and store what it returns
(``store._store``); a ``RulesError`` from ``apply`` passes through unchanged. A game whose
stored state cannot be loaded raises ``GameDamaged`` (``games.rules.load_game``, which
reports it to the operators) before anything is written.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import clock
from games.errors import NoAbsentPlayer, NotSeated, StaleVersion
from games.models import Game, GameStatus, Move, MoveSource, Seat
from games.rules import RulesEngine, load_game
from games.services import outbox
from games.services.clocks import _player_decided
from games.services.live import touch_live
from games.services.locks import GameId, _lock_game, _lock_game_for_seat, _read_seats, _require_active
from games.services.queue import _play_queues, _save_queue_after_move
from games.services.ratings import game_rate
from games.services.store import (
    _queue_bot_move, _store, _store_moves, _sync_awaiting, read_page_with_writes, store_seat_results,
)

#: How many moves back a page may be and still be checked for independence.
STALE_WINDOW = 40


def moved_independently(rules_engine: RulesEngine, move_seat: int | None, action: dict,
                        seat_order: int | None) -> bool:
    """True if a stored move (``move_seat``, null for a resolution; its ``action``) leaves a
    page of ``seat_order`` (None: a spectator) current: another seat's private step of a
    simultaneous phase (the engine's ``is_private_step``: drawing, planning, answering an
    event for itself). Players planning at the same time do not refuse each other."""
    return move_seat is not None and move_seat != seat_order and rules_engine.is_private_step(action)


def _only_others_moved_independently(game: Game, rules_engine: RulesEngine, seat_order: int,
                                     expected_version: int) -> bool:
    """True if every move after ``expected_version`` was another seat's independent action
    (``moved_independently``, asked of the game's ``rules_engine``).

    Then the page the player acted on still shows everything their decision depends on, so
    the submission is checked against the current state instead of being refused as stale
    (the engine's ``apply`` still validates it). A resolution step (seat null) or any move of
    the player's own seat, or a page older than ``STALE_WINDOW`` moves, makes it stale.
    """
    if not 0 <= expected_version < game.version or game.version - expected_version > STALE_WINDOW:
        return False
    later = Move.objects.filter(game=game, seq__gt=expected_version).values_list("seat", "action")
    return all(moved_independently(rules_engine, seat, action, seat_order) for seat, action in later)


@transaction.atomic
def game_submit_action(*, game_id: GameId, user, action: dict, expected_version: int,
                       seated_only: bool = False, answer_page: bool = False) -> Move:
    """Apply one player's action: the only way a move enters a game.

    Locks the game, checks it is active and still at ``expected_version`` (else
    ``StaleVersion``, unless only other seats' independent simultaneous moves came in
    between: see ``_only_others_moved_independently``; the error has the engine's ``STALE``
    code), finds the user's seat (else ``NotSeated``), calls the engine's ``apply``
    (its ``RulesError`` propagates, nothing is written), then appends the ``Move``,
    stores the snapshot and bumps the version. If a simultaneous phase is now complete,
    ``resolve_game_task`` is queued to run after commit. Returns the new move.

    ``seated_only``: a user without a seat (or a game that does not exist) is refused with
    ``NotSeated`` first, without the lock (the view then picks its 404 or 403).
    ``answer_page``: the caller answers with ``user``'s game page drawn from ``move.game``;
    the stores read its seat rows and recent moves with their writes
    (``store.read_page_with_writes``).
    """
    game = _lock_game_for_seat(game_id, user, seated_only=seated_only, with_seats=True)
    if answer_page:
        read_page_with_writes(game, user)
    _require_active(game)
    rules_engine, state = load_game(game)
    seats = _read_seats(game, keep=True)  # all of them (read with the lock), kept for the store
    seat = next((s for s in seats if user.pk is not None and s.user_id == user.pk), None)
    if seat is None and seated_only:  # a seat gone while the lock was awaited: refused as a stranger
        raise NotSeated(gettext("You do not have a seat at this game."))
    if game.version != expected_version and not (
        seat is not None and _only_others_moved_independently(game, rules_engine, seat.order, expected_version)
    ):
        raise StaleVersion(expected=expected_version, actual=game.version, code=rules_engine.STALE)
    if seat is None:
        raise NotSeated(gettext("You do not have a seat at this game."))
    return _play_move(game, rules_engine, state, seat, action, source=MoveSource.PLAYER)


def _play_move(game: Game, rules_engine: RulesEngine, state, seat: Seat, action: dict, *,
               source: str) -> Move:
    """Apply ``action`` for ``seat`` and store it: the write path shared by a player's
    submission and a bot's move. The engine's ``apply`` validates it (its ``RulesError``
    propagates, nothing is written). A player's decision (``source`` player, not a
    provisional planning step) charges their clock and brings an absent player back; a
    bot's move leaves the seat absent. Then the seat's queue is kept in step, the move is
    stored and the queues that can play now are played. Caller holds the game row lock."""
    new_state, events = rules_engine.apply(state, seat.order, action)
    # a provisional planning step (placing, taking back) is no decision: repeating it buys no time
    if source == MoveSource.PLAYER and not rules_engine.is_provisional(action):
        _player_decided(game, seat)
    _save_queue_after_move(rules_engine, seat, action)
    move = _store(game, new_state, seat=seat.order, action=action, events=events, source=source)
    _play_queues(game, new_state)
    return move

@transaction.atomic
def game_resolve(*, game_id: GameId, expected_version: int) -> Move | None:
    """Resolve a completed simultaneous phase; idempotent.

    Does nothing (returns None) if the game has moved past ``expected_version``, is not
    active, or needs no resolution, so duplicate or late task deliveries are harmless.
    """
    game = _lock_game(game_id)
    if game.status != GameStatus.ACTIVE or game.version != expected_version:
        return None
    rules_engine, state = load_game(game)
    if not rules_engine.needs_resolution(state):
        return None
    new_state, events = rules_engine.resolve(state)
    move = _store(game, new_state, seat=None, action={"type": "resolve"}, events=events)
    _play_queues(game, new_state)
    return move


#: At most this many timeout actions are applied for one seat in one call (a torture debt
#: is paid one item at a time); a safety bound, never reached in a real game.
MAX_TIMEOUT_ACTIONS = 40


@transaction.atomic
def game_timeout(*, game_id: GameId, seat_order: int, expected_version: int,
                 now: dt.datetime | None = None) -> list[Move]:
    """Apply the timeout policy for a seat whose time bank ran out; idempotent.

    Does nothing (returns ``[]``) unless the game is active, still at ``expected_version``,
    and the seat is awaited with a running clock past its deadline at ``now`` — so a sweep
    that runs twice, or two sweeps racing, time a seat out once. Otherwise
    the engine's ``timeout_action`` is applied for the seat, within the round and phase it
    timed out in, until it is no longer awaited (a
    draw is followed by the plan's submission), each action stored as a move of source
    ``timeout``. The seat's bank becomes the increment, its consecutive timeouts grow by
    one, and after ``GAMES_ABSENT_AFTER_TIMEOUTS`` of them it is marked absent. The player
    gets a "you were timed out" email. Returns the moves stored.
    """
    now = now or timezone.now()
    game = _lock_game(game_id)
    if game.status != GameStatus.ACTIVE or game.version != expected_version:
        return []
    seat = Seat.objects.filter(game=game, order=seat_order).first()
    if seat is None or not seat.awaiting or seat.clock_started_at is None \
            or clock.remaining(seat, now) > 0:
        return []
    rules_engine, state = load_game(game)
    applied = []
    started_in = rules_engine.game_part(state)  # the part of the game the seat was deciding in
    while len(applied) < MAX_TIMEOUT_ACTIONS and not rules_engine.is_over(state):
        if rules_engine.game_part(state) != started_in:
            break  # the decision that timed out is made: the next part of the game has its own clock
        action = rules_engine.timeout_action(state, seat_order)
        if action is None:
            break
        state, events = rules_engine.apply(state, seat_order, action)
        applied.append((seat_order, action, events))
    # applied in memory, stored in one write (issue 14)
    moves = _store_moves(game, state, applied, source=MoveSource.TIMEOUT) if applied else []
    seat.refresh_from_db()
    clock.after_timeout(seat, game, now)
    seat.timeouts_in_a_row += 1
    seat.absent = seat.absent or seat.timeouts_in_a_row >= settings.GAMES_ABSENT_AFTER_TIMEOUTS
    seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline",
                             "timeouts_in_a_row", "absent"])
    outbox.seat_timed_out(game, seat, moves=len(moves))
    _play_queues(game, state)
    # an absent seat may now be played by the takeover bot
    _queue_bot_move(game, list(Seat.objects.filter(game=game).exclude(awaiting="")))
    outbox.deliver_game(game)
    return moves


@transaction.atomic
def game_vote_end(*, game_id: GameId, user) -> bool:
    """The user votes to end an active game in which a seat is absent; idempotent.

    When every seated player who is not absent has voted, the game is finished and scored
    as it stands (the engine's ``score``, RULES §10.3, stored in ``Game.outcome`` with
    its ``ended_early`` mark), placements recorded, rated (``ratings.game_rate``), everyone emailed. Returns
    True if this vote ended the game. Raises ``NotSeated``, ``WrongStatus``,
    ``NoAbsentPlayer`` (also when the voter is the absent one).
    """
    game = _lock_game(game_id)
    _require_active(game)
    seats = list(Seat.objects.filter(game=game))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise NotSeated(gettext("You do not have a seat at this game."))
    if not any(s.absent for s in seats) or mine.absent:
        raise NoAbsentPlayer(gettext("A game can be ended by vote only while another player is absent."))
    if not mine.votes_to_end:
        mine.votes_to_end = True
        mine.save(update_fields=["votes_to_end"])
        touch_live([game.pk])  # the others' pages show the vote (and, if it is the last, the end)
    if not all(s.votes_to_end for s in seats if not s.absent and not s.is_bot):
        return False
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    rules_engine, state = load_game(game)
    game.outcome = rules_engine.score(state)
    game.save(update_fields=["status", "finished_at", "outcome"])
    store_seat_results(game)
    game_rate(game_id=game.pk)
    _sync_awaiting(game, None)
    outbox.game_changed(game, newly_awaited=[], finished=True)
    return True

