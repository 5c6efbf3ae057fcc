"""A player's turn-email delay: no email if they played within it (fewer emails in live play)."""
import datetime as dt

from django.core import mail

from games.models import Seat
from notifications.models import NotificationStatus
from notifications.services import notification_deliver, preferences_for


def delay(notification, minutes):
    prefs = preferences_for(notification.recipient)
    prefs.turn_email_delay_minutes = minutes
    prefs.save()


def test_a_turn_email_waits_for_the_delay_then_goes(turn):
    delay(turn, 15)
    assert notification_deliver(notification_id=turn.pk, now=turn.created_at) == "deferred"
    turn.refresh_from_db()
    assert turn.send_after == turn.created_at + dt.timedelta(minutes=15)
    assert mail.outbox == []
    assert notification_deliver(notification_id=turn.pk, now=turn.send_after) == "sent"
    assert len(mail.outbox) == 1


def test_no_email_when_the_player_played_within_the_delay(turn):
    delay(turn, 5)
    assert notification_deliver(notification_id=turn.pk, now=turn.created_at) == "deferred"
    Seat.objects.filter(game=turn.game, user=turn.recipient).update(awaiting="")  # they played
    turn.refresh_from_db()
    assert notification_deliver(notification_id=turn.pk, now=turn.send_after) == "skipped"
    turn.refresh_from_db()
    assert (turn.status, turn.skip_reason) == (NotificationStatus.SKIPPED, "no longer awaited")
    assert mail.outbox == []


def test_the_default_sends_at_once(turn):
    assert preferences_for(turn.recipient).turn_email_delay_minutes == 0
    assert notification_deliver(notification_id=turn.pk) == "sent"


def test_the_preferences_page_offers_the_delay(client_for, alice):
    page = client_for(alice).get("/notifications/preferences/").text
    assert 'name="turn_email_delay_minutes"' in page and "after 15 minutes" in page
