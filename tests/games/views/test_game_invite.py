"""pages.game_invite: a private game's invite link."""
from django.urls import reverse

from games import services
from games.access import make_invite_token


def url(game, token):
    return reverse("games-invite", kwargs={"game_id": game.pk, "token": token})


def test_it_shows_a_private_game_with_a_join_form(client_for, make_game, alice, bob):
    game = make_game(alice, is_public=False)
    token = make_invite_token(game)
    response = client_for(bob).get(url(game, token))
    assert response.status_code == 200
    assert response.context["join_form"].initial["token"] == token
    assert reverse("games-join", kwargs={"game_id": game.pk}) in response.text


def test_it_refuses_a_forged_token(client_for, make_game, alice, bob):
    game = make_game(alice, is_public=False)
    assert client_for(bob).get(url(game, "forged:token")).status_code == 404


def test_a_token_only_opens_its_own_game(client_for, make_game, alice, bob):
    game = make_game(alice, is_public=False)
    other = make_game(alice, is_public=False)
    assert client_for(bob).get(url(other, make_invite_token(game))).status_code == 404


def test_it_does_not_open_a_started_private_game(client_for, make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    response = client_for(carol).get(url(game, make_invite_token(game)))
    assert response.status_code == 404
    assert "regions" not in response.context and "join_form" not in response.context


def test_the_invite_link_of_a_full_game_says_the_game_is_full(client_for, make_game, alice, bob,
                                                              carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    response = client_for(carol).get(url(game, make_invite_token(game)))
    assert response.status_code == 404
    assert "games/invite_closed.html" in [t.name for t in response.templates]
    text = response.text
    assert "This game is full: every seat was taken and it has started" in text
    assert "“Test game”" in text and reverse("games-lobby") in text
    assert "<title>Test game — no longer taking players" in text


def test_the_invite_link_of_a_cancelled_game_says_so(client_for, make_game, alice, bob):
    game = make_game(alice, is_public=False)
    services.game_cancel(game_id=game.pk, user=alice)
    response = client_for(bob).get(url(game, make_invite_token(game)))
    assert response.status_code == 404 and "This game was cancelled" in response.text


def test_a_forged_token_for_a_full_game_gets_the_plain_not_found(client_for, make_game, alice, bob,
                                                                  carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    response = client_for(carol).get(url(game, "forged:token"))
    assert response.status_code == 404 and "invite_closed" not in response.text
    assert "games/invite_closed.html" not in [t.name for t in response.templates]


def test_a_seated_player_opening_the_invite_link_sees_the_game(client_for, make_game, alice, bob):
    game = make_game(alice, bob, seats=2, is_public=False)
    response = client_for(bob).get(url(game, make_invite_token(game)))
    assert response.status_code == 200 and "regions" in response.context


def test_it_asks_anonymous_visitors_to_log_in(client, make_game, alice):
    game = make_game(alice, is_public=False)
    response = client.get(url(game, make_invite_token(game)))
    assert response.status_code == 200
    assert reverse("account_login") in response.text
