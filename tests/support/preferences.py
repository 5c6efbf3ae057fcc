"""Notification preferences for tests."""
from __future__ import annotations

from notifications.services import preferences_for


def right_away(*users) -> None:
    """``users`` choose turn emails right away instead of the default delay
    (``notifications.models.TURN_EMAIL_DELAY_DEFAULT``), for tests of what a turn email
    says or how it is sent."""
    for user in users:
        prefs = preferences_for(user)
        prefs.turn_email_delay_minutes = 0
        prefs.save()
