"""Notifications through a real Celery worker and Redis broker (run by .ci/run).

Marked ``services``: runs only with ORLEANS_SERVICES_TESTS=1, PostgreSQL and Redis. The
worker runs in a thread of this process (so it shares the test database and the locmem
outbox); the test waits on Celery's task_postrun signal, not on a timer.
"""
import threading

from celery.signals import task_postrun
from django.core import mail

from notifications.models import Notification, NotificationStatus
from notifications.tasks import deliver_game_notifications_task
from tests.support.game_driver import everyone_picks
from tests.support.preferences import right_away
from tests.conftest import SERVICES_MARKS

pytestmark = SERVICES_MARKS
TASK = "notifications.tasks.deliver_game_notifications_task"


def _wait_for(task_name: str, version: int, count: int, action) -> None:
    """Run ``action``; wait until the worker has finished ``count`` runs of the task for
    the game ``version``."""
    runs, done = [], threading.Event()

    def on_postrun(sender=None, args=None, **_kwargs):
        if sender is not None and sender.name == task_name and args and args[1] == version:
            runs.append(1)
            if len(runs) >= count:
                done.set()

    task_postrun.connect(on_postrun, weak=False)
    try:
        action()
        assert done.wait(timeout=30), f"the worker did not run {task_name} {count} times"
    finally:
        task_postrun.disconnect(on_postrun)


def test_the_worker_sends_turn_emails_and_a_duplicate_delivery_sends_none(
        fake_engine, celery_worker, started_game):
    right_away(*(seat.user for seat in started_game.seats.all()))  # not the default 15-minute delay
    version = started_game.version + 3  # two picks, then the resolution opens a round
    _wait_for(TASK, version, 1, lambda: everyone_picks(started_game))
    turn = Notification.objects.filter(game=started_game, kind="turn", version=version)
    assert turn.count() == 2
    assert {n.status for n in turn} == {NotificationStatus.SENT}
    sent = len(mail.outbox)
    # the broker delivers the same task twice more
    _wait_for(TASK, version, 2, lambda: [deliver_game_notifications_task.delay(str(started_game.pk), version)
                                for _ in range(2)])
    assert len(mail.outbox) == sent
    assert {n.attempts for n in turn} == {1}
