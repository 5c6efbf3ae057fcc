"""RULES §11 the 20 base place tiles (required characters from components.json, effects
from §11), §14.4 development-only tiles on 30, §14.8 Gunpowder Tower (once a round, exact types),
the Bathhouse (§11), §6.1 supply limits."""
import engine
import pytest

from engine import content
from tests.support.engine_states import (act, action_state, activate, activations, assert_refused, can_activate,
                                         edited, placements, planning_state, player)

REQUIRED = {
    "hay_rick": ["farmer"], "cheese_factory": ["farmer", "farmer"], "winery": ["farmer", "trader"],
    "wool_manufacturer": ["boatman", "trader"], "tailor_shop": ["scholar", "trader"], "brewery": ["monk"],
    "sacristy": ["monk"], "windmill": ["craftsman", "craftsman"], "library": ["knight", "scholar"],
    "hospital": ["boatman", "scholar"], "cellar": ["monk", "scholar"], "office": ["scholar", "scholar"],
    "horse_wagon": ["knight", "trader"], "shipping_line": ["boatman"], "laboratory": ["craftsman", "scholar"],
}
STACK_I = {"hay_rick", "cheese_factory", "winery", "wool_manufacturer", "tailor_shop", "brewery", "herb_garden",
           "sacristy", "bathhouse", "windmill", "library", "hospital"}


def with_tile(tile, tiles=None, **fields):
    """Seat 0 owns ``tile`` with its circles filled (``tiles`` or the required ones)."""
    return action_state({"places": [tile], "spaces": {tile: sorted(tiles or REQUIRED[tile])}, **fields})


def test_twenty_tiles_twelve_in_stack_one():
    """§11: 20 base tiles, stack I 12, stack II 8; circles as in components.json."""
    assert len(content.PLACE_TILES) == 20
    assert {t for t, p in content.PLACE_TILES.items() if p.stack == "I"} == STACK_I
    for tile, need in REQUIRED.items():
        assert sorted(content.PLACE_TILES[tile].circles) == need
    for tile in ("herb_garden", "school", "gunpowder_tower"):
        assert content.PLACE_TILES[tile].circles == ()


@pytest.mark.parametrize("tile, good", [("hay_rick", "grain"), ("cheese_factory", "cheese"), ("winery", "wine"),
                                        ("wool_manufacturer", "wool"), ("tailor_shop", "brocade")])
def test_goods_tiles(tile, good):
    """§11: take 1 good of the tile's kind from the goods market; the characters go back to
    the bag."""
    state = with_tile(tile)
    after = activate(state, tile)
    assert player(after)["goods"][good] == 1
    assert after.data["supply"]["goods"][good] == state.data["supply"]["goods"][good] - 1
    assert player(after)["spaces"] == {}
    assert sum(player(after)["bag"].values()) == len(REQUIRED[tile])


@pytest.mark.parametrize("tile, good", [("hay_rick", "grain"), ("tailor_shop", "brocade")])
def test_goods_tiles_blocked_when_good_is_out(tile, good):
    """§6.1 / §11: a tile that would hand out an unavailable good cannot be used."""
    state = edited(with_tile(tile), lambda d: d["supply"]["goods"].update({good: 0}))
    assert not can_activate(state, tile)


@pytest.mark.parametrize("tile, coins", [("brewery", 2), ("cellar", 4)])
def test_coin_tiles(tile, coins):
    """§11 Brewery 2 coins, Cellar 4 coins."""
    assert player(activate(with_tile(tile), tile))["coins"] == 5 + coins


def test_office_coin_per_built_station():
    """§11 Office: 1 coin per trading station built (not in the supply, §14.6)."""
    state = edited(with_tile("office", stations_left=7),
                   lambda d: d["stations"].update(orleans=[0], blois=[0], tours=[0], nevers=[1]))
    assert player(activate(state, "office"))["coins"] == 8


@pytest.mark.parametrize("development, coins", [(0, 1), (4, 2), (14, 3), (15, 4), (29, 5), (30, 6)])
def test_hospital_coins_equal_level(development, coins):
    """§11 Hospital: coins equal to the current development level."""
    state = with_tile("hospital", development=development, development_coins=[7, 12, 25])
    assert player(activate(state, "hospital"))["coins"] == 5 + coins


def test_windmill_two_coins_and_one_step_also_on_thirty():
    """§11 Windmill: 2 coins and 1 development step; §14.4: allowed on 30 (another effect)."""
    after = activate(with_tile("windmill", development=3), "windmill")
    assert (player(after)["coins"], player(after)["development"]) == (7, 4)
    after = activate(with_tile("windmill", development=30, development_coins=[7, 12, 25]), "windmill")
    assert (player(after)["coins"], player(after)["development"]) == (7, 30)


@pytest.mark.parametrize("tile, steps", [("library", 2), ("shipping_line", 1)])
def test_development_only_tiles(tile, steps):
    """§11 Library 2 steps, Shipping Line 1 step; §14.4: not allowed on 30."""
    assert player(activate(with_tile(tile, development=3), tile))["development"] == 3 + steps
    assert not can_activate(with_tile(tile, development=30), tile)


def test_library_near_the_end_steps_lost():
    """§7.1: movement beyond 30 is lost."""
    assert player(activate(with_tile("library", development=29, development_coins=[7, 12, 25]),
                           "library"))["development"] == 30


def test_pharmacy_pay_one_to_three_coins_for_steps():
    """§11 Pharmacy: pay 1–3 coins, one development step per coin (at least 1)."""
    state = with_tile("pharmacy", ["start_trader"], development=1)
    assert activations(state, "pharmacy") == [{"coins": 1}, {"coins": 2}, {"coins": 3}]
    after = activate(state, "pharmacy", coins=3)
    assert (player(after)["coins"], player(after)["development"]) == (2, 4)
    assert_refused(state, 0, {"type": "activate", "space": "pharmacy", "coins": 0})
    assert_refused(state, 0, {"type": "activate", "space": "pharmacy", "coins": 4})


def test_pharmacy_limited_by_coins_and_room():
    """§10.1: voluntary costs need the coins; §14.4: at most the spaces left to 30; none on 30."""
    assert activations(with_tile("pharmacy", ["monk"], coins=2), "pharmacy") == [{"coins": 1}, {"coins": 2}]
    assert activations(with_tile("pharmacy", ["monk"], development=28), "pharmacy") == [{"coins": 1}, {"coins": 2}]
    assert not can_activate(with_tile("pharmacy", ["monk"], development=30), "pharmacy")
    assert not can_activate(with_tile("pharmacy", ["monk"], coins=0), "pharmacy")


def test_horse_wagon_moves_along_a_road():
    """§11 Horse Wagon: along one road to the adjacent town, 1 good from that road."""
    state = edited(with_tile("horse_wagon"), lambda d: d["routes"].update(e11=["wool"]))
    assert {o["route"] for o in activations(state, "horse_wagon")} == {"e08", "e11", "e16", "e18"}
    after = activate(state, "horse_wagon", route="e11", good="wool")
    assert player(after)["merchant"] == "chartres" and player(after)["goods"]["wool"] == 1
    assert after.data["routes"]["e11"] == []


def test_sacristy_is_not_a_phase_five_action():
    """§11 Sacristy: works in the event phase, not as an action."""
    assert not can_activate(with_tile("sacristy"), "sacristy")


def test_bathhouse_draw_three_keep_two():
    """§11 Bathhouse: draw 3 from the bag, keep 2 placed at once on empty matching circles
    (not on the Bathhouse); the third and the Bathhouse's character go back to the bag."""
    state = with_tile("bathhouse", ["start_boatman"], bag={"knight": 3})
    state = activate(state, "bathhouse")
    assert engine.awaiting(state) == {0: "bathhouse"}
    assert player(state)["bag"] == {"start_boatman": 1}
    options = {(a["follower"], a["space"]) for a in engine.legal_actions(state, 0) if a["type"] == "bathhouse_place"}
    assert ("knight", "scriptorium") in options and ("knight", "castle") not in options
    assert not [o for o in options if o[1] == "bathhouse"]
    state = act(state, type="bathhouse_place", follower="knight", space="scriptorium")
    state = act(state, type="bathhouse_place", follower="knight", space="ship")
    p = player(state)
    assert p["spaces"] == {"scriptorium": ["knight"], "ship": ["knight"]}
    assert p["bag"] == {"knight": 1, "start_boatman": 1}
    assert p["prompts"] == []


def test_bathhouse_keep_fewer():
    """§11 Bathhouse: the player may stop; tiles not kept go back into the bag."""
    state = activate(with_tile("bathhouse", ["monk"], bag={"farmer": 2}), "bathhouse")
    state = act(state, type="bathhouse_done")
    assert player(state)["bag"] == {"farmer": 2, "monk": 1} and player(state)["prompts"] == []


def test_gunpowder_tower_sends_market_tiles_to_deeds():
    """§11 / §14.8: as one action, up to 2 tiles from the tower go to deeds of their exact
    type; never starting characters."""
    state = action_state({"places": ["gunpowder_tower"], "market": ["knight", "monk", "start_trader"]})
    options = activations(state, "gunpowder_tower")
    sent = {i["follower"] for o in options for i in o["deeds"]}
    assert sent == {"knight", "monk"}
    after = activate(state, "gunpowder_tower", deeds=[{"follower": "knight", "deed": "papal_conclave"},
                                                      {"follower": "monk", "deed": "papal_conclave"}])
    assert player(after)["market"] == ["start_trader"] and player(after)["coins"] == 11
    assert sorted(after.data["deeds"]["papal_conclave"]) == [["knight", 0], ["monk", 0]]


def test_gunpowder_tower_needs_a_sendable_tile():
    """§14.8: not allowed if no tile can be sent."""
    assert not can_activate(action_state({"places": ["gunpowder_tower"], "market": ["start_farmer"]}),
                            "gunpowder_tower")


def test_gunpowder_tower_planning_from_a_full_market():
    """§11 / §14.5: tiles on the tower can go onto action circles like any market tile."""
    state = planning_state({0: {"places": ["gunpowder_tower"], "market": ["knight"] * 9 + ["scholar"]}})
    assert ("scholar", "scriptorium") in placements(state)


def test_place_tile_goes_to_players_places():
    """§6.4: the tile is a new place of its owner, usable once its circles are filled."""
    state = action_state({"spaces": {"village": ["boatman", "craftsman", "farmer"]}})
    after = activate(state, "village", recruit="trader", place_tile="brewery")
    assert "brewery" in player(after)["places"]
    assert player(after, 1)["places"] == []


# --- §11 / §14.5 / §14.8 Gunpowder Tower ------------------------------------------------------


def test_gunpowder_tower_action_once_a_round_and_again_next_round():
    """§11/§14.8: the tower is one action per round; a new round allows it again."""
    state = action_state({"places": ["gunpowder_tower"], "market": ["knight", "knight", "knight"]}, round=2)
    state = activate(state, "gunpowder_tower", deeds=[{"follower": "knight", "deed": "city_wall"}])
    assert player(state)["market"] == ["knight", "knight"] and player(state)["coins"] == 6
    assert state.data["turn"] == 1
    state = act(state, 1, type="pass")
    # seat 0 has tiles that could still go to a deed, but the tower was used: its pass is
    # forced, the round ends (Trading Day pays nothing without stations)
    assert state.round == 3 and player(state)["market"] == ["knight", "knight"]
    # round 3: nobody draws or plans anything; the reveal opens the action phase (start player 1)
    state = act(state, 1, type="draw", count=0)
    state = act(state, 0, type="submit_plan")
    state, _ = engine.resolve(state)
    assert state.phase == "actions" and state.data["turn"] == 1
    state = act(state, 1, type="pass")
    assert state.data["turn"] == 0
    assert can_activate(state, "gunpowder_tower")


def test_gunpowder_tower_canalisation_choice_and_exact_type():
    """§7.2 Canalisation coin-or-step; §11 Herb Garden not on deeds: a Boatman sent by the
    tower may only take Boatman spaces, even with the Herb Garden."""
    state = action_state({"places": ["gunpowder_tower", "herb_garden"], "market": ["boatman"]})
    options = activations(state, "gunpowder_tower")
    assert {(i["deed"], i["reward"]) for o in options for i in o["deeds"]} == {
        ("canalisation", "coins"), ("canalisation", "development"), ("boatmen_guild", "coins"),
        ("defeating_plague", "coins")}
    after = activate(state, "gunpowder_tower",
                     deeds=[{"follower": "boatman", "deed": "canalisation", "reward": "development"}])
    assert (player(after)["coins"], player(after)["development"]) == (5, 1)
    assert after.data["deeds"]["canalisation"] == [["boatman", 0]]


def test_school_scholar_only_on_scholar_deed_spaces_via_tower():
    """§11 School: not on Beneficial Deeds — a Scholar takes only Scholar spaces."""
    state = action_state({"places": ["gunpowder_tower", "school"], "market": ["scholar"]})
    deeds = {i["deed"] for o in activations(state, "gunpowder_tower") for i in o["deeds"]}
    assert deeds == {"defeating_plague", "astronomy", "boatmen_guild", "peace_treaty"}


def test_gunpowder_tower_starting_followers_stay_even_with_free_spaces():
    """§14.8: starting characters never go to the deeds, from the tower either."""
    state = action_state({"places": ["gunpowder_tower"], "market": ["start_farmer", "start_trader", "farmer"]})
    sent = [[i["follower"] for i in o["deeds"]] for o in activations(state, "gunpowder_tower")]
    assert sent and all(s == ["farmer"] for s in sent)


# --- §11 Bathhouse ---------------------------------------------------------------------------


def test_bathhouse_starting_follower_not_on_town_hall():
    """§11 Bathhouse / §14.8: a drawn starting character may go on a matching circle but
    never on the Town Hall; a neutral one may."""
    state = action_state({"places": ["bathhouse"], "spaces": {"bathhouse": ["monk"]},
                          "bag": {"start_farmer": 1, "knight": 1}})
    state = activate(state, "bathhouse")
    options = {(a["follower"], a["space"]) for a in engine.legal_actions(state, 0) if a["type"] == "bathhouse_place"}
    assert ("knight", "town_hall") in options and ("start_farmer", "town_hall") not in options
    assert ("start_farmer", "village") in options and ("knight", "scriptorium") in options
    assert not {s for _f, s in options} & {"bathhouse"}


def test_bathhouse_fewer_than_three_draws_what_is_there():
    """§11 Bathhouse best choice: a bag with fewer than 3 tiles: draw what is there; the
    prompt ends when nothing drawn is left; the Bathhouse's Monk is back in the bag."""
    state = action_state({"places": ["bathhouse"], "spaces": {"bathhouse": ["monk"]}, "bag": {"scholar": 1}})
    state = activate(state, "bathhouse")
    assert player(state)["prompts"] == [{"kind": "bathhouse", "drawn": ["scholar"], "kept": 0}]
    assert player(state)["bag"] == {"monk": 1}
    state = act(state, type="bathhouse_place", follower="scholar", space="monastery")
    p = player(state)
    assert p["prompts"] == [] and p["spaces"] == {"monastery": ["scholar"]} and p["bag"] == {"monk": 1}
    assert state.data["turn"] == 1


def test_bathhouse_with_empty_bag_is_still_an_action():
    """§11 Bathhouse: draw what is there (nothing); the Bathhouse's own character goes back
    to the bag."""
    state = action_state({"places": ["bathhouse"], "spaces": {"bathhouse": ["monk"]}})
    assert can_activate(state, "bathhouse")
    state = activate(state, "bathhouse")
    assert player(state)["bag"] == {"monk": 1} and player(state)["spaces"] == {}
