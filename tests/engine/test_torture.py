"""RULES §10.1 torture: options offered, development step restriction (§14.3), everything
given up removed from the game, debt forgiven when nothing is left (best choice)."""
import engine
import pytest

from tests.support.engine_states import act, assert_refused, build, player, run_event, torture_items

NOTHING = {"coins": 0, "stations_left": 0, "bag": {}, "development": 0}


def tortured(debt_goods=3, stations=None, **fields):
    """Seat 0 owes ``debt_goods`` coins of phase-A Taxes (1 coin per good, all wool) and
    has built ``stations`` ({town: [seats]})."""
    fields.setdefault("coins", 0)
    goods = {"wool": debt_goods, **fields.pop("goods", {})}
    state, _ = run_event("taxes", {0: {**fields, "goods": goods}}, round=2, stations=stations or {})
    return state


def test_all_six_kinds_of_items_are_offered():
    """§10.1: a trading station (supply or built), a character, a development step, a good,
    a place tile, a technology tile."""
    # a torture prompt open in the event phase (a pending technology tile would be placed
    # at the pass, so this state is built directly)
    state = build("event", {0: {"coins": 0, "stations_left": 9, "bag": {"knight": 1, "start_farmer": 1},
                                "development": 5, "places": ["brewery"], "goods": {"wool": 3},
                                "technology": {"castle": "farmer"}, "technology_pending": 1,
                                "prompts": [{"kind": "torture", "debt": 3, "reason": "taxes"}]}},
                  stations={"blois": [0]}, round=2, event="taxes")
    assert engine.awaiting(state) == {0: "torture"}
    assert torture_items(state) == [
        {"item": "station", "town": None},
        {"item": "station", "town": "blois"},
        {"item": "follower"},
        {"item": "development"},
        {"item": "good", "good": "wool"},
        {"item": "place_tile", "place": "brewery"},
        {"item": "technology", "place": None},
        {"item": "technology", "place": "castle"},
    ]
    assert player(state)["prompts"][0]["debt"] == 3


def test_only_starting_followers_in_bag_cannot_be_given():
    """§10.1: a starting character drawn is put back and another drawn: with only starting
    characters in the bag no character can be given."""
    state = tortured(stations_left=1, bag={"start_farmer": 1, "start_trader": 1})
    assert {"item": "follower"} not in torture_items(state)


@pytest.mark.parametrize("position, allowed", [(0, False), (1, True), (6, True), (7, False), (8, False),
                                               (9, True), (11, True), (12, False), (13, False), (14, True),
                                               (24, True), (25, False), (26, False), (27, True), (30, True)])
def test_development_step_restriction(position, allowed):
    """§14.3: no development step from a coin space or onto one: 7, 8, 12, 13, 25, 26."""
    state = tortured(development=position, development_coins=[c for c in (7, 12, 25) if c <= position])
    assert ({"item": "development"} in torture_items(state)) is allowed


def test_giving_items_removes_them_from_the_game():
    """§10.1: everything given up is removed from the game; one item per missing coin."""
    state = tortured(debt_goods=5, stations_left=3, bag={"knight": 2}, development=10, development_coins=[7],
                     places=["brewery"], stations={"blois": [0]}, citizens=1)
    removed = state.data["removed"]
    state = act(state, type="torture", item="station", town="blois")
    assert "blois" not in state.data["stations"] and player(state)["stations_left"] == 3
    state = act(state, type="torture", item="follower")
    assert player(state)["bag"] == {"knight": 1}
    state = act(state, type="torture", item="development")
    assert player(state)["development"] == 9 and player(state)["citizens"] == 1  # citizen kept
    state = act(state, type="torture", item="good", good="wool")
    assert player(state)["goods"]["wool"] == 4
    state = act(state, type="torture", item="place_tile", place="brewery")
    assert player(state)["places"] == [] and player(state)["prompts"] == []
    after = state.data["removed"]
    assert after["stations"] == removed["stations"] + 1
    assert after["followers"] == {"knight": 1}
    assert after["goods"]["wool"] == removed["goods"]["wool"] + 1
    assert after["places"] == ["brewery"]
    assert state.data["supply"]["followers"]["knight"] == engine.new_game(engine.GameOptions(), 1).data[
        "supply"]["followers"]["knight"]  # not returned to the supply


def test_development_step_back_does_not_pay_coins_again():
    """§14.3: coins of a coin space are collected once per player per game."""
    state = tortured(development=14, development_coins=[7, 12], stations_left=1, debt_goods=1)
    state = act(state, type="torture", item="development")
    assert player(state)["development"] == 13 and player(state)["development_coins"] == [7, 12]


def test_debt_forgiven_when_nothing_left():
    """§10.1 best choice: with nothing left to give, the remaining debt is forgiven."""
    state, events = run_event("harvest", {0: dict(NOTHING)}, round=2)
    assert player(state)["prompts"] == [] and player(state)["coins"] == 0
    assert any("forgiven" in e["text"] for e in events)


def test_debt_forgiven_after_last_item():
    """§10.1: items are given while there are any; the rest is forgiven."""
    state, _ = run_event("harvest", {0: {**NOTHING, "stations_left": 1}}, round=2)  # debt 5, one item
    assert player(state)["stations_left"] == 0 and player(state)["prompts"] == []


def test_place_tile_lost_empties_its_followers_to_bag():
    """§10.1: losing a place tile; its characters are not lost with it."""
    state = tortured(places=["cellar"], spaces={"cellar": ["monk"]}, stations_left=1, debt_goods=1)
    state = act(state, type="torture", item="place_tile", place="cellar")
    assert player(state)["bag"] == {"monk": 1} and "cellar" not in player(state)["spaces"]


def test_losing_gunpowder_tower_shrinks_market():
    """§10.1 / §14.5: without the tower the market holds 8 again."""
    state = tortured(places=["gunpowder_tower"], market=["farmer"] * 10, stations_left=1, debt_goods=1)
    state = act(state, type="torture", item="place_tile", place="gunpowder_tower")
    assert len(player(state)["market"]) == 8 and player(state)["bag"] == {"farmer": 2}


# --- the whole payment in one decision (pay_debt) ---------------------------------------------

WOOL, GRAIN = {"item": "good", "good": "wool"}, {"item": "good", "good": "grain"}
SUPPLY_STATION = {"item": "station", "town": None}


def seven_short():
    """Seat 0 owes 7 coins of phase-A Taxes (7 goods, no coins) and can pay with stations,
    knights, development steps, wool and grain."""
    return tortured(debt_goods=4, goods={"grain": 3}, stations_left=3, bag={"knight": 2, "start_farmer": 1},
                    development=5)


def test_a_seven_coin_debt_is_paid_in_one_decision():
    """§10.1: one item per missing coin, any mix, all given in one ``pay_debt``."""
    state = seven_short()
    assert player(state)["prompts"] == [{"kind": "torture", "debt": 7, "reason": "taxes"}]
    removed = state.data["removed"]
    state, events = engine.apply(state, 0, {"type": "pay_debt", "items": [
        WOOL, WOOL, GRAIN, SUPPLY_STATION, SUPPLY_STATION, {"item": "follower"}, {"item": "development"}]})
    p = player(state)
    assert p["goods"]["wool"] == 2 and p["goods"]["grain"] == 2
    assert p["stations_left"] == 1 and p["bag"] == {"knight": 1, "start_farmer": 1} and p["development"] == 4
    assert p["prompts"] == [] and p["coins"] == 0
    after = state.data["removed"]
    assert after["goods"]["wool"] == removed["goods"]["wool"] + 2
    assert after["goods"]["grain"] == removed["goods"]["grain"] + 1
    assert after["stations"] == removed["stations"] + 2 and after["followers"] == {"knight": 1}
    assert [e["text"] for e in events if e["kind"] == "torture"] == [
        "{player} gives up 1 wool", "{player} gives up 1 wool", "{player} gives up 1 grain",
        "{player} gives up a trading station from their supply",
        "{player} gives up a trading station from their supply",
        "{player} gives up a Knight drawn from their bag", "{player} gives up one development step"]


def test_the_view_lists_what_may_pay_the_debt_with_how_many_of_each():
    """§10.1, §14.3: the seat's own prompt says the debt and each payable item's most (a
    development step from 5 can be given 5 times; starting followers never count)."""
    prompt = engine.view(seven_short(), 0)["players"][0]["prompt"]
    assert prompt["debt"] == 7
    assert prompt["payable"] == [
        {"item": "station", "town": None, "most": 3}, {"item": "follower", "most": 2},
        {"item": "development", "most": 5}, {"item": "good", "good": "grain", "most": 3},
        {"item": "good", "good": "wool", "most": 4}]
    assert "payable" not in (engine.view(seven_short(), 1)["players"][0]["prompt"] or {})


def test_development_steps_in_one_payment_stop_before_a_coin_space():
    """§14.3: from 10 the marker may go back to 9 and 8, never onto 7: most is 2, a third step is refused."""
    state = tortured(debt_goods=3, development=10, development_coins=[7], stations_left=1)
    assert {"item": "development", "most": 2} in engine.view(state, 0)["players"][0]["prompt"]["payable"]
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "pay_debt", "items": [{"item": "development"}] * 3})
    assert caught.value.code == "payment_item"
    assert caught.value.params == {"index": 3, "why": "torture_development", "why_params": {}}


def test_a_technology_tile_then_its_place_tile_is_two_items_but_not_the_other_way():
    """§10.1: losing a place tile loses the technology tile on it, so that tile cannot be given after."""
    state = tortured(debt_goods=2, places=["brewery"], technology={"brewery": "farmer"}, stations_left=1)
    tile, technology = {"item": "place_tile", "place": "brewery"}, {"item": "technology", "place": "brewery"}
    paid, _ = engine.apply(state, 0, {"type": "pay_debt", "items": [technology, tile]})
    assert player(paid)["places"] == [] and player(paid)["technology"] == {} and player(paid)["prompts"] == []
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "pay_debt", "items": [tile, technology]})
    assert (caught.value.code, caught.value.params["index"]) == ("payment_item", 2)


def test_the_engine_gives_the_last_possible_item_as_it_does_after_a_single_item():
    """Flow §8: with one item left to give it is given by the engine (3 wool owed, one station
    given: the 2 wool left go by themselves)."""
    state = tortured(debt_goods=3, stations_left=1)
    paid, events = engine.apply(state, 0, {"type": "pay_debt", "items": [SUPPLY_STATION]})
    assert player(paid)["goods"]["wool"] == 1 and player(paid)["stations_left"] == 0
    assert player(paid)["prompts"] == []
    assert sum(1 for e in events if e.get("forced") and e["kind"] == "torture") == 2
    listed, _ = engine.apply(state, 0, {"type": "pay_debt", "items": [SUPPLY_STATION, WOOL, WOOL]})
    assert listed.data == paid.data


def test_a_payment_that_leaves_nothing_to_give_has_the_rest_forgiven():
    """§10.1 UNCERTAIN best choice: Harvest with no food and no coins (5 owed), a station and
    a knight given: the other 3 coins are forgiven."""
    state, _ = run_event("harvest", {0: {**NOTHING, "stations_left": 1, "bag": {"knight": 1}}}, round=2)
    assert player(state)["prompts"] == [{"kind": "torture", "debt": 5, "reason": "harvest"}]
    paid, events = engine.apply(state, 0, {"type": "pay_debt", "items": [SUPPLY_STATION, {"item": "follower"}]})
    assert player(paid)["stations_left"] == 0 and player(paid)["bag"] == {} and player(paid)["prompts"] == []
    assert any("3 coin(s) of debt forgiven" in e["text"] for e in events)


def test_census_torture_in_planning_is_paid_in_one_decision():
    """§8.2 / §10.1: the census penalty owed while planning, paid whole; then the seat draws."""
    state = build("planning", {0: {"coins": 0, "goods": {"wool": 1, "grain": 1}, "bag": {"knight": 1},
                                   "prompts": [{"kind": "torture", "debt": 2, "reason": "census"}]}},
                  stage="draw")
    paid, _ = engine.apply(state, 0, {"type": "pay_debt", "items": [GRAIN, WOOL]})
    assert player(paid)["goods"]["wool"] == 0 and player(paid)["goods"]["grain"] == 0
    assert engine.awaiting(paid).get(0) == "draw"


def test_a_whole_payment_is_refused_without_changing_anything():
    """Atomic: a bad item anywhere leaves the state as it was, the items before it included."""
    assert_refused(seven_short(), 0, {"type": "pay_debt", "items": [WOOL] * 5 + [GRAIN] * 2 + [{"item": "good",
                                                                                                   "good": "wine"}]})
    assert_refused(seven_short(), 0, {"type": "pay_debt", "items": [WOOL] * 4})
    assert_refused(seven_short(), 0, {"type": "pay_debt", "items": [WOOL] * 4 + [GRAIN] * 3 + [SUPPLY_STATION]})


def test_the_single_item_torture_action_still_works_alongside():
    """Stored move logs use ``torture``: one item, the debt lowered by one."""
    state = act(seven_short(), type="torture", item="good", good="wool")
    assert player(state)["prompts"][0]["debt"] == 6
    state = act(state, type="pay_debt", items=[WOOL] * 3 + [GRAIN] * 3)
    assert player(state)["prompts"] == [] and player(state)["goods"]["wool"] == 0


def test_a_whole_payment_is_described_with_equal_items_counted():
    assert engine.describe_action({"type": "pay_debt", "items": [WOOL, SUPPLY_STATION, WOOL, {"item": "development"}]}) \
        == "Give up 2 wool, a trading station from my supply, one development step"
