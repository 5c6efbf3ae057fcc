"""Every URL of the site: GET never writes, POST without a CSRF token is refused.

The URL list comes from the resolver itself, so a new route is covered without editing
this file. Path parameters are filled with real ids (each game status), a real invite
token, or junk.
"""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver

from games.access import make_invite_token
from games.models import Game, GameStatus
from tests.support.game_driver import new_started_game
from tests.support.snapshots import db_fingerprint

_PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")
_REGEX_VALUES = {
    "app_label": "games",
    "url": "no-such-admin-page/",
    "key": "bogus-key",
    "uidb36": "1z",
}
_REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")


def _routes(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


ROUTES = sorted(set(_routes()))
GAME_ROUTES = [r for r in ROUTES if "<uuid:game_id>" in r]
OTHER_ROUTES = [r for r in ROUTES if r not in GAME_ROUTES]


def build(route: str, game: Game | None) -> str:
    def param(match):
        name = match.group("name")
        if name == "game_id":
            return str(game.pk)
        if name == "token":
            return make_invite_token(game)
        if name == "object_id" and game is not None:
            return str(game.pk)
        return "1"

    url = _REGEX_GROUP.sub(lambda m: _REGEX_VALUES.get(m.group("name"), "x"), route)
    url = _PARAM.sub(param, url)
    url = url.replace("^", "").replace("$", "")
    return "/" + url


@pytest.fixture
def games(alice, bob, carol, make_game):
    """One game of every status, public and private."""
    open_public = make_game(alice, bob, seats=4)
    open_private = make_game(alice, bob, seats=4, is_public=False)
    active = new_started_game(alice, bob)
    private_active = new_started_game(alice, bob)
    Game.objects.filter(pk=private_active.pk).update(is_public=False)
    finished = new_started_game(alice, bob)
    Game.objects.filter(pk=finished.pk).update(status=GameStatus.FINISHED)
    cancelled = make_game(alice, seats=3)
    Game.objects.filter(pk=cancelled.pk).update(status=GameStatus.CANCELLED)
    return [Game.objects.get(pk=g.pk) for g in
            (open_public, open_private, active, private_active, finished, cancelled)]


@pytest.fixture
def personas(alice, bob, carol):
    """Anonymous, the creator, a seated player, a stranger (spectator)."""
    clients = {"anonymous": Client()}
    for user in (alice, bob, carol):
        client = Client()
        client.force_login(user)
        clients[user.username] = client
    return clients


def test_the_route_list_covers_the_games_app():
    names = {"games/<uuid:game_id>/act/", "games/<uuid:game_id>/poll/", "games/new/", ""}
    assert names <= set(ROUTES)


def test_get_never_changes_a_game_seat_or_move(games, personas):
    before = db_fingerprint()
    failures = []
    for who, client in personas.items():
        for route in OTHER_ROUTES:
            response = client.get(build(route, games[2]))
            # /healthz answers 503 by design when no worker or beat runs (services mode)
            if response.status_code >= 500 and (route, response.status_code) != ("healthz", 503):
                failures.append((who, route, response.status_code))
        for game in games:
            for route in GAME_ROUTES:
                url = build(route, game)
                for query in ({}, {"v": "0"}, {"v": str(game.version)}, {"v": "junk"}):
                    response = client.get(url, query)
                    if response.status_code >= 500:
                        failures.append((who, url, query, response.status_code))
                    after = db_fingerprint()
                    assert after == before, (who, url, query)
    assert not failures


@pytest.mark.parametrize("route", ROUTES)
def test_post_without_a_csrf_token_is_refused(games, alice, route):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    game = games[0] if "start" in route or "cancel" in route else games[2]
    before = db_fingerprint()
    response = client.post(build(route, game), {
        "action": '{"type": "submit_plan"}', "expected_version": "0", "name": "x",
        "seats": "2", "place_tile_market": "normal", "event_strength": "phased",
        "hourglass_order": "abc", "is_public": "on", "token": make_invite_token(game),
    })
    assert response.status_code == 403, (route, response.status_code)
    assert db_fingerprint() == before


def test_post_with_the_csrf_token_goes_through_the_same_endpoint(games, alice):
    """Control for the test above: the refusal is CSRF, not the endpoint being broken."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    game = games[0]
    page = client.get(f"/games/{game.pk}/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    response = client.post(f"/games/{game.pk}/cancel/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED


@pytest.mark.parametrize("path", ["/admin/", "/admin/games/game/", "/admin/games/move/",
                                  "/admin/auth/user/"])
def test_the_admin_is_closed_to_players(personas, games, path):
    for who in ("anonymous", "alice", "bob", "carol"):
        response = personas[who].get(path)
        assert response.status_code == 302, (who, path)
        assert response["Location"].startswith("/admin/login/"), (who, path)
    # a normal user's own credentials do not open it
    client = Client()
    response = client.post("/admin/login/?next=/admin/", {
        "username": "alice", "password": "orleans-test-password-42"})
    # issue 8: /admin/login/ has no form of its own; it sends to the site's rate-limited login
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/games/game/").status_code == 302


def test_the_admin_object_pages_do_not_leak_a_game_to_players(personas, games):
    game = games[2]
    for who, client in personas.items():
        for path in (f"/admin/games/game/{game.pk}/change/", "/admin/games/move/"):
            response = client.get(path)
            assert response.status_code == 302, (who, path)
            assert str(game.seed) not in response.text
