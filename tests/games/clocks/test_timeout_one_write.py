"""A timeout applies all of a seat's moves in one write (issue 14): the moves are applied in
memory and stored with one INSERT, one snapshot and one version bump."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games import rules
from games.models import Game, Move, Seat
from games.services import game_timeout
from games.services.store import _store_moves
from tests.support.game_driver import kind_awaited, play_until, state_of
from tests.support.queries import statements


def _writes(queries, table: str, verb: str) -> int:
    return sum(sql.startswith(verb) and f'"{table}"' in sql.split("WHERE")[0] for sql in statements(queries))


def test_several_moves_are_stored_with_one_insert_and_one_snapshot(
        fake_engine, clocked_game, alice, bob):
    game = clocked_game(alice, bob)
    engine, state = rules.load_game(game)
    moves = []
    for seat in (0, 1):
        state, events = engine.apply(state, seat, {"type": "pick", "n": 2})
        moves.append((seat, {"type": "pick", "n": 2}, events))
    with CaptureQueriesContext(connection) as queries:
        stored = _store_moves(game, state, moves)
    assert [m.seq for m in stored] == [1, 2]
    assert _writes(queries, "games_move", "INSERT") == 1
    assert _writes(queries, "games_game", "UPDATE") == 1
    game.refresh_from_db()
    assert game.version == 2
    assert list(Move.objects.filter(game=game).order_by("seq").values_list("seat", flat=True)) == [0, 1]
    assert not Seat.objects.filter(game=game).exclude(awaiting="").exists()  # one sync, at the end


def _to_a_draw(game) -> int:
    """Real engine, followers drawn in turn: play on until a seat must draw; its order."""
    play_until(game, kind_awaited("draw"))
    game.refresh_from_db()
    return next(order for order, kind in engine.awaiting(state_of(game)).items() if kind == "draw")


def test_a_timeout_of_a_draw_and_its_plan_writes_the_moves_and_the_game_once(
        clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob, simultaneous_followers=False)
    drawer = _to_a_draw(game)
    frozen_now.advance(days=3)
    with CaptureQueriesContext(connection) as queries:
        moves = game_timeout(game_id=game.pk, seat_order=drawer, expected_version=game.version)
    assert [m.action["type"] for m in moves] == ["draw", "submit_plan"]
    assert _writes(queries, "games_move", "INSERT") == 1
    assert _writes(queries, "games_game", "UPDATE") == 1
    assert Game.objects.get(pk=game.pk).version == game.version + len(moves)
