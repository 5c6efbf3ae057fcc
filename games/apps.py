"""App configuration for ``games``."""
from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"
