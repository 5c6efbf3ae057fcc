"""A player and three random bots finish a game with a real Celery worker and Redis broker
(run by .ci/run): every bot move and resolution is a task the worker runs after commit.

Marked ``services``: it runs only with ORLEANS_SERVICES_TESTS=1, DATABASE_URL pointing at
PostgreSQL and REDIS_URL at Redis. The worker runs in a thread of this process; the test
waits on Celery's task_postrun signal (bounded), never on a fixed sleep.
"""
import random
import threading
import time

from celery.signals import task_postrun

from games import services
from games.models import Move, MoveSource
from tests.conftest import SERVICES_MARKS
from tests.support.bot_games import human_move, is_active

pytestmark = SERVICES_MARKS

#: The whole game must end within this many seconds (a few hundred tasks).
GAME_SECONDS = 300


def test_the_worker_plays_the_bots_to_the_end_of_a_game(celery_worker, alice):
    ran = threading.Event()

    def on_postrun(sender=None, **_kwargs):
        ran.set()

    task_postrun.connect(on_postrun, weak=False)
    try:
        rng = random.Random(4)
        game = services.game_create(creator=alice, name="Worker bots", max_seats=4, options={},
                                    bots=["random"] * 3, seed=8)
        deadline = time.monotonic() + GAME_SECONDS
        while is_active(game):
            assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS}s (version {game.version})"
            ran.clear()
            if not human_move(game, rng):
                ran.wait(timeout=5)  # the worker's next task (bot move or resolution)
    finally:
        task_postrun.disconnect(on_postrun)
    game.refresh_from_db()
    assert game.is_finished and len(game.outcome["ranking"]) == 4
    assert Move.objects.filter(game=game).count() == game.version
    assert Move.objects.filter(game=game, source=MoveSource.BOT).exists()
    assert Move.objects.filter(game=game, source=MoveSource.SYSTEM).exists()
