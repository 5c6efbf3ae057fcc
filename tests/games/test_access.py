"""games.access: invite tokens and who may see a game."""
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from games.access import (
    check_invite_token, game_and_seat, get_game_for_user_or_404, get_seat_or_403, make_invite_token,
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


def test_a_spectator_gets_the_game_without_a_seat_in_one_query(started_game, carol, django_assert_num_queries):
    with django_assert_num_queries(1):
        game, seat = get_game_for_user_or_404(started_game.pk, carol)
        assert game.creator.username == "alice"
    assert (game.pk, seat) == (started_game.pk, None)


def test_a_visitor_gets_the_game_without_a_seat(started_game, django_assert_num_queries):
    with django_assert_num_queries(1):
        game, seat = game_and_seat(started_game.pk, AnonymousUser())
    assert (game.pk, seat) == (started_game.pk, None)


def test_an_unknown_game_is_none_and_none(alice):
    assert game_and_seat(uuid.uuid4(), alice) == (None, None)


def test_the_game_read_without_its_snapshot_reads_it_only_when_used(started_game, alice,
                                                                    django_assert_num_queries):
    with django_assert_num_queries(1):
        game, seat = game_and_seat(started_game.pk, alice, state=False)
        assert game.has_snapshot and game.state_stamp == started_game.state_stamp
    assert (seat.game, seat.user_id) == (game, alice.pk)
    with django_assert_num_queries(1):
        assert game.state == started_game.state


def test_a_game_without_a_snapshot_says_so_unread(make_game, alice, django_assert_num_queries):
    open_game = make_game(alice)
    with django_assert_num_queries(1):
        game, _seat = game_and_seat(open_game.pk, alice, state=False)
        assert not game.has_snapshot
