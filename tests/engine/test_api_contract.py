"""The public API contract: immutability, errors, JSON, replay, views (docs/engine.md)."""

import json

import pytest

import engine
from engine.flow import awaiting_data
from engine.simulate import play_game
from engine.state import clone


def fresh(players=2, seed=7, **options):
    return engine.new_game(engine.GameOptions(players=players, **options), seed)


def test_new_game_is_round_1_pilgrimage_waiting_for_plans():
    """RULES §3.1, §9.2: round 1 shows the light Pilgrimage; starting followers on the market."""
    s = fresh(players=3)
    assert s.round == 1 and s.data["event"] == "pilgrimage"
    # the bag is empty in round 1, so drawing is forced (0) and every seat is planning
    assert engine.awaiting(s) == {0: "plan", 1: "plan", 2: "plan"}
    for p in s.data["players"]:
        assert p["market"] == ["start_boatman", "start_craftsman", "start_farmer", "start_trader"]
        assert p["coins"] == 5 and p["stations_left"] == 10 and p["merchant"] == "orleans"


def test_same_seed_same_game_and_different_seed_different_setup():
    assert fresh(seed=3) == fresh(seed=3)
    assert fresh(seed=3).data["routes"] != fresh(seed=4).data["routes"]


@pytest.mark.parametrize("players,on_map,removed", [(2, 43, 12), (3, 48, 6), (4, 52, 0)])
def test_goods_on_the_map_by_player_count(players, on_map, removed):
    """RULES §2.3, §3.3, §4.2: goods spaces in use and goods removed at random."""
    s = fresh(players=players)
    assert sum(len(g) for g in s.data["routes"].values()) == on_map
    assert sum(s.data["removed"]["goods"].values()) == removed
    assert sum(s.data["supply"]["goods"].values()) == 90 - on_map - removed


def test_abc_hourglass_has_one_of_each_event_per_phase():
    """RULES §9.2: A/B/C stacks each hold the six events; light Pilgrimage first."""
    s = fresh()
    order = [s.data["event"]] + s.data["hourglass"]
    assert order[0] == "pilgrimage"
    for start in (0, 6, 12):
        assert sorted(order[start:start + 6]) == sorted(engine.content.EVENTS)


def test_apply_never_mutates_its_input():
    s = fresh()
    before = json.dumps(s.data, sort_keys=True)
    s2, events = engine.apply(s, 0, {"type": "place", "follower": "start_boatman", "space": "farmhouse"})
    assert json.dumps(s.data, sort_keys=True) == before
    assert s2 != s and events == []


@pytest.mark.parametrize(
    "seat,action,error",
    [
        (0, "draw", engine.MalformedAction),
        (0, {"type": "fly"}, engine.MalformedAction),
        (0, {"type": "place", "follower": "start_boatman"}, engine.MalformedAction),
        (0, {"type": "place", "follower": "start_boatman", "space": "farmhouse", "x": 1}, engine.MalformedAction),
        (0, {"type": "place", "follower": "knight", "space": "farmhouse"}, engine.IllegalAction),
        (0, {"type": "place", "follower": "start_trader", "space": "farmhouse"}, engine.IllegalAction),
        (0, {"type": "place", "follower": "start_trader", "space": "town_hall"}, engine.IllegalAction),
        (0, {"type": "pass"}, engine.IllegalAction),
        (5, {"type": "submit_plan"}, engine.NotYourTurn),
    ],
)
def test_bad_actions_raise_a_rules_error_and_change_nothing(seat, action, error):
    s = fresh()
    before = json.dumps(s.data, sort_keys=True)
    with pytest.raises(error) as info:
        engine.apply(s, seat, action)
    assert isinstance(info.value, engine.RulesError) and str(info.value)
    assert json.dumps(s.data, sort_keys=True) == before


def test_submitting_a_whole_plan_validates_every_placement():
    s = fresh()
    good = [{"follower": "start_boatman", "space": "farmhouse"}, {"follower": "start_craftsman", "space": "farmhouse"}]
    s2, _ = engine.apply(s, 0, {"type": "submit_plan", "placements": good})
    assert s2.data["players"][0]["plan"] == [["farmhouse", "start_boatman"], ["farmhouse", "start_craftsman"]]
    assert engine.awaiting(s2) == {1: "plan"}
    bad = good + [{"follower": "start_boatman", "space": "village"}]
    with pytest.raises(engine.IllegalAction, match="placement 3"):
        engine.apply(s, 0, {"type": "submit_plan", "placements": bad})


def test_last_plan_waits_for_resolve_then_reveals():
    """The last simultaneous submission leaves the reveal to resolve() (site task)."""
    s = fresh()
    plan = {"type": "submit_plan", "placements": [{"follower": "start_boatman", "space": "farmhouse"},
                                                  {"follower": "start_craftsman", "space": "farmhouse"}]}
    s, _ = engine.apply(s, 0, plan)
    s, _ = engine.apply(s, 1, plan)
    assert engine.needs_resolution(s) and engine.awaiting(s) == {}
    with pytest.raises(engine.NotYourTurn):
        engine.apply(s, 0, {"type": "pass"})
    s, events = engine.resolve(s)
    assert s.phase == "actions" and engine.awaiting(s) == {0: "action"}
    assert any(e["kind"] == "reveal" for e in events)
    with pytest.raises(engine.NothingToResolve):
        engine.resolve(s)


def test_other_seats_plans_and_markets_are_hidden_until_revealed():
    s = fresh()
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


def test_json_round_trip_is_exact_and_schema_checked():
    s = play_game(engine.GameOptions(players=3), 5, check=False)["state"]
    again = engine.from_json(json.loads(json.dumps(engine.to_json(s))))
    assert again == s
    with pytest.raises(engine.SchemaError):
        engine.from_json({"schema": 999})


def test_replay_of_the_log_reproduces_the_final_state():
    result = play_game(engine.GameOptions(players=2, event_strength="constant"), 3, check=False)
    assert engine.is_over(result["state"])
    replayed = engine.replay(engine.GameOptions(players=2, event_strength="constant"), 3, result["log"])
    assert replayed == result["state"]


def test_outcome_is_none_until_the_end_then_ranks_every_seat():
    s = fresh()
    assert engine.outcome(s) is None
    result = play_game(engine.GameOptions(players=4), 2, check=False)
    out = engine.outcome(result["state"])
    assert sorted(r["seat"] for r in out["ranking"]) == [0, 1, 2, 3]
    for b in out["scores"]:
        assert b["total"] == b["coins"] + b["goods_total"] + (b["stations"] + b["citizens"]) * b["level"]


def test_game_over_refuses_actions():
    state = play_game(engine.GameOptions(players=2), 9, check=False)["state"]
    with pytest.raises(engine.GameOver):
        engine.apply(state, 0, {"type": "pass"})


def test_every_legal_action_is_normal_form_and_describable():
    s = fresh(players=2)
    for seat in awaiting_data(s.data):
        for action in engine.legal_actions(s, seat):
            assert engine.normalize(clone(action)) == action
            assert engine.describe_action(action)


def test_invalid_options_are_refused():
    with pytest.raises(engine.InvalidOptions):
        engine.GameOptions(players=5)
    with pytest.raises(engine.InvalidOptions):
        engine.GameOptions.from_dict({"players": 2, "market": "x"})
    with pytest.raises(engine.InvalidOptions):
        engine.GameOptions(players=2, place_tile_market="market4")
