"""Task helpers shared by every app (no app imports this module's callers back).

``enqueue_on_commit`` is how services hand work to Celery: the rows written in the
transaction are the record, and the task only does the delivery or the next step.
"""
from __future__ import annotations

import functools
import logging

from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def publish(task, *args) -> None:
    """Send ``task(*args)`` to the broker now; an unreachable broker is logged, not raised
    (the beat sweeps pick the work up later)."""
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
    transaction.on_commit(functools.partial(publish, task, *args))
