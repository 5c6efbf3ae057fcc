"""The resolution task through a real Celery worker and Redis broker (run by .ci/run).

Marked ``services``: it runs only with ORLEANS_SERVICES_TESTS=1, DATABASE_URL pointing at
PostgreSQL and REDIS_URL at Redis. The worker runs in a thread of this process, so it uses
the test database; the test waits on Celery's task_postrun signal, not on a timer.
"""
import threading

from celery.signals import task_postrun

from games.models import Move
from tests.support.game_driver import everyone_picks
from tests.conftest import SERVICES_MARKS

pytestmark = SERVICES_MARKS


def test_the_worker_resolves_a_completed_phase(fake_engine, celery_worker, started_game):
    done = threading.Event()
    game_id = str(started_game.pk)

    def on_postrun(sender=None, args=None, **_kwargs):
        if sender is not None and sender.name == "games.tasks.resolve_game_task" and args \
                and args[0] == game_id:
            done.set()

    task_postrun.connect(on_postrun, weak=False)
    try:
        everyone_picks(started_game)  # the last pick queues the task on commit
        assert done.wait(timeout=30), "the worker did not run resolve_game_task"
    finally:
        task_postrun.disconnect(on_postrun)
    started_game.refresh_from_db()
    assert started_game.version == 3
    assert Move.objects.get(game=started_game, seq=3).seat is None
