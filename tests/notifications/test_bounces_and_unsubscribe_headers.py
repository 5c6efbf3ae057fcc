"""List-Unsubscribe offers the https one-click link and a mailto:; an address marked as
bouncing or complaining (``manage.py mail_bounced``, or a hard SMTP refusal) gets no more
mail, and delivery records why."""
import smtplib
from io import StringIO
from urllib.parse import unquote

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from notifications.models import (
    NotificationStatus, SuppressedAddress,
)
from notifications.services import notification_deliver
from tests.notifications.failing_backend import RaisingBackend




def test_list_unsubscribe_has_the_one_click_url_and_a_mailto(turn):
    notification_deliver(notification_id=turn.pk)
    (message,) = mail.outbox
    https, mailto = (part.strip().strip("<>") for part in message.extra_headers["List-Unsubscribe"].split(","))
    assert https.startswith("http://127.0.0.1:8000/notifications/unsubscribe/")
    token = https.rstrip("/").rsplit("/", 1)[-1]
    assert mailto.startswith("mailto:unsubscribe@localhost?subject=")
    assert unquote(mailto.split("subject=", 1)[1]) == f"unsubscribe {token}"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    raw = message.message().as_string()
    assert "mailto:unsubscribe@localhost" in raw and "List-Unsubscribe-Post" in raw


def test_the_unsubscribe_address_is_a_setting(turn, settings):
    settings.NOTIFICATIONS_UNSUBSCRIBE_EMAIL = "leave@orleans.example"
    notification_deliver(notification_id=turn.pk)
    assert "<mailto:leave@orleans.example?subject=" in mail.outbox[0].extra_headers["List-Unsubscribe"]


def test_mail_bounced_stops_mail_to_the_address_with_a_recorded_reason(turn):
    out = StringIO()
    call_command("mail_bounced", "Alice@Example.com", stdout=out)
    assert "alice@example.com: no more mail (bouncing)" in out.getvalue()
    assert notification_deliver(notification_id=turn.pk) == "skipped"
    turn.refresh_from_db()
    assert (turn.status, turn.skip_reason) == (NotificationStatus.SKIPPED, "address suppressed: bouncing")
    assert mail.outbox == []


def test_a_complaint_is_recorded_as_such(turn):
    call_command("mail_bounced", "alice@example.com", "--complaint", "--note", "FBL report",
                 stdout=StringIO())
    row = SuppressedAddress.objects.get()
    assert (row.email, row.reason, row.note) == ("alice@example.com", "complaint", "FBL report")
    notification_deliver(notification_id=turn.pk)
    turn.refresh_from_db()
    assert turn.skip_reason == "address suppressed: complaint (marked as spam)"


def test_clear_lets_mail_go_to_the_address_again(turn):
    call_command("mail_bounced", "alice@example.com", stdout=StringIO())
    out = StringIO()
    call_command("mail_bounced", "alice@example.com", "--clear", stdout=out)
    assert "mail goes to it again" in out.getvalue()
    assert notification_deliver(notification_id=turn.pk) == "sent"


def test_mail_bounced_refuses_something_that_is_not_an_address(db):
    with pytest.raises(CommandError, match="not an email address"):
        call_command("mail_bounced", "not-an-address", stdout=StringIO())
    assert not SuppressedAddress.objects.exists()


def test_other_addresses_still_get_their_mail(turn, bob):
    call_command("mail_bounced", "bob@example.com", stdout=StringIO())
    assert notification_deliver(notification_id=turn.pk) == "sent"


def test_a_hard_smtp_refusal_marks_the_address_as_bouncing(turn, settings, monkeypatch):
    settings.EMAIL_BACKEND = "tests.notifications.failing_backend.RaisingBackend"
    monkeypatch.setattr(RaisingBackend, "error", smtplib.SMTPRecipientsRefused(
        {"alice@example.com": (550, b"5.1.1 no such user")}))
    assert notification_deliver(notification_id=turn.pk) == "failed"
    row = SuppressedAddress.objects.get()
    assert row.email == "alice@example.com" and row.reason == "bounce" and "550" in row.note


def test_a_soft_smtp_refusal_does_not(turn, settings, monkeypatch):
    settings.EMAIL_BACKEND = "tests.notifications.failing_backend.RaisingBackend"
    monkeypatch.setattr(RaisingBackend, "error", smtplib.SMTPRecipientsRefused(
        {"alice@example.com": (452, b"mailbox full")}))
    assert notification_deliver(notification_id=turn.pk) == "retry"
    assert not SuppressedAddress.objects.exists()
