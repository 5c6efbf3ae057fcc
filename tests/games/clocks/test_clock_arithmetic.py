"""games.clock: the time-bank arithmetic on plain objects (no database, no sleeps)."""
import datetime as dt
from types import SimpleNamespace

import pytest

from games import clock

T0 = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.timezone.utc)
HOUR = 3600


def fast_game():
    pace = clock.PACES["fast"]
    return SimpleNamespace(clock_initial_seconds=pace.initial,
                           clock_increment_seconds=pace.increment, clock_cap_seconds=pace.cap)


def seat(bank, started=None):
    return SimpleNamespace(bank_seconds=bank, clock_started_at=started, deadline=None)


def test_the_presets_have_their_documented_banks_and_a_cap_of_twice_the_initial():
    assert [(p.initial, p.increment, p.cap) for p in clock.PACES.values()] == [
        (0, 0, 0), (24 * HOUR, 6 * HOUR, 48 * HOUR), (3 * 24 * HOUR, 24 * HOUR, 6 * 24 * HOUR),
        (7 * 24 * HOUR, 2 * 24 * HOUR, 14 * 24 * HOUR)]


def test_a_running_clock_counts_down_and_a_stopped_one_does_not():
    s = seat(10 * HOUR)
    assert clock.remaining(s, T0 + dt.timedelta(hours=3)) == 10 * HOUR
    clock.start(s, T0)
    assert s.deadline == T0 + dt.timedelta(hours=10)
    assert clock.remaining(s, T0 + dt.timedelta(hours=3)) == 7 * HOUR
    assert clock.remaining(s, T0 + dt.timedelta(hours=11)) == -HOUR


def test_stopping_charges_the_time_used_and_never_goes_below_zero():
    s = seat(10 * HOUR)
    clock.start(s, T0)
    clock.stop(s, T0 + dt.timedelta(hours=4))
    assert (s.bank_seconds, s.clock_started_at, s.deadline) == (6 * HOUR, None, None)
    clock.start(s, T0 + dt.timedelta(hours=5))
    clock.stop(s, T0 + dt.timedelta(hours=20))
    assert s.bank_seconds == 0


def test_a_decision_adds_the_increment_and_keeps_a_running_clock_running():
    game, s = fast_game(), seat(24 * HOUR)
    clock.start(s, T0)
    clock.decide(s, game, T0 + dt.timedelta(hours=2))
    assert s.bank_seconds == 28 * HOUR
    assert s.clock_started_at == T0 + dt.timedelta(hours=2)
    assert s.deadline == T0 + dt.timedelta(hours=30)


def test_the_bank_is_capped():
    game, s = fast_game(), seat(46 * HOUR)
    clock.start(s, T0)
    clock.decide(s, game, T0 + dt.timedelta(minutes=1))
    assert s.bank_seconds == 48 * HOUR


def test_after_a_timeout_the_bank_is_the_increment():
    game, s = fast_game(), seat(HOUR)
    clock.start(s, T0)
    clock.after_timeout(s, game, T0 + dt.timedelta(hours=5))
    assert s.bank_seconds == 6 * HOUR


def test_the_reminder_interval_is_a_quarter_of_the_increment_but_at_least_the_minimum(settings):
    settings.GAMES_REMINDER_MIN_HOURS, settings.GAMES_REMINDER_NO_CLOCK_HOURS = 6, 24
    pace = lambda name: SimpleNamespace(  # noqa: E731
        clock_initial_seconds=clock.PACES[name].initial,
        clock_increment_seconds=clock.PACES[name].increment)
    assert clock.reminder_interval(pace("fast")) == 6 * HOUR  # 6 h / 4 < 6 h
    assert clock.reminder_interval(pace("slow")) == 12 * HOUR  # 2 d / 4
    assert clock.reminder_interval(pace("none")) == 24 * HOUR


@pytest.mark.parametrize("seconds, text", [
    (0, "0 min"), (-50, "0 min"), (59 * 60, "59 min"), (5 * HOUR + 12 * 60, "5 h 12 min"),
    (2 * 24 * HOUR + 3 * HOUR + 59, "2 d 3 h")])
def test_durations_read_well(seconds, text):
    assert clock.format_duration(seconds) == text
