"""An email backend whose every send fails, for retry tests."""
from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    """Raises on every send, like an unreachable SMTP server."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError("SMTP is down")


class RaisingBackend(BaseEmailBackend):
    """Raises ``RaisingBackend.error`` on every send (tests set it with monkeypatch)."""

    error: BaseException = ConnectionResetError("connection reset")

    def send_messages(self, email_messages):
        raise self.error
