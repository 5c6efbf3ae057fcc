"""The view answers readiness and circles for the board (issue 7 item 3; RULES §8.4–§8.7,
§11, §14.8): every seat's ready places from committed spaces, the viewer's own readiness
with its plan, which circle each follower stands on, and no plan leaking to another seat."""
from __future__ import annotations

import pytest

import engine
from tests.support.engine_states import action_state, planning_state

CASTLE = ["start_farmer", "start_boatman", "start_trader"]


def player_view(state, viewer, seat):
    return engine.view(state, viewer)["players"][seat]


def test_every_seat_sees_every_seats_ready_places_from_committed_spaces():
    state = action_state({"spaces": {"castle": CASTLE}}, others={"spaces": {"scriptorium": ["knight", "scholar"]}})
    for viewer in (0, 1, None):
        assert player_view(state, viewer, 0)["usable_places"] == ["castle"]
        assert player_view(state, viewer, 1)["usable_places"] == ["scriptorium"]


def test_one_knight_on_the_town_hall_makes_it_ready():
    state = action_state({"spaces": {"town_hall": ["knight"]}})
    assert player_view(state, 1, 0)["usable_places"] == ["town_hall"]
    assert player_view(state, 0, 0)["ready_places"] == ["town_hall"]
    assert any(a.get("space") == "town_hall" for a in engine.legal_actions(state, 0))


def test_the_gunpowder_tower_is_ready_until_used_this_round():
    state = action_state({"places": ["gunpowder_tower"], "market": ["knight"]})
    assert player_view(state, 1, 0)["usable_places"] == ["gunpowder_tower"]
    used = engine.apply(state, 0, {"type": "activate", "space": "gunpowder_tower",
                                   "deeds": [{"follower": "knight", "deed": "city_wall"}]})[0]
    assert "gunpowder_tower" not in player_view(used, 1, 0)["usable_places"]
    assert "gunpowder_tower" not in player_view(used, 0, 0)["ready_places"]


def test_a_place_with_a_free_circle_is_not_ready():
    state = action_state({"spaces": {"castle": CASTLE[:2]}})
    assert player_view(state, 0, 0)["usable_places"] == []


def test_ready_places_are_the_viewers_own_and_include_its_plan():
    state = planning_state({0: {"market": CASTLE}})
    for tile in CASTLE:
        state = engine.apply(state, 0, {"type": "place", "follower": tile, "space": "castle"})[0]
    mine = player_view(state, 0, 0)
    assert mine["ready_places"] == ["castle"] and mine["usable_places"] == []
    assert player_view(state, 1, 0)["ready_places"] is None


def test_circles_show_which_circle_each_committed_follower_stands_on():
    state = action_state({"spaces": {"castle": ["monk", "start_farmer"], "farmhouse": ["boatman"]},
                          "technology": {"farmhouse": "craftsman"}})
    circles = player_view(state, 1, 0)["circles"]
    # Castle circles are farmer, boatman, trader: the farmer takes its own, the monk the first free one
    assert circles["castle"] == ["start_farmer", "monk", None]
    assert circles["farmhouse"] == ["boatman", "technology"]
    assert "village" not in circles  # an empty place is not listed: every circle is free


def test_the_viewers_plan_circles_mark_the_planned_followers():
    state = planning_state({0: {"market": ["start_trader"], "spaces": {"castle": ["start_farmer", "start_boatman"]}}})
    state = engine.apply(state, 0, {"type": "place", "follower": "start_trader", "space": "castle"})[0]
    own = player_view(state, 0, 0)["plan_circles"]["castle"]
    assert own == [{"tile": "start_farmer", "planned": False, "technology": False},
                   {"tile": "start_boatman", "planned": False, "technology": False},
                   {"tile": "start_trader", "planned": True, "technology": False}]


def test_a_plan_does_not_leak_through_another_seats_view():
    before = planning_state({0: {"market": CASTLE}})
    after = before
    for tile in CASTLE:
        after = engine.apply(after, 0, {"type": "place", "follower": tile, "space": "castle"})[0]
    for viewer in (1, None):
        seen_before = player_view(before, viewer, 0)
        seen_after = player_view(after, viewer, 0)
        for key in ("usable_places", "circles", "plan_circles", "ready_places", "plan", "market"):
            assert seen_before[key] == seen_after[key], key
        assert seen_after["plan_circles"] is None and seen_after["circles"] == {}


def test_after_the_reveal_the_plan_is_on_the_board_for_everyone():
    state = planning_state({0: {"market": CASTLE}})
    state = engine.apply(state, 0, {"type": "submit_plan", "placements": [
        {"follower": t, "space": "castle"} for t in CASTLE]})[0]
    if not engine.needs_resolution(state):  # seat 1 (empty market) may already be done
        state = engine.apply(state, 1, {"type": "submit_plan"})[0]
    state = engine.resolve(state)[0]
    assert player_view(state, 1, 0)["usable_places"] == ["castle"]
    assert player_view(state, 1, 0)["circles"]["castle"] == ["start_farmer", "start_boatman", "start_trader"]


def test_the_gunpowder_towers_readiness_does_not_show_the_hidden_market():
    """RULES §11, §14.8: the tower is ready until used, whatever the market holds, so another
    seat's view cannot tell from it what was drawn (the market is hidden while planning)."""
    seen = [player_view(planning_state({0: {"places": ["gunpowder_tower"], "market": market}}), 1, 0)
            for market in ([], ["start_farmer"], ["knight", "monk"])]
    assert all(v["usable_places"] == ["gunpowder_tower"] and v["market"] is None for v in seen)


def test_the_gunpowder_tower_is_one_action_a_round_even_with_more_followers_in_the_market():
    """RULES §11: the tiles on the tower go to the deeds as one action; the tower's two spaces
    are not refilled before the next followers phase."""
    state = action_state({"places": ["gunpowder_tower"], "market": ["knight", "knight", "knight"],
                          "spaces": {"scriptorium": ["knight", "scholar"]}})  # keeps seat 0 from a forced pass
    used = engine.apply(state, 0, {"type": "activate", "space": "gunpowder_tower",
                                   "deeds": [{"follower": "knight", "deed": "city_wall"}]})[0]
    assert used.data["turn"] == 1
    used = engine.apply(used, 1, {"type": "pass"})[0]
    assert not any(a.get("space") == "gunpowder_tower" for a in engine.legal_actions(used, 0))
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(used, 0, {"type": "activate", "space": "gunpowder_tower",
                               "deeds": [{"follower": "knight", "deed": "city_wall"}]})
    assert caught.value.code == "already_used"
