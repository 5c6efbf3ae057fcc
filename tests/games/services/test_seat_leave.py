"""games.services.seat_leave"""
import pytest

from games.services import NotCreator, NotSeated, WrongStatus, seat_leave


def test_it_frees_the_seat_and_closes_the_gap(make_game, alice, bob, carol):
    game = make_game(alice, bob, carol)
    seat_leave(game_id=game.pk, user=bob)
    assert [(s.user, s.order) for s in game.seats.order_by("order")] == [(alice, 0), (carol, 1)]


def test_it_refuses_the_creator(make_game, alice, bob):
    game = make_game(alice, bob)
    with pytest.raises(NotCreator):
        seat_leave(game_id=game.pk, user=alice)
    assert game.seats.count() == 2


def test_it_refuses_a_user_without_a_seat(make_game, alice, carol):
    game = make_game(alice)
    with pytest.raises(NotSeated):
        seat_leave(game_id=game.pk, user=carol)


def test_it_refuses_after_the_start(started_game, bob):
    with pytest.raises(WrongStatus):
        seat_leave(game_id=started_game.pk, user=bob)
    assert started_game.seats.filter(user=bob).exists()
