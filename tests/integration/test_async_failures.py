"""Asynchronous play against the real services: PostgreSQL, Redis and a Celery worker.

Run by ``.ci/run`` (ORLEANS_SERVICES_TESTS=1); skipped by ``make test``. The worker runs in
a thread of this process; the tests wait on Celery's ``task_postrun`` signal, never on a
timer.
"""
import subprocess
import threading

from celery.signals import task_postrun
from django.db import connection

import engine
from games import services
from games.models import Game, Move
from games.tasks import resolve_stalled_games_task
from orleans_site.tasks import flush_publishes
from tests.conftest import SERVICES_MARKS

pytestmark = SERVICES_MARKS
PLAN = {"type": "submit_plan"}
RESOLVE = "games.tasks.resolve_game_task"
SWEEP = "games.tasks.resolve_stalled_games_task"


class TaskRuns:
    """Counts finished runs of one task (by name) seen through ``task_postrun``; with
    ``game``, only its runs for that game (its first argument): a task an earlier test left
    in the broker, for another game, is not this test's."""

    def __init__(self, name: str, game=None):
        self.name, self.runs, self.event, self.wanted = name, 0, threading.Event(), 1
        self.game_id = None if game is None else str(game.pk)

    def __enter__(self):
        task_postrun.connect(self._seen, weak=False)
        return self

    def __exit__(self, *exc):
        task_postrun.disconnect(self._seen)

    def _seen(self, sender=None, args=(), **_kwargs):
        if self.game_id is not None and (not args or str(args[0]) != self.game_id):
            return
        if sender is not None and sender.name == self.name:
            self.runs += 1
            if self.runs >= self.wanted:
                self.event.set()

    def wait(self, runs: int = 1, timeout: float = 60) -> None:
        self.wanted = runs
        if self.runs >= runs:
            return
        assert self.event.wait(timeout), f"the worker did not finish {self.name} {runs} time(s)"


def _seats(game):
    return list(game.seats.select_related("user").order_by("order"))


def test_two_final_plans_submitted_at_the_same_moment_resolve_once(celery_worker, started_game):
    """Issue #4: when the last two submissions of a simultaneous phase arrive at the same
    moment, the phase is resolved exactly once (row lock + idempotent resolution task)."""
    seats = _seats(started_game)
    seen = started_game.version
    barrier, errors = threading.Barrier(len(seats)), []

    def submit(seat):
        try:
            barrier.wait()
            services.game_submit_action(game_id=started_game.pk, user=seat.user, action=PLAN,
                                        expected_version=seen)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    with TaskRuns(RESOLVE, started_game) as resolved:
        threads = [threading.Thread(target=submit, args=(seat,)) for seat in seats]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        resolved.wait()
    game = Game.objects.get(pk=started_game.pk)
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", "seat"))
    assert [seq for seq, _ in moves] == list(range(seen + 1, seen + 4))  # no gap, no duplicate
    assert [seat for _, seat in moves].count(None) == 1
    assert game.version == seen + 3
    assert engine.from_json(game.state).round == 2  # revealed, nothing ready, round 2 began


def _redis(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", *args], capture_output=True, text=True)


def _start_redis() -> None:
    """Start Redis as .ci/run does, in the foreground of a new session, and return once it
    says it accepts connections (read from its own output: no polling)."""
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", "6379", "--save", "", "--appendonly", "no"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    for line in proc.stdout:
        if "Ready to accept connections" in line:
            break
    else:
        raise AssertionError("redis-server did not start")
    # keep draining its log so it never blocks on a full pipe
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()


def test_a_stopped_broker_loses_no_submission_and_the_game_resumes_after_restart(
        celery_worker, started_game):
    """Issue #4: with Redis stopped, submissions are saved and acknowledged; once Redis is
    back, the beat sweep (here sent through the restarted broker to the real worker)
    resolves the phase. Nothing is lost."""
    seats = _seats(started_game)
    seen = started_game.version
    assert _redis("shutdown", "nosave").returncode in (0, 1)
    assert _redis("ping").returncode != 0, "Redis should be down"
    try:
        for i, seat in enumerate(seats):
            move = services.game_submit_action(game_id=started_game.pk, user=seat.user, action=PLAN,
                                               expected_version=seen + i)
            assert move.pk is not None  # acknowledged although the broker is down
        flush_publishes(seconds=30)  # the publishes behind the answers tried, and failed, while it was down
    finally:
        _start_redis()
    game = Game.objects.get(pk=started_game.pk)
    assert game.version == seen + 2 and engine.needs_resolution(engine.from_json(game.state))
    with TaskRuns(SWEEP) as swept:
        resolve_stalled_games_task.delay()
        swept.wait()
    game.refresh_from_db()
    assert game.version == seen + 3
    assert Move.objects.filter(game=game, seat__isnull=True).count() == 1
    assert engine.from_json(game.state).round == 2  # revealed, nothing ready, round 2 began
