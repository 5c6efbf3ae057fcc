"""The reminder sweep is proportional to the work due (issue 14): it reads only the seats
whose ``next_reminder_at`` has come, and a re-run records and publishes nothing new."""
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from games.services import game_submit_action, vacation_start, vacation_stop
from notifications import tasks
from notifications.models import Notification, NotificationKind
from notifications.services import reminders_record


@pytest.fixture
def published(monkeypatch):
    """The notification ids the sweep task published (delivery is not under test)."""
    sent = []
    monkeypatch.setattr(tasks, "publish", lambda task, pk: sent.append(pk))
    return sent


def _games(clocked_game, players, n):
    return [clocked_game(*players, pace="fast") for _ in range(n)]


def _sweep_queries(now=None) -> int:
    with CaptureQueriesContext(connection) as queries:
        reminders_record(now=now)
    return len(queries)


def test_a_sweep_with_nothing_due_is_one_query_however_many_seats_wait(
        fake_engine, clocked_game, frozen_now, alice, bob):
    _games(clocked_game, (alice, bob), 2)
    few = _sweep_queries()
    _games(clocked_game, (alice, bob), 10)
    assert Seat.objects.exclude(awaiting="").count() == 24
    assert _sweep_queries() == few == 1


def test_the_sweeps_queries_do_not_grow_with_the_seats_due_or_not_due(
        fake_engine, clocked_game, frozen_now, alice, bob, carol):
    _games(clocked_game, (alice, bob), 2)
    frozen_now.advance(hours=6)  # a fast game's first reminder is due
    few = _sweep_queries()
    _games(clocked_game, (alice, carol), 10)  # waiting, not due yet
    frozen_now.advance(hours=6)  # the first games' second reminders are due
    assert _sweep_queries() == few
    frozen_now.advance(hours=1)
    _games(clocked_game, (bob, carol), 5)
    frozen_now.advance(hours=6)  # many more due at once
    assert _sweep_queries() == few


def test_a_rerun_records_and_publishes_nothing_new(fake_engine, clocked_game, frozen_now, alice,
                                                   bob, published):
    _games(clocked_game, (alice, bob), 3)
    frozen_now.advance(hours=6)
    assert tasks.send_reminders_task() == 6 and len(published) == 6
    assert tasks.send_reminders_task() == 0 and len(published) == 6
    assert _sweep_queries() == 1  # nothing due: the seats were given their next time
    assert Notification.objects.filter(kind=NotificationKind.REMINDER).count() == 6


def test_reminders_recorded_but_still_queued_are_not_published_again(
        fake_engine, clocked_game, frozen_now, alice, bob, published):
    clocked_game(alice, bob, pace="fast")
    frozen_now.advance(hours=6)
    tasks.send_reminders_task()
    Seat.objects.update(next_reminder_at=frozen_now())  # as if a sweep died before saving them
    assert tasks.send_reminders_task() == 0 and len(published) == 2


def test_a_seat_gets_its_next_reminder_time_when_awaited_and_none_once_it_played(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob, pace="fast")
    seat = Seat.objects.get(game=game, user=alice)
    assert seat.next_reminder_at == frozen_now() + dt.timedelta(hours=6)
    game_submit_action(game_id=game.pk, user=alice, action={"type": "pick", "n": 1},
                       expected_version=game.version)
    seat.refresh_from_db()
    assert (seat.awaiting, seat.next_reminder_at) == ("", None)


def test_a_player_back_from_vacation_is_looked_at_by_the_next_sweep(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob, pace="fast")
    vacation_start(user=alice)
    frozen_now.advance(hours=7)
    reminders_record()
    assert not Notification.objects.filter(recipient=alice, kind=NotificationKind.REMINDER).exists()
    vacation_stop(user=alice)
    assert Seat.objects.get(game=game, user=alice).next_reminder_at == frozen_now()
    ids = reminders_record()
    assert Notification.objects.filter(pk__in=ids, recipient=alice).count() == 1


def test_a_finished_wait_left_with_a_time_is_dropped_from_the_sweep(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob, pace="fast")
    Seat.objects.filter(game=game, user=alice).update(awaiting="", awaiting_since=None)
    frozen_now.advance(hours=6)
    reminders_record()
    assert Seat.objects.get(game=game, user=alice).next_reminder_at is None
    assert _sweep_queries() == 1
