"""Time banks kept by the game services: start, parallel clocks, decisions, increments, cap.

Time is frozen (``frozen_now``) and moved by hand; the fake engine's rounds are one
simultaneous phase in which every seat picks, so every awaited seat's clock runs at once.
"""
import datetime as dt

import engine
from games import clock
from games.models import Seat
from games.services import game_resolve, game_submit_action

HOUR = 3600


def seat_of(game, user):
    return Seat.objects.get(game=game, user=user)


def pick(game, user):
    game.refresh_from_db()
    game_submit_action(game_id=game.pk, user=user, action={"type": "pick", "n": 1},
                       expected_version=game.version)


def test_a_game_created_with_a_pace_stores_its_clock_in_seconds(fake_engine, clocked_game, alice,
                                                                bob):
    game = clocked_game(alice, bob, pace="normal")
    assert (game.clock_initial_seconds, game.clock_increment_seconds,
            game.clock_cap_seconds) == (3 * 24 * HOUR, 24 * HOUR, 6 * 24 * HOUR)
    assert clock.pace_of(game).name == "normal"


def test_every_awaited_seat_starts_with_the_initial_bank_and_a_running_clock(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob)
    for seat in Seat.objects.filter(game=game):
        assert seat.bank_seconds == 24 * HOUR
        assert seat.clock_started_at == frozen_now.now
        assert seat.deadline == frozen_now.now + dt.timedelta(hours=24)


def test_parallel_clocks_a_seat_that_acts_stops_and_gains_the_increment_the_other_runs_on(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob)
    start = frozen_now.now
    frozen_now.advance(hours=2)
    pick(game, alice)
    mine, theirs = seat_of(game, alice), seat_of(game, bob)
    assert (mine.bank_seconds, mine.clock_started_at, mine.deadline) == (28 * HOUR, None, None)
    assert theirs.deadline == start + dt.timedelta(hours=24)
    frozen_now.advance(hours=3)
    assert clock.remaining(seat_of(game, alice), frozen_now.now) == 28 * HOUR
    assert clock.remaining(seat_of(game, bob), frozen_now.now) == 19 * HOUR


def test_clocks_restart_when_the_next_phase_awaits_the_seats(fake_engine, clocked_game,
                                                             frozen_now, alice, bob):
    game = clocked_game(alice, bob)
    frozen_now.advance(hours=1)
    pick(game, alice)
    frozen_now.advance(hours=4)
    pick(game, bob)
    frozen_now.advance(minutes=10)
    game.refresh_from_db()
    game_resolve(game_id=game.pk, expected_version=game.version)
    mine, theirs = seat_of(game, alice), seat_of(game, bob)
    assert mine.bank_seconds == 29 * HOUR and theirs.bank_seconds == 25 * HOUR
    assert mine.clock_started_at == theirs.clock_started_at == frozen_now.now
    assert mine.deadline == frozen_now.now + dt.timedelta(hours=29)


def test_the_bank_grows_by_the_increment_but_never_past_the_cap(fake_engine, clocked_game,
                                                                frozen_now, alice, bob):
    game = clocked_game(alice, bob)
    Seat.objects.filter(game=game, user=alice).update(bank_seconds=45 * HOUR)
    Seat.objects.filter(game=game, user=alice).update(clock_started_at=frozen_now.now)
    frozen_now.advance(minutes=30)
    pick(game, alice)
    assert seat_of(game, alice).bank_seconds == 48 * HOUR  # 44.5 h + 6 h, capped at 2 x 24 h


def test_a_game_without_a_clock_never_runs_one(fake_engine, clocked_game, alice, bob):
    game = clocked_game(alice, bob, pace="none")
    assert not clock.has_clock(game)
    for seat in Seat.objects.filter(game=game):
        assert (seat.clock_started_at, seat.deadline) == (None, None)
    pick(game, alice)
    assert seat_of(game, alice).bank_seconds == 0


def test_placing_and_taking_back_followers_earns_nothing_submitting_the_plan_does(
        clocked_game, frozen_now, alice, bob):
    """Real engine, round 1 planning: ``place``/``unplace`` are steps, not decisions."""
    game = clocked_game(alice, bob)
    seat = seat_of(game, alice)
    state = engine.from_json(game.state)
    place = next(a for a in engine.legal_actions(state, seat.order) if a["type"] == "place")
    frozen_now.advance(hours=1)
    game_submit_action(game_id=game.pk, user=alice, action=place, expected_version=game.version)
    seat = seat_of(game, alice)
    assert seat.bank_seconds == 24 * HOUR and seat.clock_started_at is not None
    assert clock.remaining(seat, frozen_now.now) == 23 * HOUR
    game.refresh_from_db()
    frozen_now.advance(hours=1)
    game_submit_action(game_id=game.pk, user=alice, action={"type": "submit_plan"},
                       expected_version=game.version)
    seat = seat_of(game, alice)
    assert (seat.bank_seconds, seat.deadline) == (28 * HOUR, None)
