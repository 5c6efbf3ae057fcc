"""games.access: invite tokens and who may see a game."""
import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from games.access import (
    check_invite_token, get_game_for_user_or_404, get_seat_or_403, make_invite_token,
)


def test_an_invite_token_opens_only_its_game(make_game, alice):
    game, other = make_game(alice), make_game(alice)
    token = make_invite_token(game)
    assert check_invite_token(game, token)
    assert not check_invite_token(other, token)
    assert not check_invite_token(game, token + "x")
    assert not check_invite_token(game, None)


def test_players_see_their_private_game(make_game, alice, carol):
    game = make_game(alice, is_public=False)
    assert get_game_for_user_or_404(game.pk, alice)[1].user == alice
    with pytest.raises(Http404):
        get_game_for_user_or_404(game.pk, carol)
    assert get_game_for_user_or_404(game.pk, carol, token=make_invite_token(game))[1] is None


def test_get_seat_or_403(started_game, alice, carol):
    assert get_seat_or_403(started_game, alice).user == alice
    with pytest.raises(PermissionDenied):
        get_seat_or_403(started_game, carol)


def test_a_players_game_and_seat_are_one_query(started_game, alice, django_assert_num_queries):
    with django_assert_num_queries(1):
        game, seat = get_game_for_user_or_404(started_game.pk, alice)
        assert (game.pk, game.creator.username, seat.user_id) == (started_game.pk, "alice", alice.pk)
    assert seat.game is game


def test_a_spectator_gets_the_game_without_a_seat(started_game, carol, django_assert_num_queries):
    with django_assert_num_queries(2):
        game, seat = get_game_for_user_or_404(started_game.pk, carol)
    assert (game.pk, seat) == (started_game.pk, None)
