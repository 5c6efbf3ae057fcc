"""Email content through Django's locmem backend: subject, parts, links, headers, time zone."""
import datetime as dt

from django.core import mail

from games.models import Seat
from games.services import invitation_create
from notifications.models import Notification, NotificationKind as Kind
from notifications.services import notification_deliver, preferences_for
from tests.support.preferences import right_away

GAME_LINK = "http://127.0.0.1:8000/games/{}/"


def _turn_email(game, user):
    return [m for m in mail.outbox if m.to == [user.email] and "Your turn" in m.subject][-1]


def _html(message):
    (html, mimetype), = message.alternatives
    assert mimetype == "text/html"
    return html


def test_a_turn_email_names_the_game_and_what_is_awaited_and_links_to_it(
        fake_engine, start_game, pick, alice, bob):
    right_away(alice, bob)
    game = start_game(alice, bob)
    pick(game, alice)
    pick(game, bob)
    message = _turn_email(game, alice)
    assert message.subject == "[Orléans Online] Your turn in “Loire”: make a decision (pick)"
    link = GAME_LINK.format(game.pk)
    assert link in message.body and f'href="{link}"' in _html(message)
    assert "“Loire”" in message.body and "make a decision (pick)" in message.body
    assert "Players: alice, bob" in message.body or "Players: bob, alice" in message.body


def test_every_email_carries_one_click_unsubscribe_headers_matching_the_body_link(
        fake_engine, start_game, alice, bob):
    start_game(alice, bob)
    message = mail.outbox[0]
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<http://127.0.0.1:8000/notifications/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = header.split(",")[0].strip("<>")  # the https link comes first, then a mailto:
    assert url in message.body and f'href="{url}"' in _html(message)
    # the headers survive into the MIME message actually sent
    raw = message.message().as_string()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
    assert "multipart/alternative" in raw


def test_times_are_shown_in_the_recipients_time_zone(fake_engine, start_game, pick, alice, bob):
    right_away(alice)
    game = start_game(alice, bob)
    prefs = preferences_for(alice)
    prefs.time_zone = "Asia/Tokyo"
    prefs.save()
    pick(game, alice)
    mail.outbox.clear()
    # bob's pick completes the round; pin alice's "awaited since" to a known instant
    pick(game, bob)
    seat = Seat.objects.get(game=game, user=alice)
    Seat.objects.filter(pk=seat.pk).update(
        awaiting_since=dt.datetime(2025, 1, 31, 23, 30, tzinfo=dt.UTC))
    row = Notification.objects.get(game=game, recipient=alice, kind=Kind.TURN)
    Notification.objects.filter(pk=row.pk).update(status="queued")
    mail.outbox.clear()
    assert notification_deliver(notification_id=row.pk) == "sent"
    message = _turn_email(game, alice)
    assert "Sat 01 Feb 2025, 08:30 JST" in message.body  # 23:30 UTC is 08:30 next day in Tokyo
    assert "(Asia/Tokyo)" in message.body


def test_the_finished_email_gives_scores_and_placement(fake_engine, start_game, pick, alice, bob):
    game = start_game(alice, bob)
    for _round in range(fake_engine.ROUNDS):
        pick(game, alice, 1)
        pick(game, bob, 2)
    finished = {m.to[0]: m for m in mail.outbox if "is over" in m.subject}
    assert finished["bob@example.com"].subject == "[Orléans Online] “Loire” is over: you placed 1st"
    assert finished["alice@example.com"].subject.endswith("you placed 2nd")
    body = finished["alice@example.com"].body
    assert "1. bob: 4" in body and "2. alice: 2" in body
    assert "<td translate=\"no\">bob</td><td>4</td>" in _html(finished["alice@example.com"])


def test_the_started_email_says_what_the_real_engine_awaits(start_game, alice, bob):
    game = start_game(alice, bob)
    message = next(m for m in mail.outbox if m.to == [alice.email])
    assert message.subject == "[Orléans Online] “Loire” has started"
    assert "The game is waiting for you: plan where your followers go." in message.body
    assert GAME_LINK.format(game.pk) in message.body


def test_an_invitation_to_a_private_game_links_to_its_invite_page_once(
        make_game, alice, bob, carol, django_capture_on_commit_callbacks):
    game = make_game(alice, seats=3, is_public=False)
    with django_capture_on_commit_callbacks(execute=True):
        invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    with django_capture_on_commit_callbacks(execute=True):
        invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    message, = mail.outbox
    assert message.to == [carol.email]
    assert message.subject == "[Orléans Online] alice invites you to play “Test game”"
    assert f"http://127.0.0.1:8000/games/{game.pk}/invite/" in message.body
