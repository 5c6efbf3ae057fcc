"""Celery tasks for notifications: thin and idempotent.

Rows are recorded in the game's transaction; these tasks only deliver them. A delivery
claims its row first, so duplicate or late task deliveries send nothing more. The beat
sweeps pick up whatever an absent broker or worker left behind.
"""
from __future__ import annotations

from celery import shared_task

from orleans_site.tasks import publish


@shared_task(acks_late=True, ignore_result=True)
def deliver_game_notifications_task(game_id: str, version: int) -> int:
    """Deliver the queued notifications recorded for ``game_id`` at ``version``.

    Returns how many were sent now.
    """
    from notifications.models import Notification, NotificationStatus
    from notifications.services import notification_deliver

    ids = Notification.objects.filter(
        game_id=game_id, version=version, status=NotificationStatus.QUEUED
    ).values_list("pk", flat=True)
    return sum(notification_deliver(notification_id=pk) == "sent" for pk in list(ids))


@shared_task(acks_late=True, ignore_result=True)
def deliver_notification_task(notification_id: int) -> str:
    """Deliver one notification; returns the outcome (see ``notification_deliver``)."""
    from notifications.services import notification_deliver

    return notification_deliver(notification_id=notification_id)


@shared_task(ignore_result=True)
def send_due_notifications_task() -> int:
    """Beat sweep (every minute): deliver queued notifications that are due.

    Catches deferred ones (quiet hours), retries, and rows whose task was lost because the
    broker or worker was down. Returns how many were sent.
    """
    from notifications.services import due_notification_ids, notification_deliver

    return sum(notification_deliver(notification_id=pk) == "sent"
               for pk in due_notification_ids())


@shared_task(ignore_result=True)
def send_digests_task() -> int:
    """Beat sweep (every 15 minutes): record and send the daily digests due this hour.

    Returns how many digests were recorded.
    """
    from notifications.services import digests_record

    ids = digests_record()
    for pk in ids:
        publish(deliver_notification_task, pk)
    return len(ids)


@shared_task(ignore_result=True)
def send_reminders_task() -> int:
    """Beat sweep (every 5 minutes): record and send the reminders due now (one per
    reminder interval of a wait; see ``notifications.services.reminders_record``).
    Returns how many were recorded."""
    from notifications.services import reminders_record

    ids = reminders_record()
    for pk in ids:
        publish(deliver_notification_task, pk)
    return len(ids)


@shared_task(name="games.tasks.send_reminders_task", ignore_result=True)
def send_reminders_task_old_name() -> int:
    """``send_reminders_task`` under the name it had while it lived in ``games.tasks``:
    kept for one release so messages queued (or a beat schedule written) before the move
    still resolve."""
    return send_reminders_task()
