"""pages.home"""
from django.urls import reverse

from games.services import game_cancel


def test_it_lists_open_public_games(client, make_game, alice, bob):
    public = make_game(alice)
    private = make_game(bob, is_public=False)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert list(response.context["open_games"]) == [public]
    assert reverse("games-detail", kwargs={"game_id": public.pk}) in response.text
    assert str(private.pk) not in response.text


def test_it_leaves_out_started_and_cancelled_games(client, make_game, started_game, alice):
    cancelled = make_game(alice)
    game_cancel(game_id=cancelled.pk, user=alice)
    response = client.get(reverse("home"))
    assert list(response.context["open_games"]) == []


def test_it_lists_games_waiting_for_the_user(client_for, started_game, alice, carol):
    response = client_for(alice).get(reverse("home"))
    waiting = list(response.context["waiting"])
    assert [s.game for s in waiting] == [started_game]
    assert "Waiting for you" in response.text
    assert list(client_for(carol).get(reverse("home")).context["waiting"]) == []


def test_it_invites_anonymous_visitors_to_sign_up(db, client):
    response = client.get(reverse("home"))
    assert reverse("account_signup") in response.text
