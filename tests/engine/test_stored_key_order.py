"""A state read back from a store that does not keep key order (PostgreSQL's ``jsonb``
sorts keys by length, then bytes) behaves exactly like the live one: ``from_json`` puts
the keys back in the engine's order, so ``legal_actions`` lists the same actions in the
same order and ``view`` lists goods, followers, tracks and deeds in board order."""
import json
import random

import pytest

import engine
from engine.simulate import play_game


def jsonb_order(value):
    """``value`` with every dict's keys as PostgreSQL's jsonb returns them."""
    if isinstance(value, dict):
        return {k: jsonb_order(value[k]) for k in sorted(value, key=lambda k: (len(k.encode()), k.encode()))}
    if isinstance(value, list):
        return [jsonb_order(v) for v in value]
    return value


def states_along(players: int, seed: int, moves: int):
    """The states of a random game of ``players`` (``play_game``'s log on ``seed``) after each
    of its first ``moves`` moves."""
    options = engine.GameOptions(players=players)
    live = engine.new_game(options, seed)
    for seat, action in play_game(options, seed, check=False)["log"][:moves]:
        live = engine.resolve(live)[0] if seat is None else engine.apply(live, seat, action)[0]
        yield live


def test_a_state_stored_without_key_order_lists_actions_and_views_in_the_engines_order():
    *_, live = states_along(3, 4, 60)
    stored = engine.from_json(jsonb_order(engine.to_json(live)))
    assert stored == live
    for seat in range(3):
        assert engine.legal_actions(stored, seat) == engine.legal_actions(live, seat)
        assert json.dumps(engine.view(stored, seat)["players"][seat]["goods"]) == \
            json.dumps(engine.view(live, seat)["players"][seat]["goods"])
    assert list(stored.data["supply"]["goods"]) == ["grain", "cheese", "wine", "wool", "brocade"]
    assert list(stored.data["deeds"]) == list(live.data["deeds"])


def test_a_take_back_after_the_store_restores_the_engines_key_order():
    """The take-back record is read back in the engine's order too: undoing a decision of a
    stored state gives the live undo's tree, key order included (goods in board order)."""
    options = engine.GameOptions(players=2)
    live = engine.new_game(options, 3)
    live, _ = engine.apply(live, 0, engine.legal_actions(live, 0)[0])
    assert engine.undoable(live, 0)
    stored = engine.from_json(jsonb_order(engine.to_json(live)))
    assert json.dumps(stored.data) == json.dumps(live.data)
    assert json.dumps(engine.undo(stored, 0).data) == json.dumps(engine.undo(live, 0).data)


def test_a_state_loads_alike_to_the_key_from_its_snapshot_in_any_key_order():
    """Keys the setup template lacks (a bag's followers, a player's action spaces and
    stations, the keys of a prompt) come back sorted: the state a store just wrote and the
    one the database gives back load alike, so the pages drawn from them hash alike."""
    for live in states_along(4, 6, 400):
        snapshot = engine.to_json(live)
        as_written = json.dumps(engine.from_json(snapshot).data)
        assert json.dumps(engine.from_json(jsonb_order(snapshot)).data) == as_written


def test_the_stored_forms_are_the_snapshot_and_its_load_without_a_copy_and_leave_the_state_alone():
    for live in states_along(3, 9, 300):
        before = json.dumps(live.data)
        snapshot, loaded = engine.stored_forms(live)
        assert snapshot is live.data
        assert json.dumps(loaded.data) == json.dumps(engine.from_json(engine.to_json(live)).data)
        assert json.dumps(live.data) == before


@pytest.mark.parametrize("options", [
    engine.GameOptions(players=4),
    engine.GameOptions(players=3, place_tile_market="all", hourglass_order="classic_shuffle"),
    engine.GameOptions(players=2, simultaneous_followers=False, event_strength="constant"),
], ids=["4 players", "3, all tiles, shuffled hourglass", "2, sequential, constant events"])
def test_a_state_applied_to_a_stored_load_loads_alike_to_the_key_and_shares_what_it_left(options):
    """A site applies each move to the load its last store kept (``stored_forms``), which
    takes the parts a move left unchanged as they are (serialize._IN_ORDER): along a game
    with take-backs, each such load is the one ``from_json`` gives of its snapshot, key
    order included, and a player the move did not touch is the previous load's own."""
    rng = random.Random(8)
    state, shared = engine.new_game(options, 8), 0
    _snapshot, state = engine.stored_forms(state)
    for seat, action in play_game(options, 8, check=False)["log"][:400]:
        if seat is not None and action is not None and engine.undoable(state, seat) and rng.random() < 0.1:
            moved = engine.undo(state, seat)  # taken back, then made again
            _snapshot, moved = engine.stored_forms(moved)
            assert json.dumps(moved.data) == json.dumps(engine.from_json(jsonb_order(_snapshot)).data)
        before = state
        state = engine.resolve(state)[0] if seat is None else engine.apply(state, seat, action)[0]
        snapshot, state = engine.stored_forms(state)
        assert json.dumps(state.data) == json.dumps(engine.from_json(jsonb_order(snapshot)).data)
        if seat is not None:
            shared += sum(state.data["players"][other] is before.data["players"][other]
                          for other in range(options.players) if other != seat)
    assert shared  # the unchanged players were taken as they were, not walked again
