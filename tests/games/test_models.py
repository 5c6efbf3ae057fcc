"""games.models: constraints and the append-only log."""
import pytest
from django.db import IntegrityError

from games.models import GameStatus, Move, Seat


def test_status_values_are_stable():
    assert [s.value for s in GameStatus] == ["open", "active", "finished", "cancelled"]


def test_moves_are_append_only(started_game):
    move = Move.objects.create(game=started_game, seq=1, seat=0, action={"type": "x"})
    move.events = [{"text": "forged"}]
    with pytest.raises(ValueError):
        move.save()


def test_seq_is_unique_per_game(started_game):
    Move.objects.create(game=started_game, seq=1, seat=0, action={"type": "x"})
    with pytest.raises(IntegrityError):
        Move.objects.create(game=started_game, seq=1, seat=1, action={"type": "y"})


def test_a_user_has_one_seat_per_game(make_game, alice):
    game = make_game(alice)
    with pytest.raises(IntegrityError):
        Seat.objects.create(game=game, user=alice, order=1)
