"""lobby.cancel"""
from django.urls import reverse

from games.models import GameStatus


def url(game):
    return reverse("games-cancel", kwargs={"game_id": game.pk})


def test_the_creator_cancels(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    response = client_for(alice).post(url(game))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED


def test_a_cancelled_game_says_so(client_for, make_game, alice):
    game = make_game(alice)
    client = client_for(alice)
    client.post(url(game))
    response = client.get(reverse("games-detail", kwargs={"game_id": game.pk}))
    assert response.status_code == 200
    assert "cancelled" in response.text.lower()


def test_only_the_creator_cancels(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    response = client_for(bob).post(url(game), follow=True)
    assert "Only the game" in response.text
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_it_rejects_get(client_for, make_game, alice):
    game = make_game(alice)
    assert client_for(alice).get(url(game)).status_code == 405
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
