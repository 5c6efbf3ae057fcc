"""RULES §10.1 torture: options offered, development step restriction (§14.3), everything
given up removed from the game, debt forgiven when nothing is left (best choice)."""
import engine
import pytest

from tests.support.engine_states import act, build, player, run_event, torture_items

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
