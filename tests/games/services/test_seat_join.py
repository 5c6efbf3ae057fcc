"""games.services.seat_join"""
import pytest

from games.access import make_invite_token
from games.models import GameStatus, Seat
from games.services import AlreadySeated, GameFull, InviteRequired, WrongStatus, seat_join


def test_it_seats_the_user_in_the_next_order(make_game, alice, bob):
    game = make_game(alice)
    seat = seat_join(game_id=game.pk, user=bob)
    assert (seat.user, seat.order) == (bob, 1)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_it_refuses_a_second_seat(make_game, alice, bob):
    game = make_game(alice, bob)
    with pytest.raises(AlreadySeated):
        seat_join(game_id=game.pk, user=bob)
    assert game.seats.count() == 2


def test_it_starts_the_game_when_the_last_seat_fills(make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=3)
    seat_join(game_id=game.pk, user=carol)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.state is not None and game.started_at is not None
    assert sorted(game.seats.values_list("order", flat=True)) == [0, 1, 2]


def test_it_refuses_a_full_or_started_game(make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2)
    with pytest.raises(WrongStatus):
        seat_join(game_id=game.pk, user=carol)


def test_it_refuses_when_every_seat_is_taken(make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2)
    # A full game that somehow stayed open (e.g. started by hand later) still refuses.
    game.status = GameStatus.OPEN
    game.save()
    with pytest.raises(GameFull):
        seat_join(game_id=game.pk, user=carol)


def test_it_needs_the_invite_token_for_a_private_game(make_game, alice, bob):
    game = make_game(alice, is_public=False)
    with pytest.raises(InviteRequired):
        seat_join(game_id=game.pk, user=bob)
    with pytest.raises(InviteRequired):
        seat_join(game_id=game.pk, user=bob, invite_token="forged")
    seat_join(game_id=game.pk, user=bob, invite_token=make_invite_token(game))
    assert Seat.objects.filter(game=game, user=bob).exists()


def test_it_refuses_a_cancelled_game(make_game, alice, bob):
    game = make_game(alice)
    game.status = GameStatus.CANCELLED
    game.save()
    with pytest.raises(WrongStatus):
        seat_join(game_id=game.pk, user=bob)
