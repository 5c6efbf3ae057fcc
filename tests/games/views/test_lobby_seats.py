"""fragments.lobby_seats: the seat list of an open game, refreshed by htmx."""
from django.urls import reverse

from games.services import game_start


def url(game):
    return reverse("games-seats", kwargs={"game_id": game.pk})


def test_it_lists_the_seated_players(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    response = client_for(alice).get(url(game))
    assert response.status_code == 200
    assert 'id="lobby-seats"' in response.text
    assert "alice" in response.text and "bob" in response.text


def test_it_reloads_the_page_once_the_game_started(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    game_start(game_id=game.pk, user=alice)
    response = client_for(bob).get(url(game))
    assert response["HX-Refresh"] == "true"
