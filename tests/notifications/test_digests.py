"""Daily digests at each user's local hour, listing every game waiting for them."""
import datetime as dt

from django.core import mail

from games.models import Seat
from notifications.models import Notification, NotificationKind as Kind
from notifications.services import digests_record, notification_deliver, preferences_for

# 07:15 UTC is 08:15 in Paris (winter) and 16:15 in Tokyo.
NOW = dt.datetime(2025, 1, 15, 7, 15, tzinfo=dt.UTC)


def _digest_user(user, zone="Europe/Paris", hour=8):
    prefs = preferences_for(user)
    prefs.turn_emails, prefs.time_zone, prefs.digest_hour = "digest", zone, hour
    prefs.save()
    return prefs


def test_a_digest_lists_every_waiting_game_oldest_wait_first(fake_engine, make_game, alice, bob):
    first, second = make_game(alice, bob, seats=2), make_game(alice, bob, seats=2)
    first.name, second.name = "Blois", "Tours"
    first.save(), second.save()
    Seat.objects.filter(game=first, user=alice).update(awaiting_since=NOW - dt.timedelta(days=2))
    Seat.objects.filter(game=second, user=alice).update(awaiting_since=NOW - dt.timedelta(hours=3))
    _digest_user(alice)
    ids = digests_record(now=NOW)
    assert len(ids) == 1
    assert notification_deliver(notification_id=ids[0], now=NOW) == "sent"
    message, = mail.outbox
    assert message.subject == "[Orléans Online] 2 games waiting for you"
    assert message.body.index("“Blois”") < message.body.index("“Tours”")
    assert "(since Mon 13 Jan 2025, 08:15 CET)" in message.body
    assert f"http://127.0.0.1:8000/games/{first.pk}/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_one_digest_a_day_however_often_the_sweep_runs(fake_engine, make_game, alice, bob):
    make_game(alice, bob, seats=2)
    _digest_user(alice)
    assert len(digests_record(now=NOW)) == 1
    Notification.objects.filter(kind=Kind.DIGEST).update(status="sent")
    assert digests_record(now=NOW + dt.timedelta(minutes=30)) == []
    assert Notification.objects.filter(kind=Kind.DIGEST).count() == 1


def test_the_digest_waits_for_the_users_own_local_hour(fake_engine, make_game, alice, bob):
    make_game(alice, bob, seats=2)
    _digest_user(alice, zone="Asia/Tokyo", hour=8)
    _digest_user(bob, zone="Asia/Tokyo", hour=16)
    ids = digests_record(now=NOW)
    assert [n.recipient for n in Notification.objects.filter(pk__in=ids)] == [bob]


def test_no_digest_when_nothing_waits_or_the_game_is_muted(fake_engine, make_game, alice, bob,
                                                           carol):
    game = make_game(alice, bob, seats=2)
    _digest_user(carol)  # no games at all
    _digest_user(alice).muted_games.add(game)
    assert digests_record(now=NOW) == []


def test_unread_chat_counts_towards_the_digest(fake_engine, make_game, alice, bob):
    from games.models import ChatMessage

    game = make_game(alice, bob, seats=2)
    game.name = "Blois"
    game.save()
    Seat.objects.filter(game=game, user=alice).update(awaiting="")  # nothing waits for alice
    for text in ("hello", "your move soon?"):
        ChatMessage.objects.create(game=game, author=bob, text=text)
    ChatMessage.objects.filter(game=game).update(created_at=NOW - dt.timedelta(hours=2))
    _digest_user(alice)
    ids = digests_record(now=NOW)
    assert len(ids) == 1
    assert notification_deliver(notification_id=ids[0], now=NOW) == "sent"
    message, = mail.outbox
    assert message.subject == "[Orléans Online] Unread chat messages in your games"
    assert "- “Blois”: 2 new messages" in message.body


def test_a_muted_chat_counts_nothing_towards_the_digest(fake_engine, make_game, alice, bob):
    from games.models import ChatMessage
    from games.services import chat_mute

    game = make_game(alice, bob, seats=2)
    Seat.objects.filter(game=game, user=alice).update(awaiting="")
    ChatMessage.objects.create(game=game, author=bob, text="hello")
    ChatMessage.objects.filter(game=game).update(created_at=NOW - dt.timedelta(hours=2))
    chat_mute(game_id=game.pk, user=alice, muted=True)
    _digest_user(alice)
    assert digests_record(now=NOW) == []
