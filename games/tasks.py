"""Celery tasks: thin, idempotent, keyed by (game_id, version).

Each task only fetches and calls a service; the service re-checks the version under the
row lock, so a duplicate or late delivery does nothing.
"""
from __future__ import annotations

import functools
import logging

from celery import shared_task
from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def _publish(task, *args) -> None:
    """Send ``task(*args)`` to the broker; an unreachable broker is logged, not raised."""
    try:
        task.delay(*args)
    except OperationalError as exc:
        logger.warning("broker unreachable, %s%r left to the beat sweeps: %s", task.name, args, exc)


def enqueue_on_commit(task, *args) -> None:
    """Queue ``task(*args)`` once the current transaction commits.

    Unlike ``delay_on_commit``, a broker that cannot be reached (Redis down) does not turn
    an already committed submission into an error: the rows written in the transaction are
    the record, and the beat sweeps (stalled games, due notifications) do the work later.
    """
    transaction.on_commit(functools.partial(_publish, task, *args))


@shared_task(acks_late=True, ignore_result=True)
def resolve_game_task(game_id: str, version: int) -> bool:
    """Resolve the simultaneous phase that became complete at ``version``.

    Returns True if a resolution was recorded, False if the game had moved on.
    """
    from games.services import game_resolve

    return game_resolve(game_id=game_id, expected_version=version) is not None


@shared_task(ignore_result=True)
def resolve_stalled_games_task() -> int:
    """Beat sweep (every 2 minutes): resolve active games that wait only for a resolution.

    An active game where no seat is awaited needs ``engine.resolve``; normally the task
    queued on commit did it, but it is lost if the broker or worker was down. Each game is
    resolved through the idempotent service at the version seen here. Returns how many
    resolutions were recorded.
    """
    from games.models import Game, GameStatus, Seat
    from games.services import game_resolve

    awaited = Seat.objects.exclude(awaiting="").values("game_id")
    stalled = (Game.objects.filter(status=GameStatus.ACTIVE).exclude(pk__in=awaited)
               .values_list("pk", "version"))
    return sum(game_resolve(game_id=pk, expected_version=version) is not None
               for pk, version in stalled)
