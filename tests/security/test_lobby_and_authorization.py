"""Lobby abuse and authorisation: who may join, leave, start, cancel, see a private game.

Every refusal leaves the game (seats, status, state) exactly as it was and says why.
"""
from __future__ import annotations

import json
import re
import uuid

import pytest
from django.db import connection
from django.core import signing
from django.urls import reverse

from games.access import INVITE_SALT, check_invite_token, make_invite_token
from games.models import Game, GameStatus, Seat
from tests.support.html_forms import HTMX
from tests.support.snapshots import game_snapshot


def url(name, game, **kwargs):
    return reverse(name, kwargs={"game_id": game.pk, **kwargs})


def refused(client, response, game, before, reason):
    """A plain form post refused: redirect, the reason shown, nothing changed."""
    assert response.status_code == 302, response.status_code
    page = client.get(response["Location"])
    if page.status_code == 200:
        assert reason in page.text, reason
    assert game_snapshot(game.pk) == before


@pytest.fixture
def open_game(make_game, alice, bob):
    return make_game(alice, bob, seats=3)


@pytest.fixture
def private_game(make_game, alice):
    return make_game(alice, seats=3, is_public=False)


def post_refused(client_for, user, action, game, reason) -> None:
    """``user`` posts the lobby form ``action`` for ``game`` and is refused for ``reason``."""
    client = client_for(user)
    before = game_snapshot(game.pk)
    refused(client, client.post(url(action, game)), game, before, reason)


@pytest.mark.parametrize("who, action, reason", [
    ("bob", "games-start", "Only the game&#x27;s creator"),
    ("bob", "games-cancel", "Only the game&#x27;s creator"),
    ("carol", "games-start", "Only the game&#x27;s creator"),
    ("carol", "games-cancel", "Only the game&#x27;s creator"),
    ("carol", "games-leave", "You do not have a seat"),  # a stranger leaving
    ("alice", "games-leave", "cancel it instead"),  # the creator leaving
    ("bob", "games-join", "already have a seat"),  # joining twice
])
def test_lobby_refusals(client_for, open_game, alice, bob, carol, who, action, reason):
    user = {"alice": alice, "bob": bob, "carol": carol}[who]
    post_refused(client_for, user, action, open_game, reason)


def test_joining_a_full_game_is_refused(client_for, make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2)  # full, so started
    post_refused(client_for, carol, "games-join", game, "no longer taking players")


@pytest.mark.parametrize("status", [GameStatus.CANCELLED, GameStatus.FINISHED])
def test_joining_a_game_that_is_over_is_refused(client_for, open_game, carol, status):
    Game.objects.filter(pk=open_game.pk).update(status=status)
    post_refused(client_for, carol, "games-join", open_game, "no longer taking players")


def test_starting_alone_is_refused(client_for, make_game, alice):
    game = make_game(alice, seats=4)
    post_refused(client_for, alice, "games-start", game, "At least 2 players")


def test_leaving_starting_or_cancelling_after_the_start_is_refused(
        client_for, started_game, alice, bob):
    for user, action, reason in ((bob, "games-leave", "before it starts"),
                                 (alice, "games-start", "already started"),
                                 (alice, "games-cancel", "has not started")):
        post_refused(client_for, user, action, started_game, reason)


def test_starting_twice_is_refused(client_for, open_game, alice):
    assert client_for(alice).post(url("games-start", open_game)).status_code == 302
    assert game_snapshot(open_game.pk)["status"] == GameStatus.ACTIVE
    post_refused(client_for, alice, "games-start", open_game, "already started")


def test_cancelling_twice_is_refused(client_for, open_game, alice):
    client_for(alice).post(url("games-cancel", open_game))
    assert game_snapshot(open_game.pk)["status"] == GameStatus.CANCELLED
    post_refused(client_for, alice, "games-cancel", open_game, "has not started")


def test_lobby_posts_need_a_login(client, open_game):
    before = game_snapshot(open_game.pk)
    for action in ("games-join", "games-leave", "games-start", "games-cancel"):
        response = client.post(url(action, open_game))
        assert response.status_code == 302
        assert reverse("account_login") in response["Location"]
    assert game_snapshot(open_game.pk) == before


def test_lobby_posts_for_a_game_that_does_not_exist(client_for, carol):
    client = client_for(carol)
    missing = uuid.uuid4()
    for action in ("games-join", "games-leave", "games-start", "games-cancel"):
        response = client.post(reverse(action, kwargs={"game_id": missing}))
        assert response.status_code in (302, 404)
    assert not Game.objects.exists()


# --- private games and invite tokens ---------------------------------------------------------


def forged_tokens(game, other):
    good = make_invite_token(game)
    return {
        "none": "",
        "junk": "not-a-token",
        "another game's token": make_invite_token(other),
        "tampered signature": good[:-2] + ("AA" if not good.endswith("AA") else "BB"),
        "right id, no salt": signing.dumps(str(game.id), compress=True),
        "right id, wrong salt": signing.dumps(str(game.id), salt="games.other"),
        "wrong key": signing.dumps(str(game.id), salt=INVITE_SALT, key="not-the-secret-key"),
        "too long": good + "x" * 600,
    }


@pytest.fixture
def other_private_game(make_game, bob):
    return make_game(bob, seats=3, is_public=False)


def test_a_forged_token_does_not_join_a_private_game(
        client_for, private_game, other_private_game, carol):
    client = client_for(carol)
    before = game_snapshot(private_game.pk)
    for name, token in forged_tokens(private_game, other_private_game).items():
        response = client.post(url("games-join", private_game), {"token": token})
        assert response.status_code in (302, 404), name
        assert game_snapshot(private_game.pk) == before, name
    assert not Seat.objects.filter(user=carol).exists()


def hidden(response, *, page: bool) -> bool:
    """A game the visitor may not see: 404, or for a logged-out visitor of a full page the
    login page (every unknown or hidden game alike, so nothing leaks)."""
    if response.status_code == 404:
        return True
    return page and response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_forged_token_shows_nothing_of_a_private_game(
        client_for, client, private_game, other_private_game, carol):
    for who in (client, client_for(carol)):
        for name, token in forged_tokens(private_game, other_private_game).items():
            if not token or "/" in token:
                continue
            for path in (url("games-invite", private_game, token=token),
                         url("games-seats", private_game) + f"?token={token}"):
                response = who.get(path)
                assert hidden(response, page="games-seats" not in path), (name, path)


def test_the_real_token_lets_a_stranger_in(client_for, private_game, carol):
    token = make_invite_token(private_game)
    client = client_for(carol)
    assert client.get(url("games-invite", private_game, token=token)).status_code == 200
    response = client.post(url("games-join", private_game), {"token": token})
    assert response.status_code == 302
    assert Seat.objects.filter(game=private_game, user=carol).exists()


def test_a_stranger_sees_no_private_game_without_the_token(client_for, client, make_game,
                                                           alice, bob, carol):
    game = make_game(alice, bob, seats=2, is_public=False)  # started
    for who in (client, client_for(carol)):
        assert hidden(who.get(url("games-detail", game)), page=True)
        assert who.get(url("games-poll", game), {"v": 0}).status_code == 404
        assert who.get(url("games-seats", game)).status_code == 404
        # the link is for joining; once started, only players see the game
        assert hidden(who.get(url("games-invite", game, token=make_invite_token(game))), page=True)
        lobby = who.get(reverse("games-lobby")).text + who.get("/").text
        assert str(game.pk) not in lobby


def _invite_tokens(page: str) -> list[str]:
    # the tokens of the invite links a page shows (a token is signed with the second it was
    # made in: compare what it stands for, not its text)
    return re.findall(r"/invite/([^/\"'<>\s:]+:[^/\"'<>\s]+)/", page)


def test_the_invite_token_is_shown_only_to_players(client_for, private_game, make_game,
                                                   alice, carol):
    shown = _invite_tokens(client_for(alice).get(url("games-detail", private_game)).text)
    assert shown and all(check_invite_token(private_game, token) for token in shown)
    public = make_game(alice, seats=3)
    page = client_for(carol).get(url("games-invite", private_game, token=make_invite_token(private_game))).text
    assert "Join" in page or "join" in page
    assert not _invite_tokens(client_for(carol).get(url("games-detail", public)).text)


@pytest.mark.parametrize("action", ["games-join", "games-start", "games-act"])
def test_a_token_with_a_slash_in_a_refused_post_is_not_a_server_error(
        client_for, private_game, started_game, carol, alice, action):
    # join/start: carol is refused (private game, not the creator); act: alice's pass is
    # illegal in the planning phase
    game, client = (started_game, client_for(alice)) if action == "games-act" else \
        (private_game, client_for(carol))
    client.raise_request_exception = False
    before = game_snapshot(game.pk)
    response = client.post(url(action, game), {
        "token": "a/b", "action": json.dumps({"type": "pass"}), "expected_version": 0})
    assert game_snapshot(game.pk) == before
    assert response.status_code < 500


# --- the new-game form ------------------------------------------------------------------------


@pytest.mark.parametrize("data", [
    {"seats": "1"}, {"seats": "5"}, {"seats": "-2"}, {"seats": "abc"}, {"seats": ""},
    {"seats": "2", "name": "n" * 81},
    {"seats": "2", "place_tile_market": "everything"},
    {"seats": "2", "event_strength": "apocalyptic"},
    {"seats": "2", "hourglass_order": "sorted"},
], ids=lambda d: ",".join(f"{k}={v[:8]}" for k, v in d.items()))
def test_a_bad_new_game_form_creates_nothing(client_for, alice, data):
    form = {"name": "x", "place_tile_market": "normal", "event_strength": "phased",
            "hourglass_order": "abc", "is_public": "on", **data}
    response = client_for(alice).post(reverse("games-new"), form)
    assert response.status_code == 200  # the form again, with its errors
    assert 'errorlist' in response.text
    assert not Game.objects.exists()


def test_markup_in_a_game_name_is_escaped_everywhere(client_for, alice, bob):
    evil = '<img src=x onerror=alert(1)>'
    client = client_for(alice)
    response = client.post(reverse("games-new"), {
        "name": evil, "seats": "2", "place_tile_market": "normal", "event_strength": "phased",
        "hourglass_order": "abc", "is_public": "on"})
    game = Game.objects.get()
    for path in (response["Location"], reverse("games-lobby"), "/", reverse("games-profile")):
        text = client.get(path).text
        assert evil not in text, path
    client_for(bob).post(url("games-join", game))
    for who in (client, client_for(bob)):
        assert evil not in who.get(url("games-detail", game)).text
        assert evil not in who.get(url("games-poll", game), {"v": -1}, **HTMX).text


@pytest.mark.parametrize("data", [
    {"action": '{"type": "pick", "n": 1}', "expected_version": 0},  # a decision
    {"action": '{"type": "pick", "n": 1}', "expected_version": 7},  # ... on a stale page
    {"action": "not json", "expected_version": 0},                   # a malformed post
    {"op": "clear"}, {"op": "add", "entry": "{"},                     # queue changes
    {"expected_version": 0}, {},                                      # a take-back, and nothing
])
def test_a_stranger_acting_on_a_started_game_gets_404_if_private_else_403(
        fake_engine, client_for, make_game, alice, bob, carol, data):
    private = make_game(alice, bob, seats=2, is_public=False)
    public = make_game(alice, bob, seats=2)
    client = client_for(carol)
    for game, status in ((private, 404), (public, 403)):
        before = game_snapshot(game.pk)
        for action in ("games-act", "games-undo", "games-queue"):
            response = client.post(url(action, game), data, HTTP_HX_REQUEST="true")
            assert response.status_code == status, (action, data)
        assert game_snapshot(game.pk) == before
    missing = client.post(reverse("games-act", kwargs={"game_id": uuid.uuid4()}), data, HTTP_HX_REQUEST="true")
    assert missing.status_code == 404



def test_a_strangers_write_is_refused_without_taking_the_games_lock(fake_engine, client_for, make_game, alice, bob,
                                                                   carol, monkeypatch):
    # a stranger never takes the game's row lock (a script posting to a busy public game
    # must not make its players wait): a decision or a take-back asks only for the lock
    # held by a seat of theirs (none: no row, no lock); a queue change never reaches its service
    from games.services import locks
    from games.views import fragments

    def never(**_kwargs):
        raise AssertionError("the service ran for a user without a seat")

    locked = []
    seated_lock = locks._lock_game

    def lock(game_id, *, seated_user=None, **kwargs):
        game = seated_lock(game_id, seated_user=seated_user, **kwargs)
        locked.append((seated_user, game))
        return game

    monkeypatch.setattr(fragments, "seat_queue_change", never)
    monkeypatch.setattr(locks, "_lock_game", lock)
    game = make_game(alice, bob, seats=2)
    client = client_for(carol)
    for action in ("games-act", "games-undo", "games-queue"):
        response = client.post(url(action, game), {"action": '{"type": "pick", "n": 1}', "expected_version": 0,
                                                   "op": "clear"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 403, action
    # SQLite (no row locks: a write transaction locks the whole database) checks the seat
    # before the transaction, so the service does not even start
    assert locked == ([(carol, None), (carol, None)] if connection.features.has_select_for_update else [])
    assert game.version == Game.objects.get(pk=game.pk).version == 0
