"""A notification that fails permanently stops retrying at once and is marked failed with
its reason; a transient failure is retried, and becomes permanent after MAX_ATTEMPTS."""
import smtplib

import pytest
from django.core.mail import BadHeaderError
from django.urls import reverse

from notifications.models import Notification, NotificationKind as Kind, NotificationStatus
from notifications.services import MAX_ATTEMPTS, notification_deliver, permanent_failure
from tests.notifications.failing_backend import RaisingBackend

RAISING = "tests.notifications.failing_backend.RaisingBackend"




@pytest.fixture
def raising(settings, monkeypatch):
    """``raising(exc)``: every send raises ``exc``."""
    settings.EMAIL_BACKEND = RAISING

    def set_error(exc):
        monkeypatch.setattr(RaisingBackend, "error", exc)

    return set_error


@pytest.mark.parametrize("error, reason", [
    (BadHeaderError("Header values can't contain newlines"), "bad header: BadHeaderError"),
    (smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"5.1.1 no such user")}),
     "recipient refused"),
    (smtplib.SMTPDataError(554, b"message rejected"), "refused by the mail server"),
    (ValueError('Invalid address "alice@"'), "cannot prepare the message: ValueError: Invalid address"),
])
def test_a_permanent_error_fails_at_the_first_attempt_with_its_reason(turn, raising, error, reason):
    raising(error)
    assert notification_deliver(notification_id=turn.pk) == "failed"
    turn.refresh_from_db()
    assert (turn.status, turn.attempts, turn.claimed_until) == (NotificationStatus.FAILED, 1, None)
    assert turn.failure_reason.startswith(reason)
    assert notification_deliver(notification_id=turn.pk, now=turn.send_after) == "not claimed"


@pytest.mark.parametrize("error", [
    ConnectionRefusedError("SMTP is down"), TimeoutError("timed out"),
    smtplib.SMTPServerDisconnected("gone"),
    smtplib.SMTPRecipientsRefused({"alice@example.com": (451, b"greylisted, try later")}),
    smtplib.SMTPAuthenticationError(535, b"bad credentials"),
])
def test_a_transient_error_is_retried(turn, raising, error):
    raising(error)
    assert notification_deliver(notification_id=turn.pk) == "retry"
    turn.refresh_from_db()
    assert (turn.status, turn.attempts, turn.failure_reason) == (NotificationStatus.QUEUED, 1, "")


def test_after_max_attempts_a_transient_error_becomes_permanent(turn, raising):
    raising(ConnectionResetError("connection reset"))
    outcomes = []
    for _ in range(MAX_ATTEMPTS):
        turn.refresh_from_db()
        outcomes.append(notification_deliver(notification_id=turn.pk, now=turn.send_after))
    assert outcomes == ["retry"] * (MAX_ATTEMPTS - 1) + ["failed"]
    turn.refresh_from_db()
    assert turn.failure_reason == (f"gave up after {MAX_ATTEMPTS} attempts: "
                                   "ConnectionResetError: connection reset")


def test_permanent_failure_classifies_the_smtp_answers():
    assert permanent_failure(smtplib.SMTPResponseException(421, b"closing")) is None
    assert permanent_failure(smtplib.SMTPResponseException(550, b"no")).startswith("refused")
    assert permanent_failure(smtplib.SMTPSenderRefused(553, b"bad sender", "x@y")) is None
    assert permanent_failure(KeyError("inviter")).startswith("cannot prepare the message")


def test_the_admin_shows_the_status_and_the_reason_and_can_send_again(turn, raising, admin_client):
    raising(BadHeaderError("Header values can't contain newlines"))
    notification_deliver(notification_id=turn.pk)
    page = admin_client.get(reverse("admin:notifications_notification_changelist")).content.decode()
    assert "Failed" in page and "bad header: BadHeaderError" in page

    response = admin_client.post(reverse("admin:notifications_notification_changelist"),
                                 {"action": "send_again", "_selected_action": [turn.pk]})
    assert response.status_code == 302
    turn.refresh_from_db()
    assert (turn.status, turn.attempts, turn.failure_reason) == (NotificationStatus.QUEUED, 0, "")


def test_an_error_before_sending_is_recorded_too_not_left_claimed(alice):
    # a reminder row without its game cannot even be checked against the preferences
    reminder = Notification.objects.create(kind=Kind.REMINDER, recipient=alice, key="damaged")
    assert notification_deliver(notification_id=reminder.pk) == "failed"
    reminder.refresh_from_db()
    assert (reminder.status, reminder.attempts, reminder.claimed_until) == (NotificationStatus.FAILED, 1, None)
    assert reminder.failure_reason.startswith("cannot prepare the message: AttributeError")
