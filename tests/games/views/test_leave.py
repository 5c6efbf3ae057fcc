"""lobby.leave"""
from django.urls import reverse


def url(game):
    return reverse("games-leave", kwargs={"game_id": game.pk})


def test_it_frees_the_seat(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    response = client_for(bob).post(url(game))
    assert response.status_code == 302
    assert response["Location"] == reverse("games-lobby")
    assert not game.seats.filter(user=bob).exists()


def test_the_creator_is_told_to_cancel_instead(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    response = client_for(alice).post(url(game), follow=True)
    assert "cancel it instead" in response.text
    assert game.seats.count() == 2


def test_it_refuses_after_the_start(client_for, started_game, bob):
    client_for(bob).post(url(started_game))
    assert started_game.seats.filter(user=bob).exists()


def test_it_rejects_get(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    assert client_for(bob).get(url(game)).status_code == 405
    assert game.seats.filter(user=bob).exists()
