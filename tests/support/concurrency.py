"""Requests racing each other on PostgreSQL: real row locks, one connection per thread."""
from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

from games.models import Game, Move

_DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = _DATABASE_URL.startswith(("postgres://", "postgresql://", "pgsql://"))
needs_postgres = pytest.mark.skipif(
    not ON_POSTGRES,
    reason="needs DATABASE_URL=postgres://... (real row locks and concurrent connections; "
    "run by .ci/run)",
)


def run_together(*jobs):
    """Run each job in its own thread (own DB connection), released at the same moment.

    Returns each job's result or the exception it raised.
    """
    barrier = threading.Barrier(len(jobs), timeout=30)
    results: list = [None] * len(jobs)

    def runner(index, job):
        try:
            barrier.wait()
            results[index] = job()
        except BaseException as exc:  # reported to the test, not swallowed
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a racing request never finished (deadlock?)"
    return results


def assert_log_is_gapless(game: Game) -> None:
    """The move log of ``game`` numbers 1..version without a gap or a repeat."""
    game.refresh_from_db()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1)), seqs
