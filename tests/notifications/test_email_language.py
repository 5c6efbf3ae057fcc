"""Emails are written in the recipient's language, with times in their zone and format (issue 11)."""
import datetime as dt
import re

import pytest
from django.core import mail
from django.utils import translation

from games.models import Game, GameStatus, Seat
from notifications.emails import build_message
from notifications.models import Notification, NotificationKind as Kind
from notifications.services import notification_deliver, preferences_for
from tests.support.japanese import english_left

# 23:30 UTC on Friday 31 January is 08:30 on Saturday 1 February in Tokyo
SINCE = dt.datetime(2025, 1, 31, 23, 30, tzinfo=dt.UTC)
JA_SINCE = "2025年2月1日(土) 08:30 JST"
# user content and identifiers a Japanese plain-text email still shows in Latin script
NAMES_IN_TEXT = {"alice", "bob", "Test", "game", "Asia", "Tokyo", "JST"}
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _speaks(user, language, zone="Asia/Tokyo", *, chosen=True):
    prefs = preferences_for(user)
    prefs.time_zone = zone
    if chosen:
        prefs.language = language
    else:
        prefs.language, prefs.last_language = "", language
    prefs.save()
    return prefs


def _html(message):
    (html, mimetype), = message.alternatives
    assert mimetype == "text/html"
    return html


@pytest.fixture
def started(make_game, alice, bob):
    """A started two-player game (the real engine) where alice is awaited since ``SINCE``."""
    game = make_game(alice, bob, seats=2)
    Seat.objects.filter(game=game).update(awaiting_since=SINCE)
    return game


def _row(kind, game, user, **data):
    return Notification(kind=kind, recipient=user, game=game, version=game.version,
                        key=f"test:{kind}", data=data, created_at=SINCE)


KINDS = {
    "turn": lambda game, user: _row(Kind.TURN, game, user),
    "reminder": lambda game, user: _row(Kind.REMINDER, game, user, deadline_warning=False),
    "deadline warning": lambda game, user: _row(Kind.REMINDER, game, user, deadline_warning=True),
    "timed out": lambda game, user: _row(Kind.TIMED_OUT, game, user, absent=False),
    "timed out, absent": lambda game, user: _row(Kind.TIMED_OUT, game, user, absent=True,
                                                 timeouts_in_a_row=3),
    "game started": lambda game, user: _row(Kind.GAME_STARTED, game, user),
    "game cancelled": lambda game, user: _row(Kind.GAME_CANCELLED, game, user),
    "invitation": lambda game, user: _row(Kind.INVITATION, game, user, inviter="bob"),
    "rematch": lambda game, user: _row(Kind.INVITATION, game, user, inviter="bob", rematch=True),
    "digest": lambda game, user: Notification(kind=Kind.DIGEST, recipient=user, key="2025-02-01",
                                              data={"games": [str(game.pk)], "chat": {str(game.pk): 2}}),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_email_to_a_japanese_player_is_japanese_subject_text_and_html(kind, started, alice):
    prefs = _speaks(alice, "ja")
    message = build_message(KINDS[kind](started, alice), prefs)
    assert CJK.search(message.subject), message.subject
    assert english_left(message.subject, allowed=NAMES_IN_TEXT) == []
    assert english_left(message.body, allowed=NAMES_IN_TEXT) == []
    html = _html(message)
    # names are marked translate="no" in HTML: only the zone's abbreviation is left
    assert english_left(html, allowed={"JST"}) == []
    assert '<html lang="ja">' in html
    assert "「Test game」" in message.body and "「Test game」" not in html  # the name is marked up


def test_the_japanese_turn_email_gives_the_wait_in_the_recipients_zone_and_japanese_format(
        started, alice):
    message = build_message(KINDS["turn"](started, alice), _speaks(alice, "ja"))
    assert message.subject == "[Orléans Online] 「Test game」であなたの手番です：従者の配置を計画する"
    assert f"{JA_SINCE}からあなたの番です。" in message.body
    assert f"{JA_SINCE}からあなたの番です。" in _html(message)
    assert "alice、bob" in message.body or "bob、alice" in message.body


def test_the_finished_email_to_a_japanese_player_gives_the_place_in_japanese(
        fake_engine, start_game, pick, alice, bob):
    _speaks(alice, "ja")
    game = start_game(alice, bob)
    for _round in range(fake_engine.ROUNDS):
        pick(game, alice, 1)
        pick(game, bob, 2)
    finished = {m.to[0]: m for m in mail.outbox if "終了" in m.subject or "is over" in m.subject}
    ja, en = finished[alice.email], finished[bob.email]
    assert ja.subject == "[Orléans Online] 「Loire」が終了しました：あなたは2位です"
    assert english_left(ja.body, allowed={"alice", "bob", "Loire", "Asia", "Tokyo", "JST"}) == []
    assert english_left(_html(ja), allowed={"JST"}) == []
    assert en.subject == "[Orléans Online] “Loire” is over: you placed 1st"  # bob reads English


def test_an_english_player_gets_english_whatever_language_the_sender_runs_in(started, bob):
    prefs = _speaks(bob, "en-gb", zone="Europe/Paris")
    with translation.override("ja"):
        message = build_message(KINDS["game started"](started, bob), prefs)
        assert translation.get_language() == "ja"  # the override is undone after building
    assert message.subject == "[Orléans Online] “Test game” has started"
    assert "Hello bob," in message.body and "こんにちは" not in message.body
    assert '<html lang="en-gb">' in _html(message)


def test_english_dates_keep_their_format_in_the_recipients_zone(started, bob):
    message = build_message(KINDS["turn"](started, bob), _speaks(bob, "en-gb", zone="Europe/Paris"))
    assert "Waiting for you since Sat 01 Feb 2025, 00:30 CET." in message.body


def test_a_player_who_never_chose_gets_the_language_of_their_last_sign_in(started, alice):
    prefs = _speaks(alice, "ja", chosen=False)
    assert CJK.search(build_message(KINDS["reminder"](started, alice), prefs).subject)


def test_a_delivered_turn_email_is_sent_in_the_recipients_language(started, alice):
    _speaks(alice, "ja")
    prefs = preferences_for(alice)
    prefs.turn_email_delay_minutes = 0
    prefs.save()
    row = KINDS["turn"](started, alice)
    row.key, row.created_at = "delivered", None
    row.save()
    assert notification_deliver(notification_id=row.pk) == "sent"
    message, = [m for m in mail.outbox if m.to == [alice.email] and "手番" in m.subject]
    assert english_left(message.body, allowed=NAMES_IN_TEXT) == []


def test_a_japanese_cancelled_game_email_names_the_days_it_waited(make_game, alice, settings):
    game = make_game(alice, seats=3)
    Game.objects.filter(pk=game.pk).update(status=GameStatus.CANCELLED)
    message = build_message(KINDS["game cancelled"](game, alice), _speaks(alice, "ja"))
    assert f"{settings.GAMES_OPEN_GAME_MAX_DAYS}日以内に始まらなかった" in message.body
