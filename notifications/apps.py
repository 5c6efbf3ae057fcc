"""App configuration for ``notifications``."""
from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Emails about games: turn, game started, invitation, game finished; preferences."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from notifications import language  # noqa: F401  (connects the sign-in receiver)
