"""A timeout applies all of a seat's moves in one write (issue 14): the moves are applied in
memory and stored with one INSERT, one snapshot and one version bump."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games import rules, services
from games.models import Game, Move, Seat
from games.services import game_timeout
from games.services.store import _store_moves


def _writes(queries, table: str, verb: str) -> int:
    return sum(q["sql"].startswith(verb) and f'"{table}"' in q["sql"].split("WHERE")[0]
               for q in queries.captured_queries)


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


def _to_round_two_draws(game):
    """Real engine, followers drawn in turn: round 1 played through to round 2's draws."""
    by_order = {s.order: s.user for s in game.seats.select_related("user")}
    farmhouse = [{"follower": "start_boatman", "space": "farmhouse"},
                 {"follower": "start_craftsman", "space": "farmhouse"}]

    def act(order, action):
        game.refresh_from_db()
        services.game_submit_action(game_id=game.pk, user=by_order[order], expected_version=game.version,
                                    action=action)

    for order in (0, 1):
        act(order, {"type": "submit_plan", "placements": farmhouse})
    game.refresh_from_db()
    services.game_resolve(game_id=game.pk, expected_version=game.version)
    for _ in range(2):
        game.refresh_from_db()
        (turn,) = engine.awaiting(engine.from_json(game.state))
        act(turn, {"type": "activate", "space": "farmhouse"})
    game.refresh_from_db()
    awaited = engine.awaiting(engine.from_json(game.state))
    return next(order for order, kind in awaited.items() if kind == "draw")


def test_a_timeout_of_a_draw_and_its_plan_writes_the_moves_and_the_game_once(
        clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob, simultaneous_followers=False)
    drawer = _to_round_two_draws(game)
    frozen_now.advance(days=3)
    with CaptureQueriesContext(connection) as queries:
        moves = game_timeout(game_id=game.pk, seat_order=drawer, expected_version=game.version)
    assert [m.action["type"] for m in moves] == ["draw", "submit_plan"]
    assert _writes(queries, "games_move", "INSERT") == 1
    assert _writes(queries, "games_game", "UPDATE") == 1
    assert Game.objects.get(pk=game.pk).version == game.version + len(moves)
