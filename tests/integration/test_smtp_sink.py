"""A turn email sent through a real SMTP conversation with a local sink (aiosmtpd)."""
import socket
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from django.test import override_settings

from notifications.models import Notification
from notifications.services import notification_deliver


class Sink:
    """An SMTP handler that keeps every message it receives."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                           EMAIL_HOST="127.0.0.1", EMAIL_PORT=port, EMAIL_USE_TLS=False,
                           EMAIL_USE_SSL=False, EMAIL_HOST_USER="", EMAIL_HOST_PASSWORD=""):
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
