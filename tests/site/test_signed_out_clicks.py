"""A click of a player whose session ended (logged out in another tab) is never silent
(issue 8): an htmx request that ``login_required`` would redirect is told to load the
login page (``HX-Redirect``), which says why and brings them back to the game afterwards.
The game does not change."""
import json
from urllib.parse import parse_qs, urlsplit

import pytest
from django.shortcuts import redirect
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from orleans_site.htmx_login import HtmxLoginRedirectMiddleware

HTMX = {"HTTP_HX_REQUEST": "true"}


def _act(client, game, **headers):
    return client.post(reverse("games-act", kwargs={"game_id": game.pk}),
                       {"action": json.dumps({"type": "pass"}), "expected_version": game.version}, **headers)


@pytest.mark.django_db
def test_a_signed_out_players_move_loads_the_login_page_that_returns_to_the_game(started_game):
    page = f"http://testserver{reverse('games-detail', kwargs={'game_id': started_game.pk})}"
    client = Client()
    version, moves = started_game.version, Move.objects.filter(game=started_game).count()

    response = _act(client, started_game, HTTP_HX_CURRENT_URL=page, **HTMX)

    assert response.status_code == 200 and response.content == b""
    target = urlsplit(response["HX-Redirect"])
    assert target.path == reverse("account_login")
    assert parse_qs(target.query)["next"] == [urlsplit(page).path]
    login = client.get(response["HX-Redirect"])
    assert "You have been logged out, so that was not sent." in login.content.decode()
    assert Game.objects.get(pk=started_game.pk).version == version
    assert Move.objects.filter(game=started_game).count() == moves


@pytest.mark.django_db
@pytest.mark.parametrize("current", ["https://elsewhere.example/games/", "http://testserver//elsewhere.example/x",
                                     "http://testserver/\\elsewhere.example", "javascript:alert(1)"])
def test_the_login_page_never_sends_a_player_back_to_another_site(started_game, current):
    response = _act(Client(), started_game, HTTP_HX_CURRENT_URL=current, **HTMX)

    assert parse_qs(urlsplit(response["HX-Redirect"]).query)["next"] == [reverse("home")]


@pytest.mark.django_db
def test_a_signed_out_chat_message_is_not_silent_either(started_game):
    response = Client().post(reverse("games-chat", kwargs={"game_id": started_game.pk}), {"text": "hello"},
                             HTTP_HX_CURRENT_URL="http://testserver/", **HTMX)

    assert urlsplit(response["HX-Redirect"]).path == reverse("account_login")


@pytest.mark.django_db
def test_without_htmx_the_login_redirect_is_left_as_it_is(started_game):
    response = _act(Client(), started_game)

    assert response.status_code == 302 and "HX-Redirect" not in response
    assert urlsplit(response["Location"]).path == reverse("account_login")


@pytest.mark.django_db
def test_other_redirects_of_an_htmx_request_are_left_as_they_are(client_for, started_game):
    client = client_for(started_game.creator)
    response = client.get(reverse("account_login"), **HTMX)  # allauth sends a signed-in user home

    assert response.status_code == 302 and "HX-Redirect" not in response


@pytest.mark.django_db
def test_a_signed_in_user_sent_to_the_login_page_is_not_told_they_logged_out(started_game, rf):
    request = rf.post("/somewhere/", HTTP_HX_REQUEST="true")
    request.user, request.htmx = started_game.creator, True
    response = HtmxLoginRedirectMiddleware(lambda _request: redirect("account_login"))(request)

    assert response.status_code == 302 and "HX-Redirect" not in response
