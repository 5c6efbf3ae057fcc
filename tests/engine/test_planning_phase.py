"""RULES §8.4 Planning, §8.5 Monks, §7.2/§14.8 Town Hall, §11 Herb Garden and School
(hidden plans: tests/engine/test_view_hides_secrets.py)."""
import engine

from tests.support.engine_states import act, assert_refused, placements, planning_state, player


def test_monk_is_wild_on_board_spaces():
    """§8.5: a monk fills any non-monk circle of the player board."""
    legal = placements(planning_state({0: {"market": ["monk"]}}))
    for space in ("farmhouse", "village", "university", "castle", "monastery", "scriptorium", "town_hall",
                  "ship", "wagon", "guildhall"):
        assert ("monk", space) in legal


def test_monk_circle_takes_only_a_monk():
    """§8.5: a circle that demands a monk takes only a monk (Brewery, Cellar)."""
    state = planning_state({0: {"market": ["farmer", "monk", "scholar", "start_trader"],
                                "places": ["brewery", "cellar"]}})
    legal = placements(state)
    assert ("monk", "brewery") in legal
    assert {t for t, sp in legal if sp == "brewery"} == {"monk"}
    assert {t for t, sp in legal if sp == "cellar"} == {"monk", "scholar"}
    # a scholar on the Cellar's scholar circle leaves only the monk circle
    state = act(state, type="place", follower="scholar", space="cellar")
    assert {t for t, sp in placements(state) if sp == "cellar"} == {"monk"}


def test_one_tile_per_circle_and_type_must_match():
    """§8.4: one tile per circle, of the circle's type."""
    state = planning_state({0: {"market": ["farmer", "farmer"], "spaces": {"village": ["farmer"]}}})
    assert ("farmer", "village") not in placements(state)
    assert_refused(state, 0, {"type": "place", "follower": "farmer", "space": "village"})
    assert ("farmer", "farmhouse") not in placements(state)  # Farmhouse = Boatman + Craftsman


def test_town_hall_refuses_starting_followers():
    """§7.2 / §14.8: starting characters may never be put on the Town Hall."""
    state = planning_state({0: {"market": ["start_farmer", "start_trader", "knight", "monk"]}})
    on_hall = {t for t, sp in placements(state) if sp == "town_hall"}
    assert on_hall == {"knight", "monk"}
    assert_refused(state, 0, {"type": "place", "follower": "start_farmer", "space": "town_hall"})
    assert_refused(state, 0, {"type": "submit_plan", "placements": [{"follower": "start_trader",
                                                                      "space": "town_hall"}]})


def test_herb_garden_boatmen_fill_farmer_craftsman_trader_circles():
    """§11 Herb Garden: Boatmen may fill Farmer, Craftsman and Trader circles, not Knight,
    Scholar or Monk circles."""
    base = {"market": ["boatman", "boatman", "boatman"], "places": ["herb_garden", "cellar"]}
    legal = placements(planning_state({0: base}))
    for space in ("university", "monastery", "castle", "farmhouse", "wagon"):
        assert ("boatman", space) in legal
    assert ("boatman", "scriptorium") not in legal     # Knight + Scholar
    assert ("boatman", "cellar") not in legal          # Monk + Scholar
    without = placements(planning_state({0: {**base, "places": ["cellar"]}}))
    assert ("boatman", "university") not in without
    state = act(act(act(planning_state({0: base}), type="place", follower="boatman", space="village"),
                    type="place", follower="boatman", space="village"), type="place", follower="boatman",
                space="village")
    assert sorted(t for sp, t in player(state)["plan"]) == ["boatman"] * 3


def test_school_scholars_fill_any_non_monk_circle():
    """§11 School: Scholars fill Farmer, Boatman, Craftsman, Trader and Knight circles, not
    monk circles."""
    legal = placements(planning_state({0: {"market": ["scholar"], "places": ["school", "brewery"]}}))
    for space in ("farmhouse", "village", "castle", "ship", "wagon", "guildhall"):
        assert ("scholar", space) in legal
    assert ("scholar", "brewery") not in legal
    assert ("scholar", "ship") not in placements(planning_state({0: {"market": ["scholar"]}}))


def test_unplaced_tiles_stay_in_market_and_placed_tiles_stay_on_space():
    """§8.4: tiles not placed stay in the market; placed tiles stay until the action."""
    state = planning_state({0: {"market": ["knight", "monk"], "spaces": {"scriptorium": ["scholar"]}}})
    state = engine.apply(state, 0, {"type": "submit_plan", "placements": [{"follower": "knight",
                                                                           "space": "scriptorium"}]})[0]
    state = engine.resolve(state)[0]  # seat 1's empty plan was submitted by the engine
    assert player(state)["market"] == ["monk"]
    assert player(state)["spaces"] == {"scriptorium": ["knight", "scholar"]}


def test_unplace_only_this_rounds_placements():
    """§8.4: a tile committed in an earlier round cannot be moved in planning."""
    state = planning_state({0: {"market": ["knight"], "spaces": {"scriptorium": ["scholar"]}}})
    assert_refused(state, 0, {"type": "unplace", "follower": "scholar", "space": "scriptorium"})
    state = act(state, type="place", follower="knight", space="scriptorium")
    state = act(state, type="unplace", follower="knight", space="scriptorium")
    assert player(state)["market"] == ["knight"] and player(state)["plan"] == []


def test_illegal_placements():
    """§8.4: placing a follower not in the market or on a wrong circle is refused."""
    state = planning_state({0: {"market": ["knight"]}})
    assert_refused(state, 0, {"type": "place", "follower": "monk", "space": "castle"})
    assert_refused(state, 0, {"type": "place", "follower": "knight", "space": "castle"})
    assert_refused(state, 0, {"type": "place", "follower": "knight", "space": "cellar"})
    assert_refused(state, 0, {"type": "place", "follower": "dragon", "space": "castle"})
    assert_refused(state, 0, {"type": "submit_plan", "placements": [{"follower": "knight", "space": "ship"},
                                                                    {"follower": "knight", "space": "ship"}]})
