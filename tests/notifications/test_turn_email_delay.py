"""A player's turn-email delay: no email if they played within it (fewer emails in live play)."""
import datetime as dt

from django.core import mail

from games import services
from games.models import Seat
from notifications.models import TURN_EMAIL_DELAY_DEFAULT, Notification, NotificationKind, NotificationStatus
from notifications.services import notification_deliver, preferences_for, reminders_record
from notifications.tasks import send_due_notifications_task


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


def test_a_new_player_waits_fifteen_minutes_by_default(alice):
    assert preferences_for(alice).turn_email_delay_minutes == TURN_EMAIL_DELAY_DEFAULT == 15


def test_with_the_default_a_turn_email_goes_fifteen_minutes_later_if_still_awaited(
        fake_engine, start_game, committed, frozen_now, alice, bob):
    game = start_game(alice, bob)
    mail.outbox.clear()
    committed(services.game_submit_action, game_id=game.pk, user=alice,
              action={"type": "pick", "n": 1}, expected_version=game.version)
    committed(services.game_submit_action, game_id=game.pk, user=bob,
              action={"type": "pick", "n": 1}, expected_version=game.version + 1)
    turns = Notification.objects.filter(game=game, kind=NotificationKind.TURN)
    assert sorted(t.recipient.username for t in turns) == ["alice", "bob"]  # round 2 awaits both
    assert mail.outbox == []
    frozen_now.advance(minutes=14)
    assert send_due_notifications_task() == 0
    frozen_now.advance(minutes=1)
    assert send_due_notifications_task() == 2
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, bob.email]


def test_with_the_default_a_game_played_live_sends_no_turn_email(
        fake_engine, start_game, committed, frozen_now, alice, bob):
    game = start_game(alice, bob)
    mail.outbox.clear()
    for _round in range(2):  # the fake game's two rounds, played within a few minutes
        for user in (alice, bob):
            game.refresh_from_db()
            frozen_now.advance(minutes=2)
            committed(services.game_submit_action, game_id=game.pk, user=user,
                      action={"type": "pick", "n": 1}, expected_version=game.version)
    frozen_now.advance(minutes=15)
    send_due_notifications_task()
    assert [m.subject for m in mail.outbox if "Your turn" in m.subject] == []
    assert set(Notification.objects.filter(game=game, kind=NotificationKind.TURN)
               .values_list("status", flat=True)) == {NotificationStatus.SKIPPED}


def test_reminders_are_not_held_back_by_the_default_delay(fake_engine, make_game, frozen_now, alice, bob):
    game = make_game(alice, bob, seats=2)
    Notification.objects.filter(game=game).delete()
    frozen_now.advance(hours=25)  # a game without a clock reminds after 24 hours
    reminder_ids = reminders_record()
    assert len(reminder_ids) == 2
    assert [notification_deliver(notification_id=pk) for pk in reminder_ids] == ["sent", "sent"]


def test_the_preferences_page_offers_the_delay(client_for, alice):
    page = client_for(alice).get("/notifications/preferences/").text
    assert 'name="turn_email_delay_minutes"' in page and "after 15 minutes" in page
