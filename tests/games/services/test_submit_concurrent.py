"""Decisions racing each other on PostgreSQL (real row locks, one connection per thread):
the seats a submission reads after the lock (``locks._read_seats``) are the ones the
submission it waited for wrote, so the stored awaiting seats match the engine's.

Marked with ``SERVICES_MARKS`` (run by .ci/run with PostgreSQL and Redis). Threads start
together on a barrier; nothing sleeps.
"""
import pytest

from games.errors import StaleVersion
from games.models import Game, Seat
from games.rules import load_game
from games.services import game_submit_action
from tests.conftest import SERVICES_MARKS
from tests.support.concurrency import assert_log_is_gapless, needs_postgres, run_together

pytestmark = [*SERVICES_MARKS, needs_postgres]


@pytest.fixture(autouse=True)
def _queued():
    from orleans_site.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False  # the resolution is left queued: the position stays the race's
    yield
    app.conf.task_always_eager = previous


def test_two_players_deciding_at_once_leave_the_seats_as_the_engine_awaits_them(
        fake_engine, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)

    def pick(user, n):
        return lambda: game_submit_action(game_id=game.pk, user=user, action={"type": "pick", "n": n},
                                          expected_version=0)

    results = run_together(pick(alice, 1), pick(bob, 2))
    for result in results:
        assert not isinstance(result, BaseException) or isinstance(result, StaleVersion), repr(result)
    assert_log_is_gapless(game)
    stored = Game.objects.get(pk=game.pk)
    rules_engine, state = load_game(stored)
    awaited = rules_engine.awaiting(state)
    seats = {seat.order: seat.awaiting for seat in Seat.objects.filter(game=game)}
    assert seats == {order: str(awaited.get(order, "")) for order in seats}
    assert stored.version == sum(not isinstance(result, BaseException) for result in results) >= 1
