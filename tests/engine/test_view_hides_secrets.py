"""Hidden information (docs/engine.md "The view"): ``engine.view`` gives a seat, or a
spectator (``None``), only what it may see — never another seat's bag, market or plan
before the reveal, nor prompt details, the seed, the hourglass order or hidden stacks.

The site-level scanner over every page and partial is tests/security/test_hidden_information.py.
"""
import json

import engine
from tests.support.engine_states import act, action_state, activate, placements, planning_state

SEED = 123_456_789_012_345


def test_the_engine_view_does_not_order_the_events_left_by_the_hidden_stack():
    """engine.view's ``hourglass_left`` may give counts, but its key order must not follow
    the hidden stack (the first key would be the next round's event)."""
    state = engine.new_game(engine.GameOptions(players=3), seed=SEED)
    data = engine.to_json(state)
    reordered = dict(data, hourglass=list(reversed(data["hourglass"])))
    views = [engine.view(engine.from_json(d), None)["hourglass_left"] for d in (data, reordered)]
    assert views[0] == views[1]
    assert json.dumps(views[0]) == json.dumps(views[1]), (
        "hourglass_left lists the events in the hidden stack's order")


def test_other_seats_plans_and_markets_are_hidden_until_revealed():
    s = engine.new_game(engine.GameOptions(players=2), 7)
    s, _ = engine.apply(s, 0, {"type": "place", "follower": "start_boatman", "space": "farmhouse"})
    seen_by_1 = engine.view(s, 1)["players"][0]
    assert seen_by_1["market"] is None and seen_by_1["plan"] is None and seen_by_1["bag"] is None
    assert seen_by_1["plan_size"] == 1 and seen_by_1["market_size"] == 3
    own = engine.view(s, 0)["players"][0]
    assert own["plan"] == [["farmhouse", "start_boatman"]] and own["bag"] == {}
    spectator = engine.view(s, None)
    assert all(p["market"] is None for p in spectator["players"])
    text = json.dumps(spectator)
    assert '"seed"' not in text and "hourglass\"" not in text


def test_plan_is_hidden_from_other_seats_until_revealed():
    """§8.4: planning is simultaneous and hidden (only the market and plan sizes are public);
    the plan is revealed in the action phase."""
    state = planning_state({0: {"market": ["knight", "scholar"]}, 1: {"market": ["farmer"]}})
    state = act(state, type="place", follower="knight", space="scriptorium")
    other = engine.view(state, 1)["players"][0]
    assert other["plan"] is None and other["market"] is None and other["bag"] is None
    assert (other["market_size"], other["plan_size"]) == (1, 1)  # counts are public
    assert "scriptorium" not in other["spaces"]
    assert ("knight", "scriptorium") not in placements(state, 1)
    assert engine.view(state, None)["players"][0]["plan"] is None
    assert engine.view(state, 0)["players"][0]["plan"] == [["scriptorium", "knight"]]
    state = act(state, type="place", follower="scholar", space="scriptorium")
    state = act(state, type="submit_plan")
    state = act(state, 1, type="submit_plan")
    assert engine.needs_resolution(state)
    state, _ = engine.resolve(state)
    assert state.phase == "actions"
    assert engine.view(state, 1)["players"][0]["spaces"]["scriptorium"] == ["knight", "scholar"]


def test_view_hides_bathhouse_draws_and_bags_of_other_seats():
    """docs/engine.md 'The view': another seat's drawn Bathhouse tiles, bag and plan are
    hidden; only counts are public."""
    state = action_state({"places": ["bathhouse"], "spaces": {"bathhouse": ["monk"]},
                          "bag": {"knight": 2, "scholar": 1}})
    state = activate(state, "bathhouse")
    mine = engine.view(state, 0)["players"][0]
    assert mine["prompt"]["drawn"] == ["knight", "knight", "scholar"]
    for viewer in (1, None):
        other = engine.view(state, viewer)["players"][0]
        assert other["prompt"] == {"kind": "bathhouse"}
        assert other["bag"] is None and other["bag_size"] == 1
