"""Users and games for the page benchmark, written straight into the configured database.

Games are started through the services (``game_create``, ``seat_join``), then moved on by
the engine's random players (``engine.simulate.choose``) and stored as the services store
moves (one ``Move`` per entry with its events, the snapshot, ``_sync_awaiting`` for the
seats); a take-back is stored as the services store it (action ``UNDO`` with the engine's
``undo_event``, the move it took back marked ``taken_back``). Finished games for the profile
are copies of one game played to the end (``bulk_create``; unrated, no moves).
"""
from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from engine.simulate import choose
from games import services
from games.models import Game, GameStatus, Move, MoveSource, Seat
from games.rules import load_game
from games.selectors import seat_results
from games.services.records import records_rebuild
from games.services.store import _sync_awaiting, store_seat_results


def make_users(tag: str, count: int) -> list:
    """``count`` new users named ``<tag>-<n>`` (password "bench")."""
    User = get_user_model()
    User.objects.bulk_create([User(username=f"{tag}-{n}", email=f"{tag}-{n}@example.com") for n in range(count)])
    return list(User.objects.filter(username__startswith=f"{tag}-").order_by("pk"))


def start_game(users: list, seed: int, name: str, *, pace: str = "none", is_public: bool = True) -> Game:
    """A game of ``len(users)`` seats started through the services (the first user creates it)."""
    game = services.game_create(creator=users[0], name=name, max_seats=len(users), options={}, seed=seed,
                                pace=pace, is_public=is_public)
    for user in users[1:]:
        services.seat_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


@transaction.atomic
def advance(game: Game, moves: int, *, take_backs: int = 0, seed: int = 0, keep_active: bool = True) -> Game:
    """Play random moves on ``game`` until it has ``moves`` moves (its version), then store them.

    ``take_backs``: every decision the engine lets its seat take back is taken
    back and made again that many times (the log then holds the decision, its take-back,
    ..., the decision), as an undecided player does. ``keep_active``: stop before the move
    that would end the game; otherwise a game played to its end is stored finished (with
    its outcome; unrated). Returns the game row as stored.
    """
    rules_engine, state = load_game(game)
    rng = random.Random(seed ^ 0xBE7C)
    version, rows = game.version, []

    def add(seat, action, events, source=MoveSource.PLAYER):
        nonlocal version
        version += 1
        rows.append(Move(game=game, seq=version, seat=seat, action=action, events=list(events),
                         source=MoveSource.SYSTEM if seat is None else source))

    while version < moves and not rules_engine.is_over(state):
        if rules_engine.needs_resolution(state):
            new_state, events = rules_engine.resolve(state)
            if keep_active and rules_engine.is_over(new_state):
                break
            state = new_state
            add(None, {"type": "resolve"}, events)
            continue
        awaited = rules_engine.awaiting(state)
        seat = rng.choice(sorted(awaited))
        action = choose(rng, awaited[seat], rules_engine.legal_actions(state, seat), state.data, seat)
        new_state, events = rules_engine.apply(state, seat, action)
        if keep_active and rules_engine.is_over(new_state):
            break
        if rules_engine.undoable(new_state, seat):
            for _ in range(take_backs):
                if version + 3 > moves:
                    break
                add(seat, action, events)
                rows[-1].taken_back = True
                add(seat, dict(rules_engine.UNDO), [rules_engine.undo_event(seat)])
                new_state, events = rules_engine.apply(rules_engine.undo(new_state, seat), seat, action)
        state = new_state
        add(seat, action, events)
    # each move's round as the services store it (store._store_moves: the round its events
    # open, else the previous move's), so the page reads only the last two rounds' moves
    previous = Move.objects.filter(game=game).order_by("-seq").values_list("round", flat=True).first() or 1
    for row, number in zip(rows, Move.rounds_of([row.events for row in rows], previous), strict=True):
        row.round = number
    Move.objects.bulk_create(rows, batch_size=500)
    game.state = rules_engine.to_json(state)
    game.version = version
    if rules_engine.is_over(state):
        game.status, game.outcome, game.finished_at = GameStatus.FINISHED, rules_engine.outcome(state), timezone.now()
        game.rated = False
    game.save(update_fields=["state", "version", "status", "outcome", "finished_at", "rated"])
    _sync_awaiting(game, state)
    if game.status == GameStatus.FINISHED:
        store_seat_results(game)  # its seats' results and its players' records, as the services do
    return Game.objects.get(pk=game.pk)


def finished_copies(template: Game, user, opponents: list, count: int) -> int:
    """``count`` unrated finished copies of the finished ``template`` game, ``user`` in one
    seat and three of ``opponents`` in the others, finished a minute apart (newest first),
    each seat with its result (``store_seat_results``'s columns) and every player's record
    recounted (``records_rebuild``), as finishing them one by one would leave them.
    Returns ``count``."""
    now = timezone.now()
    seats_per_game = template.max_seats
    games = [Game(name=f"{template.name} #{n}", creator=user, max_seats=seats_per_game, options=template.options,
                  seed=template.seed, rules=template.rules, engine_version=template.engine_version,
                  state=template.state, version=template.version, status=GameStatus.FINISHED,
                  outcome=template.outcome, rated=False, started_at=now - dt.timedelta(days=2, minutes=n),
                  finished_at=now - dt.timedelta(minutes=n)) for n in range(count)]
    Game.objects.bulk_create(games, batch_size=500)
    seats, results = [], seat_results(template.outcome)
    for n, game in enumerate(games):
        others = [opponents[(n + k) % len(opponents)] for k in range(seats_per_game - 1)]
        mine = n % seats_per_game
        players = others[:mine] + [user] + others[mine:]
        for order, player in enumerate(players):
            placement, won, final_score = results.get(order, (None, False, None))
            seats.append(Seat(game=game, user=player, order=order, placement=placement, won=won,
                              final_score=final_score, finished_at=game.finished_at))
    Seat.objects.bulk_create(seats, batch_size=1000)
    records_rebuild({user.pk, *(opponent.pk for opponent in opponents)})
    return count


def waiting_seats(users: list, games: int, *, waited: dt.timedelta) -> int:
    """``games`` active games of ``len(users)`` seats (a bare snapshot-less row each: the
    reminder sweep reads no state) whose every seat has been awaited for ``waited``.
    Returns how many seats wait."""
    since = timezone.now() - waited
    rows = [Game(name=f"reminders {n}", creator=users[0], max_seats=len(users), status=GameStatus.ACTIVE,
                 state={}, started_at=since) for n in range(games)]
    Game.objects.bulk_create(rows, batch_size=500)
    # due for the sweep's look now, as a seat awaited that long is (``Seat.next_reminder_at``)
    seats = [Seat(game=game, user=user, order=order, awaiting="plan", awaiting_since=since, next_reminder_at=since)
             for game in rows for order, user in enumerate(users)]
    Seat.objects.bulk_create(seats, batch_size=1000)
    return len(seats)


def past_deadline(games: list[Game]) -> int:
    """Move the deadline of every awaited seat of ``games`` (started with a clock) an hour
    into the past, as if their banks ran out. Returns how many seats are due."""
    past = timezone.now() - dt.timedelta(hours=1)
    return Seat.objects.filter(game__in=games, deadline__isnull=False).exclude(awaiting="").update(
        deadline=past, clock_started_at=past - dt.timedelta(days=1))
