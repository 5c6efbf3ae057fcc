"""Deadline sweeps racing each other on PostgreSQL (real row locks, one connection per
thread): a seat whose clock ran out is timed out exactly once.

Marked with ``SERVICES_MARKS`` (run by .ci/run with PostgreSQL and Redis). Threads start
together on a barrier; time is frozen, nothing sleeps. The tasks queued on commit
(resolution, emails) run eagerly in the committing thread.
"""
import pytest

from games.models import Move, Seat
from games.services import game_submit_action, game_timeout
from games.tasks import enforce_deadlines_task
from notifications.models import Notification, NotificationKind
from tests.support.concurrency import assert_log_is_gapless, needs_postgres, run_together
from tests.conftest import SERVICES_MARKS

pytestmark = [*SERVICES_MARKS, needs_postgres]


@pytest.fixture(autouse=True)
def _eager():
    from orleans_site.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def test_concurrent_sweeps_and_a_late_duplicate_time_a_seat_out_once(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob)
    game_submit_action(game_id=game.pk, user=bob, action={"type": "pick", "n": 2},
                       expected_version=0)
    alice_order = Seat.objects.get(game=game, user=alice).order
    frozen_now.advance(hours=24, minutes=1)

    def duplicate():
        return len(game_timeout(game_id=game.pk, seat_order=alice_order, expected_version=1))

    results = run_together(enforce_deadlines_task.run, enforce_deadlines_task.run,
                           enforce_deadlines_task.run, duplicate)
    for result in results:
        assert not isinstance(result, BaseException), repr(result)
    assert sum(results) == 1, results
    assert Move.objects.filter(game=game, source="timeout").count() == 1
    assert Notification.objects.filter(game=game, kind=NotificationKind.TIMED_OUT).count() == 1
    assert Seat.objects.get(game=game, user=alice).timeouts_in_a_row == 1
    assert_log_is_gapless(game)
