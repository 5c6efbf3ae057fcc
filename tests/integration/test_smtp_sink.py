"""A turn email sent through a real SMTP conversation with a local sink (aiosmtpd)."""
import socket
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.test import override_settings

from notifications.models import Notification, NotificationStatus
from notifications.services import notification_deliver


class Sink:
    """An SMTP handler that keeps every message it receives."""

    def __init__(self):
        self.messages = []
        self.refuse = set()  # recipients answered "550 no such user"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _smtp(port: int):
    return override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                             EMAIL_HOST="127.0.0.1", EMAIL_PORT=port, EMAIL_USE_TLS=False,
                             EMAIL_USE_SSL=False, EMAIL_HOST_USER="", EMAIL_HOST_PASSWORD="")


@pytest.fixture
def smtp_sink():
    """A local SMTP server in a thread; yields (sink, port)."""
    sink, port = Sink(), _free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


def test_a_turn_email_goes_through_a_real_smtp_server(smtp_sink, make_game, alice, bob,
                                                       django_capture_on_commit_callbacks):
    sink, port = smtp_sink
    with _smtp(port):
        with django_capture_on_commit_callbacks(execute=True):
            game = make_game(alice, bob, seats=2)
        turn = Notification.objects.filter(game=game, kind="turn", recipient=bob).first()
        if turn is not None and turn.status == "queued":
            notification_deliver(notification_id=turn.pk)
    received = [e for e in sink.messages if "bob@example.com" in e.rcpt_tos]
    assert received, "bob's email never reached the SMTP server"
    messages = [message_from_bytes(e.content, policy=policy.default) for e in received]
    assert all(game.name in m["Subject"] for m in messages)
    for message in messages:
        assert message["List-Unsubscribe"] and message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        parts = {part.get_content_type(): part.get_content() for part in message.walk() if not part.is_multipart()}
        assert set(parts) == {"text/plain", "text/html"}
        assert f"/games/{game.pk}/" in parts["text/plain"] and f"/games/{game.pk}/" in parts["text/html"]


def _queued_turn_of(game, user) -> Notification:
    Notification.objects.filter(game=game).update(status=NotificationStatus.SKIPPED)
    turn = Notification.objects.filter(game=game, kind="game_started", recipient=user).get()
    Notification.objects.filter(pk=turn.pk).update(status=NotificationStatus.QUEUED)
    return turn


def test_a_recipient_the_server_refuses_is_failed_at_once_with_the_answer(smtp_sink, make_game,
                                                                           alice, bob):
    sink, port = smtp_sink
    sink.refuse.add("bob@example.com")
    game = make_game(alice, bob, seats=2)
    turn = _queued_turn_of(game, bob)
    with _smtp(port):
        assert notification_deliver(notification_id=turn.pk) == "failed"
    turn.refresh_from_db()
    assert turn.attempts == 1 and turn.status == NotificationStatus.FAILED
    assert turn.failure_reason.startswith("recipient refused") and "550" in turn.failure_reason


def test_an_address_that_cannot_be_parsed_is_failed_at_once(smtp_sink, make_game, alice, bob):
    sink, port = smtp_sink
    game = make_game(alice, bob, seats=2)
    get_user_model().objects.filter(pk=bob.pk).update(email="bob@")
    turn = _queued_turn_of(game, bob)
    with _smtp(port):
        assert notification_deliver(notification_id=turn.pk) == "failed"
    turn.refresh_from_db()
    assert "Invalid address" in turn.failure_reason and sink.messages == []
