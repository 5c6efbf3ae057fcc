"""Delivery is idempotent, retried on failure, and respects preferences and quiet hours."""
import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Seat
from notifications.models import Notification, NotificationKind as Kind, NotificationStatus
from notifications.services import (
    MAX_ATTEMPTS, notification_deliver, preferences_for, quiet_hours_end,
    record_game_notifications,
)
from notifications.tasks import (
    deliver_game_notifications_task, deliver_notification_task, send_due_notifications_task,
)


def test_a_task_delivered_twice_sends_one_email(turn):
    game_id, version = str(turn.game_id), turn.version
    assert deliver_game_notifications_task(game_id, version) == 1
    assert deliver_game_notifications_task(game_id, version) == 0
    assert deliver_notification_task(turn.pk) == "not claimed"
    assert len(mail.outbox) == 1
    turn.refresh_from_db()
    assert (turn.status, turn.attempts) == (NotificationStatus.SENT, 1)


def test_a_delivery_holding_the_claim_keeps_a_second_one_out(turn):
    Notification.objects.filter(pk=turn.pk).update(
        claimed_until=timezone.now() + dt.timedelta(minutes=5))
    assert notification_deliver(notification_id=turn.pk) == "not claimed"
    assert send_due_notifications_task() == 0
    assert mail.outbox == []


def test_recording_the_same_occasion_twice_keeps_one_row(turn):
    seat = Seat.objects.get(game=turn.game, user=turn.recipient)
    record_game_notifications(game=turn.game, newly_awaited=[seat])
    assert Notification.objects.filter(kind=Kind.TURN, game=turn.game).count() == 1


def test_a_lost_task_is_sent_by_the_sweep(turn):
    assert send_due_notifications_task() == 1
    assert send_due_notifications_task() == 0
    assert len(mail.outbox) == 1


def test_a_failed_send_is_retried_later_then_marked_failed(turn, settings):
    settings.EMAIL_BACKEND = "tests.notifications.failing_backend.EmailBackend"
    now = timezone.now()
    assert notification_deliver(notification_id=turn.pk, now=now) == "retry"
    turn.refresh_from_db()
    assert turn.status == NotificationStatus.QUEUED and turn.attempts == 1
    assert turn.send_after > now and "SMTP is down" in turn.last_error
    assert notification_deliver(notification_id=turn.pk, now=now) == "not claimed"  # not due
    outcome = None
    for _ in range(MAX_ATTEMPTS - 1):
        turn.refresh_from_db()
        outcome = notification_deliver(notification_id=turn.pk, now=turn.send_after)
    assert outcome == "failed"
    turn.refresh_from_db()
    assert (turn.status, turn.attempts) == (NotificationStatus.FAILED, MAX_ATTEMPTS)


@pytest.mark.parametrize("setting, value, reason", [
    ("turn_emails", "off", "turn emails: off"),
    ("turn_emails", "digest", "turn emails: digest"),
])
def test_turn_emails_follow_the_preference(turn, setting, value, reason):
    prefs = preferences_for(turn.recipient)
    setattr(prefs, setting, value)
    prefs.save()
    assert notification_deliver(notification_id=turn.pk) == "skipped"
    turn.refresh_from_db()
    assert turn.skip_reason == reason and mail.outbox == []


def test_a_muted_game_sends_nothing(turn):
    preferences_for(turn.recipient).muted_games.add(turn.game)
    assert notification_deliver(notification_id=turn.pk) == "skipped"
    assert mail.outbox == []


def test_a_turn_already_played_is_not_announced(turn):
    Seat.objects.filter(game=turn.game, user=turn.recipient).update(awaiting="")
    assert notification_deliver(notification_id=turn.pk) == "skipped"
    turn.refresh_from_db()
    assert turn.skip_reason == "no longer awaited"


def test_quiet_hours_hold_an_email_until_they_end(turn):
    prefs = preferences_for(turn.recipient)
    prefs.time_zone, prefs.quiet_start, prefs.quiet_end = "Europe/Paris", 22, 7
    prefs.save()
    night = dt.datetime(2025, 3, 3, 23, 30, tzinfo=dt.UTC)  # 00:30 in Paris
    Notification.objects.filter(pk=turn.pk).update(send_after=night)
    assert notification_deliver(notification_id=turn.pk, now=night) == "deferred"
    turn.refresh_from_db()
    assert turn.send_after == dt.datetime(2025, 3, 4, 6, 0, tzinfo=dt.UTC)  # 07:00 in Paris
    assert mail.outbox == []
    assert notification_deliver(notification_id=turn.pk, now=turn.send_after) == "sent"
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("start, end, local_hour, quiet", [
    (22, 7, 23, True), (22, 7, 3, True), (22, 7, 7, False), (22, 7, 12, False),
    (13, 15, 14, True), (13, 15, 15, False), (None, None, 3, False),
])
def test_quiet_hours_wrap_past_midnight(alice, start, end, local_hour, quiet):
    prefs = preferences_for(alice)
    prefs.time_zone, prefs.quiet_start, prefs.quiet_end = "America/New_York", start, end
    when = dt.datetime(2025, 7, 1, local_hour, 10, tzinfo=dt.timezone(dt.timedelta(hours=-4)))
    assert (quiet_hours_end(prefs, when) is not None) is quiet
