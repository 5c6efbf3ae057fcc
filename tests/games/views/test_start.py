"""lobby.start"""
from django.urls import reverse

from games.models import GameStatus


def url(game):
    return reverse("games-start", kwargs={"game_id": game.pk})


def test_the_creator_starts_with_two_players(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    response = client_for(alice).post(url(game), follow=True)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert "games/game_detail.html" in [t.name for t in response.templates]


def test_it_shows_the_seat_order_and_start_player(client_for, make_game, alice, bob, carol):
    game = make_game(alice, bob, carol)
    response = client_for(alice).post(url(game), follow=True)
    seats = list(game.seats.order_by("order"))
    region = response.text[response.text.index('id="game-players"'):]
    region = region[: region.index("</section>")]
    positions = [region.index(s.user.username) for s in seats]
    assert positions == sorted(positions)
    assert positions[0] < region.index("start player") < positions[1]


def test_it_needs_two_players(client_for, make_game, alice):
    game = make_game(alice)
    response = client_for(alice).post(url(game), follow=True)
    assert "At least 2 players" in response.text
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_only_the_creator_starts(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    client_for(bob).post(url(game))
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_it_rejects_get(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    assert client_for(alice).get(url(game)).status_code == 405
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
