"""``apply`` copies only what an action changes (engine.state.work_copy) and shares the rest
with its input: the input and every earlier state stay exactly as they were, and the result
is the one a whole copy gives (the states, events and take-back records, bit for bit).

Checked for every legal action of every awaited seat along random playouts of several
option sets, against a reference apply that copies the whole tree first."""
from __future__ import annotations

import json
import random

import pytest

import engine
from engine.undo import record
from engine.actions import normalize
from engine.flow import ACTIONS, _log_action, _resolve_barrier, advance, awaiting_data
from engine.simulate import choose
from engine.state import clone, copy_player

CONFIGS = [
    dict(players=4),
    dict(players=3, simultaneous_followers=False, event_strength="constant"),
    dict(players=2, place_tile_market="all", hourglass_order="classic_shuffle"),
    dict(players=4, place_tile_market="market5"),
]


def exact(data: dict) -> str:
    """The tree as text with its key order: equal texts are the same tree, order included."""
    return json.dumps(data)


def apply_on_a_whole_copy(state: engine.GameState, seat: int, action: dict) -> tuple[dict, list]:
    """The reference: copy the whole tree, then the same steps as engine.apply."""
    s0 = state.data
    action = normalize(action)
    s = clone({k: v for k, v in s0.items() if k != "undo"})
    ev: list = []
    ACTIONS[action["type"]][1](s, seat, action, ev)
    _log_action(ev, seat, action)
    advance(s, ev)
    record(s0, s, seat)
    return s, ev


def playout(options: dict, seed: int):
    """Yield every state of a random game (engine.simulate's policy) with its log entry."""
    rng = random.Random(seed)
    state = engine.new_game(engine.GameOptions(**options), seed)
    while not engine.is_over(state):
        if engine.needs_resolution(state):
            yield state, None, None
            state, _ = engine.resolve(state)
            continue
        awaited = awaiting_data(state.data)
        seat = rng.choice(sorted(awaited))
        action = choose(rng, awaited[seat], engine.legal_actions(state, seat), state.data, seat)
        yield state, seat, action
        state, _ = engine.apply(state, seat, action)
    yield state, None, None


@pytest.mark.parametrize("options", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_every_legal_action_leaves_the_input_unchanged_and_equals_a_whole_copy(options):
    tried, places = set(), set()
    for state, _seat, _action in playout(options, seed=11 + len(options)):
        before = exact(state.data)
        for seat in awaiting_data(state.data):
            for action in engine.legal_actions(state, seat):
                tried.add(action["type"])
                places.add(action.get("space") if action["type"] == "activate" else None)
                try:
                    expected = apply_on_a_whole_copy(state, seat, action)
                except engine.RulesError:  # refused by the step itself (a whole plan): refused by apply too
                    with pytest.raises(engine.RulesError):
                        engine.apply(state, seat, action)
                    continue
                after, events = engine.apply(state, seat, action)
                assert exact(state.data) == before, (seat, action)
                assert exact(after.data) == exact(expected[0]) and events == expected[1], (seat, action)
                # the awaited seats a placement or take-back carries over (engine.flow._PROVISIONAL) are the tree's
                assert engine.awaiting(after) == awaiting_data(expected[0]), (seat, action)
    assert {"place", "unplace", "submit_plan", "draw", "activate", "pass"} <= tried
    # the places that change a container no other place does (engine.flow._ONLY_BY_PLACES) and the rest
    assert {"town_hall", "village", "farmhouse", "university", "castle"} <= places
    if options == CONFIGS[0]:
        assert {"ship", "wagon", "guildhall"} <= places


@pytest.mark.parametrize("options", CONFIGS[:2], ids=["4p", "3p-sequential"])
def test_every_earlier_state_of_a_game_stays_unchanged_to_its_end(options):
    """The states share parts with one another: no later apply, resolve or undo changes any."""
    kept, undone = [], []
    for state, seat, _action in playout(options, seed=5):
        kept.append((state, exact(state.data)))
        if seat is not None and engine.undoable(state, seat):
            back = engine.undo(state, seat)  # a take-back shares nothing: it is a branch of its own
            undone.append((back, exact(back.data)))
    assert undone
    for state, text in kept + undone:
        assert exact(state.data) == text


def test_a_pass_with_a_technology_tile_pending_leaves_the_input_unchanged_and_equals_a_whole_copy():
    """The pass adds the technology prompt (RULES §14.2) to a player apply copied only in part
    (engine.flow._PLAYER_CHANGES): rare in the playouts above, so looked for here."""
    found = 0
    for seed in range(1, 40):
        for state, seat, _action in playout(dict(players=4), seed=seed):
            awaited = awaiting_data(state.data)
            if seat is None or awaited[seat] != "action" or not state.data["players"][seat]["technology_pending"]:
                continue
            before = exact(state.data)
            expected = apply_on_a_whole_copy(state, seat, {"type": "pass"})
            after, events = engine.apply(state, seat, {"type": "pass"})
            assert exact(state.data) == before
            assert exact(after.data) == exact(expected[0]) and events == expected[1]
            found += bool(after.data["players"][seat]["prompts"])
        if found >= 2:
            break
    assert found >= 2


def resolve_on_a_whole_copy(state: engine.GameState) -> tuple[dict, list]:
    """The reference: copy the whole tree, then the same steps as engine.resolve."""
    s = clone({k: v for k, v in state.data.items() if k != "undo"})
    ev: list = []
    _resolve_barrier(s, ev)
    advance(s, ev)
    return s, ev


@pytest.mark.parametrize("options", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_every_resolution_leaves_the_input_unchanged_and_equals_a_whole_copy(options):
    """The planning reveal copies only the seats' spaces (engine.flow.resolve_data)."""
    phases = set()
    for state, _seat, _action in playout(options, seed=21 + len(options)):
        if not engine.needs_resolution(state):
            continue
        before = exact(state.data)
        expected = resolve_on_a_whole_copy(state)
        after, events = engine.resolve(state)
        assert exact(state.data) == before
        assert exact(after.data) == exact(expected[0]) and events == expected[1]
        phases.add(state.data["phase"])
    assert "planning" in phases


def test_a_forced_move_of_another_seat_changes_only_the_result():
    """A pass that ends a round forces the other seats' moves and runs the event: the input
    of that apply is untouched (engine.flow.advance owns what those steps change)."""
    changed_other_seats = 0
    for state, seat, action in playout(dict(players=4), seed=3):
        if seat is None:
            continue
        before = exact(state.data)
        after, _ = engine.apply(state, seat, action)
        assert exact(state.data) == before
        changed_other_seats += any(q is not p and q != p for i, (p, q) in
                                   enumerate(zip(state.data["players"], after.data["players"], strict=True)) if i != seat)
    assert changed_other_seats > 0


def containers(value, path="") -> dict:
    """``{id: path}`` of every dict and list in a tree."""
    out = {}
    if isinstance(value, (dict, list)):
        out[id(value)] = path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            out.update(containers(item, f"{path}/{key}"))
    return out


def test_copy_player_is_equal_and_shares_no_container_with_the_original():
    seen_prompts = 0
    for state, _seat, _action in playout(dict(players=4), seed=8):
        for p in state.data["players"]:
            q = copy_player(p)
            assert exact(q) == exact(p)
            assert not set(containers(q)) & set(containers(p))
            seen_prompts += bool(p["prompts"])
    assert seen_prompts > 0


def test_copy_player_of_an_unknown_shape_copies_everything():
    p = engine.new_game(engine.GameOptions(players=2), 1).data["players"][0]
    odd = {**clone(p), "extra": {"nested": [1, 2]}}
    q = copy_player(odd)
    assert q == odd and not set(containers(q)) & set(containers(odd))


def test_a_part_copy_of_a_player_copies_the_named_parts_and_own_all_the_rest():
    from engine.state import PLAYER_PARTS, own_all, work_copy

    data = engine.new_game(engine.GameOptions(players=2), 1).data
    work = work_copy(data, 0, (), ("market", "plan"))
    p, q = data["players"][0], work["players"][0]
    assert q == p and q is not p
    assert {key for key in PLAYER_PARTS if q[key] is p[key]} == set(PLAYER_PARTS) - {"market", "plan"}
    own_all(work, data, 0, ())
    assert work["players"][0] == p and not set(containers(work["players"][0])) & set(containers(p))


def test_copy_container_is_equal_and_shares_no_container_with_the_original():
    from engine.state import CONTAINER_DEPTH, copy_container

    seen = set()
    for options in CONFIGS:
        for state, _seat, _action in playout(options, seed=8):
            for key, value in state.data.items():
                if isinstance(value, (dict, list)) and key != "players":
                    copy = copy_container(key, value)
                    assert exact(copy) == exact(value)
                    assert not set(containers(copy)) & set(containers(value)), key
                    seen.add(key)
    assert set(CONTAINER_DEPTH) <= seen


def test_a_player_with_the_engine_keys_in_another_order_is_part_copied_like_one_in_setup_order():
    """The shape test (engine.state._engine_player) tries setup's key order first, then the
    keys as a set: a tree read back with its keys in another order is copied the same way."""
    from engine.state import PLAYER_PARTS

    p = engine.new_game(engine.GameOptions(players=2), 1).data["players"][0]
    reordered = {key: p[key] for key in sorted(p)}
    q = copy_player(reordered, ("market",))
    assert q == p and q["market"] is not reordered["market"]
    assert all(q[key] is reordered[key] for key in PLAYER_PARTS if key != "market")
    assert list(q) == sorted(p)


def test_a_placement_on_a_tree_from_elsewhere_still_makes_another_seats_forced_move():
    """A state not left by the engine (built or read from JSON) may hold a forced move: a
    seat drawing with nothing to draw nor pull back (RULES §8.3), then with nothing to plan
    (§8.4). A placement by another
    seat there runs the forced moves as every apply does (engine.flow._PROVISIONAL applies
    only to states the engine settled)."""
    from tests.support.engine_states import build

    state = build("planning", {0: {"stage": "plan", "market": ["farmer"]}, 1: {"stage": "draw"}})
    assert not state.settled and engine.awaiting(state) == {0: "plan", 1: "draw"}
    after, events = engine.apply(state, 0, {"type": "place", "follower": "farmer", "space": "village"})
    assert [(e["kind"], e["seat"], e.get("forced")) for e in events] == [("draw", 1, True), ("plan", 1, True)]
    assert engine.awaiting(after) == {0: "plan"} and after.settled
