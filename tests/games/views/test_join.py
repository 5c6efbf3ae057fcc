"""lobby.join"""
from django.urls import reverse

from games.access import make_invite_token
from games.models import GameStatus


def url(game):
    return reverse("games-join", kwargs={"game_id": game.pk})


def test_it_seats_the_user(client_for, make_game, alice, bob):
    game = make_game(alice)
    response = client_for(bob).post(url(game))
    assert response.status_code == 302
    assert response["Location"] == reverse("games-detail", kwargs={"game_id": game.pk})
    assert game.seats.filter(user=bob).exists()


def test_taking_the_last_seat_starts_the_game(client_for, make_game, alice, bob):
    game = make_game(alice, seats=2)
    response = client_for(bob).post(url(game), follow=True)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert "the game has started" in response.text


def test_it_joins_a_private_game_with_the_token(client_for, make_game, alice, bob):
    game = make_game(alice, is_public=False)
    client_for(bob).post(url(game), {"token": make_invite_token(game)})
    assert game.seats.filter(user=bob).exists()


def test_it_refuses_a_private_game_without_the_token(client_for, make_game, alice, bob):
    game = make_game(alice, is_public=False)
    response = client_for(bob).post(url(game), {"token": "forged"})
    assert response.status_code == 302
    assert not game.seats.filter(user=bob).exists()


def test_it_reports_a_refusal(client_for, make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2)
    response = client_for(carol).post(url(game), follow=True)
    assert response.status_code == 200
    assert "no longer taking players" in response.text
    assert not game.seats.filter(user=carol).exists()


def test_it_requires_login(client, make_game, alice):
    game = make_game(alice)
    response = client.post(url(game))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert game.seats.count() == 1


def test_it_rejects_get(client_for, make_game, alice, bob):
    game = make_game(alice)
    assert client_for(bob).get(url(game)).status_code == 405
    assert game.seats.count() == 1
