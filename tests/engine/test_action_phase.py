"""RULES §8.7 action phase (ready actions only, passing, one action per turn clockwise from
the start player) and §8.9 the start player token passing to the left."""
import engine

from tests.support.engine_states import act, action_state, activate, assert_refused, player, run_event

FARMHOUSE = {"farmhouse": ["boatman", "craftsman"]}
CASTLE = {"castle": ["boatman", "farmer", "trader"]}
SCRIPTORIUM = {"scriptorium": ["knight", "scholar"]}


def test_action_requires_every_circle_filled():
    """§8.7: only ready actions (all circles filled) can be performed."""
    state = action_state({"spaces": {"village": ["boatman", "farmer"]}})
    assert engine.legal_actions(state, 0) == [{"type": "pass"}]


def test_pass_keeps_ready_tiles_and_ends_the_round_for_the_seat():
    """§8.7: a player may pass holding ready actions; the tiles stay; no more actions."""
    state = action_state({"spaces": FARMHOUSE}, others={"spaces": {"scriptorium": ["knight", "scholar"]}})
    state = engine.apply(state, 0, {"type": "pass"})[0]
    assert player(state)["passed"] and player(state)["spaces"] == FARMHOUSE
    assert engine.awaiting(state) == {1: "action"}
    assert_refused(state, 0, {"type": "activate", "space": "farmhouse"}, engine.NotYourTurn)


def test_turn_order_one_action_each_clockwise():
    """§8.7: from the start player, clockwise, one action per turn."""
    state = action_state({"spaces": {**FARMHOUSE, **CASTLE}}, players=3)
    state = activate(state, "farmhouse")
    assert engine.awaiting(state) == {1: "action"}


def test_turn_order_clockwise_from_start_player():
    """§8.7: from the start player clockwise; passed players are skipped."""
    ready = {"spaces": SCRIPTORIUM}
    state = action_state(ready, players=3, others=ready, start_player=2, turn=2)
    state = act(state, 2, type="activate", space="scriptorium")
    assert engine.awaiting(state) == {0: "action"}
    state = act(state, 0, type="pass")
    assert engine.awaiting(state) == {1: "action"}
    state = act(state, 1, type="activate", space="scriptorium")
    # nobody has anything ready: the engine passes seats 2 and 1, the round ends and the
    # start player moves from seat 2 to seat 0 (§8.9)
    assert state.round == 3 and state.data["start_player"] == 0


def test_start_player_passes_left():
    """§8.9: the start-player token passes to the left after each round."""
    state, _ = run_event("pilgrimage", {}, players=3)
    assert state.data["start_player"] == 1
