"""notifications.services.reminders_record and the reminder sweep: one reminder per
reminder interval of a wait, none in quiet hours, on vacation, or with turn emails off."""
import pytest
from django.core import mail

from games.services import game_submit_action, vacation_start
from notifications.tasks import send_reminders_task
from notifications.models import Notification, NotificationKind, NotificationStatus, TurnEmails
from notifications.services import notification_deliver, preferences_for


@pytest.fixture
def game(fake_engine, clocked_game, alice, bob):
    """A fast game (reminders every 6 hours) awaiting both players since frozen noon."""
    game = clocked_game(alice, bob, pace="fast")
    mail.outbox.clear()
    return game


def reminded():
    return sorted(m.to[0] for m in mail.outbox if m.subject.startswith("[Orléans Online] Reminder"))


def test_one_reminder_per_interval(game, frozen_now):
    frozen_now.advance(hours=5, minutes=59)
    assert send_reminders_task() == 0
    frozen_now.advance(minutes=1)
    assert send_reminders_task() == 2
    assert send_reminders_task() == 0
    frozen_now.advance(hours=3)
    assert send_reminders_task() == 0
    assert reminded() == ["alice@example.com", "bob@example.com"]
    frozen_now.advance(hours=3)
    assert send_reminders_task() == 2
    assert len(reminded()) == 4
    assert "Your time runs out on" in mail.outbox[-1].body


def test_a_player_who_acted_gets_no_reminder(game, frozen_now, alice):
    frozen_now.advance(hours=1)
    game_submit_action(game_id=game.pk, user=alice, action={"type": "pick", "n": 1},
                       expected_version=0)
    frozen_now.advance(hours=6)
    send_reminders_task()
    assert reminded() == ["bob@example.com"]


def test_a_reminder_recorded_before_the_player_acted_is_skipped(game, frozen_now, alice,
                                                                monkeypatch):
    from notifications.tasks import deliver_notification_task

    monkeypatch.setattr(deliver_notification_task, "delay", lambda pk: None)  # broker lost it
    frozen_now.advance(hours=6)
    send_reminders_task()
    game_submit_action(game_id=game.pk, user=alice, action={"type": "pick", "n": 1},
                       expected_version=0)
    row = Notification.objects.get(kind=NotificationKind.REMINDER, recipient=alice)
    assert notification_deliver(notification_id=row.pk) == "skipped"
    row.refresh_from_db()
    assert (row.status, row.skip_reason) == (NotificationStatus.SKIPPED, "no longer awaited")


def test_no_reminder_in_quiet_hours_it_comes_when_they_end(game, frozen_now, alice):
    prefs = preferences_for(alice)
    prefs.quiet_start, prefs.quiet_end = 17, 20  # UTC; the wait started at 12:00
    prefs.save()
    frozen_now.advance(hours=6)  # 18:00
    send_reminders_task()
    assert reminded() == ["bob@example.com"]
    frozen_now.advance(hours=2)  # 20:00
    send_reminders_task()
    assert reminded() == ["alice@example.com", "bob@example.com"]


def test_no_reminder_on_vacation(game, frozen_now, alice):
    vacation_start(user=alice)
    frozen_now.advance(hours=13)
    send_reminders_task()
    assert reminded() == ["bob@example.com"]


def test_no_reminder_with_turn_emails_off(game, frozen_now, alice):
    prefs = preferences_for(alice)
    prefs.turn_emails = TurnEmails.OFF
    prefs.save()
    frozen_now.advance(hours=6)
    send_reminders_task()
    assert reminded() == ["bob@example.com"]


def test_games_without_a_clock_are_reminded_daily(fake_engine, clocked_game, frozen_now,
                                                  settings, alice, bob):
    settings.GAMES_REMINDER_NO_CLOCK_HOURS = 24
    clocked_game(alice, bob, pace="none")
    frozen_now.advance(hours=23)
    assert send_reminders_task() == 0
    frozen_now.advance(hours=1)
    assert send_reminders_task() == 2
    assert "This game has no clock." in mail.outbox[-1].body


def warned():
    return sorted(m.to[0] for m in mail.outbox if "Time is running out" in m.subject)


def test_one_deadline_warning_when_the_clock_has_four_hours_left(game, frozen_now, settings):
    """A fast game's 24 h bank: the warning comes at 20 h, once per wait."""
    assert settings.GAMES_DEADLINE_WARNING_HOURS == 4
    frozen_now.advance(hours=19, minutes=59)
    send_reminders_task()
    assert warned() == []
    frozen_now.advance(minutes=1)
    send_reminders_task()
    assert warned() == ["alice@example.com", "bob@example.com"]
    frozen_now.advance(hours=2)
    send_reminders_task()
    assert warned() == ["alice@example.com", "bob@example.com"]
