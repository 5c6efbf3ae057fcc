"""Task helpers shared by every app (no app imports this module's callers back).

``enqueue_on_commit`` is how services hand work to Celery: the rows written in the
transaction are the record, and the task only does the delivery or the next step. Once
the transaction commits, a task is published behind the request, on a thread of the
process's own (``TASK_PUBLISH_BEHIND``, on by default; eager tasks and a worker's tasks
publish inline): a publish cost a move's answer about 1.2 ms, and 0.6 s while the broker
was down (kombu's retries). A publish still waiting when the process ends is lost like one the broker
refused: the beat sweeps (stalled games, due notifications) do that work later.
"""
from __future__ import annotations

import atexit
import functools
import logging

from celery._state import get_current_task
from django.conf import settings
from django.db import connections, transaction
from kombu.exceptions import OperationalError

from orleans_site.cache import flush_write_behind, write_behind

logger = logging.getLogger(__name__)


def tasks_run_eagerly() -> bool:
    """True when Celery runs tasks inline, in the process that queues them (the embedded
    default without Redis, ``CELERY_TASK_ALWAYS_EAGER``, and the tests)."""
    from orleans_site.celery import app  # the project's app, loaded with the package

    return bool(app.conf.task_always_eager)


def publish(task, *args) -> None:
    """Send ``task(*args)`` to the broker now; an unreachable broker is logged, not raised
    (the beat sweeps pick the work up later)."""
    try:
        task.delay(*args)
    except OperationalError as exc:
        logger.warning("broker unreachable, %s%r left to the beat sweeps: %s", task.name, args, exc)


def enqueue_on_commit(task, *args) -> None:
    """Queue ``task(*args)`` once the current transaction commits (``hand_over``).

    Unlike ``delay_on_commit``, a broker that cannot be reached (Redis down) does not turn
    an already committed submission into an error: the rows written in the transaction are
    the record, and the beat sweeps (stalled games, due notifications) do the work later.
    """
    transaction.on_commit(functools.partial(hand_over, task, *args))


#: The name of this process's publisher thread (``orleans_site.cache.write_behind``).
PUBLISHER = "task publishes"


def hand_over(task, *args) -> None:
    """Publish ``task(*args)``: inline when tasks run eagerly (they run here and now, as the
    tests and the embedded default expect), inside a worker's task (no answer waits there)
    or when ``settings.TASK_PUBLISH_BEHIND`` is off, else on this process's publisher
    thread, in the order handed over (inline if a thousand wait already:
    ``cache.WRITE_BEHIND_MOST``). Errors are ``publish``'s: logged, not raised."""
    # a worker's task publishes what it queued before it is acknowledged (acks_late): a
    # billiard child ends with os._exit, so nothing behind it would be sent at a shutdown
    if task.app.conf.task_always_eager or not getattr(settings, "TASK_PUBLISH_BEHIND", True) \
            or get_current_task() is not None:
        publish(task, *args)
    elif not write_behind(PUBLISHER, "task-publisher").submit(functools.partial(_publish_behind, task, *args)):
        publish(task, *args)


def _publish_behind(task, *args) -> None:
    # on the publisher thread: a task that runs eagerly there after all (only a test turns
    # eager mode on while a publish waits) leaves no database connection of the thread open
    try:
        publish(task, *args)
    finally:
        connections.close_all()


def flush_publishes(seconds: float = 5.0) -> None:
    """Return once every publish this process handed over so far has been attempted, or
    after ``seconds`` (each attempt with the broker down takes kombu's retries, ~0.6 s)."""
    flush_write_behind(PUBLISHER, seconds)


# a web process that ends (a gunicorn worker restarted) first sends what it still holds, for
# a few seconds at most
atexit.register(flush_publishes, 3.0)
