"""Odd input at every endpoint that takes some: wrong types, huge and negative numbers,
JSON lists and dicts where a string is expected, NUL and bidi characters, junk tokens.

Each request must get an answer a player can read (never a server error or a developer's
text) and must change nothing: the game, its move log, the seats and their queues, the
notifications, the preferences and the vacation clocks.
"""
from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import PlayerClock, Seat
from notifications.models import Notification, Preferences
from notifications.services import preferences_for
from tests.support.game_driver import new_started_game
from tests.support.html_forms import HTMX
from tests.support.snapshots import db_fingerprint, game_snapshot

#: Values a form field might receive from a forged post.
ODD = ["", "\x00", "a\x00b", "é\u202eZ\u200b", "x" * 20000, "-1", "99999999999999999999", "1e5", "1.5",
       "[1]", '{"a": 1}', "null", "true"]

#: Text only a developer reads: an action dict, a seat and round, an exception's name.
DEVELOPER_TEXT = ("{'type'", "{&#x27;type", "(seat ", "round 1,", "Traceback", "KeyError", "TypeError",
                  "ValueError", "DataError", "queue refused", "IntegrityError")


def world(*games) -> tuple:
    """Everything a refused request must leave as it was."""
    return (
        db_fingerprint(),
        [game_snapshot(g.pk) for g in games],
        sorted(Seat.objects.values_list("game_id", "order", "action_queue", "action_queue_round",
                                        "action_queue_note", "votes_to_end", "absent")),
        sorted(Notification.objects.values_list("kind", "recipient_id", "game_id", "status")),
        sorted(Preferences.objects.values_list(
            "user_id", "turn_emails", "turn_email_delay_minutes", "digest_hour", "quiet_start",
            "quiet_end", "time_zone")),
        sorted(PlayerClock.objects.values_list("user_id", "vacation_since", "vacation_seconds_used")),
    )


def readable(response) -> str:
    assert response.status_code < 500, response.status_code
    text = response.content.decode(errors="replace")
    for developer in DEVELOPER_TEXT:
        assert developer not in text, developer
    return text


@pytest.fixture
def games(alice, bob, carol, make_game):
    """An active game alice plays (with bob), and a private open game alice created; alice's
    preferences exist (the preferences page makes the defaults on its first visit)."""
    preferences_for(alice)
    preferences_for(carol)
    return new_started_game(alice, bob, seed=3), make_game(alice, seats=4, is_public=False)


def odd_requests(active, lobby):
    """``(method, url, data)`` for every input-taking endpoint with each odd value."""
    for value in ODD:
        yield "get", reverse("games-poll", kwargs={"game_id": active.pk}), {"v": value}
        yield "get", reverse("games-seats", kwargs={"game_id": lobby.pk}), {"token": value}
        if value and "/" not in value:
            yield "get", reverse("games-invite", kwargs={"game_id": lobby.pk, "token": value}), {}
            yield "get", reverse("games-invite", kwargs={"game_id": active.pk, "token": value}), {}
        yield "post", reverse("games-join", kwargs={"game_id": lobby.pk}), {"token": value}
        yield "post", reverse("games-act", kwargs={"game_id": active.pk}), {"action": value, "expected_version": value}
        yield "post", reverse("games-act", kwargs={"game_id": active.pk}), {
            "action": json.dumps({"type": "submit_plan", "placements": [{"follower": value, "space": value}]}),
            "expected_version": active.version}
        yield "post", reverse("games-queue", kwargs={"game_id": active.pk}), {"op": value, "entry": value,
                                                                             "index": value}
        for name in ("games-join", "games-leave", "games-vote-end"):
            yield "post", reverse(name, kwargs={"game_id": active.pk}), {"token": value}
        yield "post", reverse("notifications-invite", kwargs={"game_id": lobby.pk}), {"username": value}
        yield "post", reverse("games-vacation"), {"action": value}
        yield "post", reverse("notifications-preferences"), {
            field: value for field in ("turn_emails", "turn_email_delay_minutes", "digest_hour", "quiet_start",
                                       "quiet_end", "time_zone", "muted_games", "game_emails")}
        yield "post", reverse("notifications-unsubscribe", kwargs={"token": value.replace("\x00", "") or "x"}), {}


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("who", ["player", "stranger"])
def test_odd_values_in_any_field_are_refused_readably_and_change_nothing(client_for, games, alice, carol, htmx,
                                                                          who):
    """``player``: alice, seated at both games; ``stranger``: carol, seated at neither."""
    active, lobby = games
    client = client_for(alice if who == "player" else carol)
    before = world(active, lobby)
    for method, url, data in odd_requests(active, lobby):
        response = getattr(client, method)(url, data, **(HTMX if htmx else {}))
        readable(response)
        assert world(active, lobby) == before, (url, data)


@pytest.mark.parametrize("name", ["\x00", "bob\x00", "bo\x00b"])
def test_an_invite_for_a_name_holding_nul_is_refused_before_any_query(client_for, games, alice, name):
    """PostgreSQL cannot compare a text holding NUL (a DataError, a server error): a name
    that no username can hold (control characters) is refused without asking the database."""
    _active, lobby = games
    with CaptureQueriesContext(connection) as queries:
        response = client_for(alice).post(reverse("notifications-invite", kwargs={"game_id": lobby.pk}),
                                          {"username": name}, follow=True)
    assert "There is no player with that name." in readable(response)
    assert not any("\x00" in str(q["sql"]) for q in queries.captured_queries)
    assert not Notification.objects.filter(kind="invitation").exists()
