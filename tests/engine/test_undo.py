"""Taking back one's own last decision (``engine.undoable`` / ``engine.undo``, issue 13):
allowed while no other player has acted since and the decision drew and revealed nothing;
the restored state is the previous one exactly (RULES §14 decision 14 for the plan)."""
import engine
from engine.state import clone
from tests.support.engine_states import BLOCKER, action_state, activate, draw_state, planning_state

VILLAGE = {"village": ["boatman", "craftsman", "farmer"]}
MARKET = {"market": ["start_farmer", "start_boatman", "start_craftsman", "start_trader"]}


def _place(state, seat, follower, space):
    return engine.apply(state, seat, {"type": "place", "follower": follower, "space": space})[0]


def test_a_placement_is_taken_back_to_the_exact_previous_state():
    before = planning_state({0: MARKET, 1: MARKET})
    kept = clone(before.data)
    after = _place(before, 0, "start_farmer", "castle")
    assert engine.undoable(after, 0) and not engine.undoable(after, 1)
    restored = engine.undo(after, 0)
    assert restored == before and restored.data == kept
    assert engine.awaiting(restored) == {0: "plan", 1: "plan"}
    assert not engine.undoable(restored, 0)


def test_consecutive_decisions_are_taken_back_one_by_one():
    start = planning_state({0: MARKET, 1: MARKET})
    one = _place(start, 0, "start_farmer", "castle")
    two = _place(one, 0, "start_boatman", "castle")
    assert engine.undo(two, 0) == one
    assert engine.undo(engine.undo(two, 0), 0) == start


def test_a_village_recruit_without_a_draw_is_taken_back_with_the_turn():
    before = action_state({"spaces": VILLAGE})
    after = activate(before, "village", recruit="boatman")
    assert engine.awaiting(after) == {1: "action"}  # the turn moved on; seat 1 has not acted yet
    assert engine.undoable(after, 0)
    restored = engine.undo(after, 0)
    assert restored == before
    assert engine.awaiting(restored) == {0: "action"}
    assert restored.data["players"][0]["spaces"] == VILLAGE and "boatman" not in restored.data["players"][0]["bag"]


def test_refused_once_another_seat_has_acted():
    state = action_state({"spaces": VILLAGE}, others={"spaces": {**BLOCKER, **VILLAGE}})
    state = activate(state, "village", recruit="boatman")
    state = activate(state, "village", seat=1, recruit="craftsman")
    assert not engine.undoable(state, 0)
    try:
        engine.undo(state, 0)
    except engine.IllegalAction as refusal:
        assert refusal.code == "not_undoable"
        assert "another player has acted since" in refusal.message
    else:
        raise AssertionError("the take-back was allowed after another seat acted")
    assert engine.undoable(state, 1)


def test_refused_after_a_draw_from_the_bag():
    bag = {"bag": {"farmer": 2, "boatman": 2, "craftsman": 1}}
    before = draw_state({0: bag, 1: bag})
    draw = next(a for a in engine.legal_actions(before, 0) if a["type"] == "draw")
    after = engine.apply(before, 0, draw)[0]
    assert after.data["rng"] != before.data["rng"]
    assert not engine.undoable(after, 0)


def test_refused_when_the_last_plan_completes_the_reveal():
    state = planning_state({0: MARKET, 1: MARKET})
    state = engine.apply(state, 1, {"type": "submit_plan", "placements": []})[0]
    state = engine.apply(state, 0, {"type": "submit_plan", "placements": []})[0]
    assert engine.needs_resolution(state) and not engine.undoable(state, 0)
    resolved = engine.resolve(state)[0]
    assert not engine.undoable(resolved, 0) and not engine.undoable(resolved, 1)


def test_the_record_is_never_in_a_view_and_survives_serialisation():
    after = _place(planning_state({0: MARKET, 1: MARKET}), 0, "start_farmer", "castle")
    for seat in (0, 1, None):
        assert "undo" not in engine.view(after, seat)
    assert engine.undoable(engine.from_json(engine.to_json(after)), 0)


def test_the_take_back_record_holds_only_what_the_decision_changed_and_survives_json():
    before = planning_state({0: MARKET, 1: MARKET})
    after = _place(before, 0, "start_farmer", "castle")
    last = after.data["undo"]
    assert [index for index, _player in last["players"]] == [0]  # seat 1's board is not copied
    assert last["changed"] == {} and last["added"] == []  # a placement changes only its own board
    reloaded = engine.from_json(engine.to_json(after))
    assert engine.undo(reloaded, 0) == before
