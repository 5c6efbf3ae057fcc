"""RULES §5 board actions, §6 character tracks, §4.3–§4.4 merchant and trading stations,
tiles back to the bag after an action and no Monastery in a Pilgrimage round (§8.7),
§6.1 supply exhaustion."""
import pytest

from tests.support.engine_states import (action_state, activate, activations, assert_refused, can_activate, edited,
                                         player)

FARMHOUSE = {"farmhouse": ["boatman", "craftsman"]}
VILLAGE = {"village": ["boatman", "craftsman", "farmer"]}
UNIVERSITY = {"university": ["craftsman", "farmer", "trader"]}
CASTLE = {"castle": ["boatman", "farmer", "trader"]}
MONASTERY = {"monastery": ["scholar", "trader"]}
SHIP = {"ship": ["boatman", "farmer", "knight"]}
WAGON = {"wagon": ["farmer", "knight", "trader"]}
GUILDHALL = {"guildhall": ["craftsman", "farmer", "knight"]}


def without_supply(kind):
    return lambda d: d["supply"]["followers"].update({kind: 0})


@pytest.mark.parametrize("track, good", [(0, "grain"), (1, "grain"), (2, "cheese"), (3, "cheese"), (4, "wine"),
                                         (5, "wine"), (6, "wool"), (7, "brocade")])
def test_farmhouse_farmer_track_good_by_step(track, good):
    """§5 Farmhouse / §6.1: Farmer into the bag, +1 Farmer track, the good of the new step."""
    state = action_state({"spaces": FARMHOUSE, "tracks": {"farmer": track}})
    supply = dict(state.data["supply"]["goods"])
    after = activate(state, "farmhouse")
    p = player(after)
    assert p["tracks"]["farmer"] == track + 1
    assert p["goods"][good] == 1 and sum(p["goods"].values()) == 1
    assert after.data["supply"]["goods"][good] == supply[good] - 1
    # §8.7: the used tiles go back into the bag with the recruited Farmer
    assert p["bag"] == {"boatman": 1, "craftsman": 1, "farmer": 1}
    assert p["spaces"] == {}
    assert after.data["supply"]["followers"]["farmer"] == state.data["supply"]["followers"]["farmer"] - 1


def test_farmhouse_blocked_at_track_end_or_without_supply():
    """§6: not at the last space; §6.1: not without a Farmer or the pictured good."""
    assert not can_activate(action_state({"spaces": FARMHOUSE, "tracks": {"farmer": 8}}), "farmhouse")
    state = action_state({"spaces": FARMHOUSE})
    assert not can_activate(edited(state, without_supply("farmer")), "farmhouse")
    assert not can_activate(edited(state, lambda d: d["supply"]["goods"].update(grain=0)), "farmhouse")
    assert can_activate(edited(state, lambda d: d["supply"]["goods"].update(cheese=0)), "farmhouse")
    assert_refused(edited(state, without_supply("farmer")), 0, {"type": "activate", "space": "farmhouse"})


def test_village_offers_three_recruits():
    """§5 Village: choose ONE of Boatman, Craftsman or Trader (+ a place tile from stack I
    for the first place tile, §6.4)."""
    state = action_state({"spaces": VILLAGE})
    options = activations(state, "village")
    assert {"recruit": "boatman"} in options and {"recruit": "craftsman"} in options
    traders = sorted(o["place_tile"] for o in options if o["recruit"] == "trader")
    assert traders == state.data["place_tiles"]["display"]["I"]
    assert len(options) == 2 + 12


@pytest.mark.parametrize("track, coins", [(0, 2), (1, 3), (2, 4), (3, 5)])
def test_village_boatman_coins(track, coins):
    """§6.2: Boatman track steps 1–4 give 2, 3, 4, 5 coins."""
    after = activate(action_state({"spaces": VILLAGE, "tracks": {"boatman": track}}), "village", recruit="boatman")
    assert player(after)["coins"] == 5 + coins
    assert player(after)["tracks"]["boatman"] == track + 1
    assert player(after)["bag"] == {"boatman": 2, "craftsman": 1, "farmer": 1}


def test_village_boatman_step5_first_citizen_then_six_coins():
    """§6.2 / §14.11: the first to reach Boatman step 5 takes the citizen and no coins;
    later players take 6 coins."""
    state = action_state({"spaces": VILLAGE, "tracks": {"boatman": 4}}, others={"spaces": VILLAGE,
                                                                                 "tracks": {"boatman": 4}})
    state = activate(state, "village", recruit="boatman")
    assert (player(state)["coins"], player(state)["citizens"]) == (5, 1)
    assert "boatman_track" not in state.data["citizens"]
    state = activate(state, "village", seat=1, recruit="boatman")
    assert (player(state, 1)["coins"], player(state, 1)["citizens"]) == (11, 0)


def test_village_boatman_blocked_at_step5():
    """§6: a track action cannot be chosen with the marker on the last space."""
    options = activations(action_state({"spaces": VILLAGE, "tracks": {"boatman": 5}}), "village")
    assert {"recruit": "boatman"} not in options


def test_village_craftsman_takes_technology_tile():
    """§6.3: each Craftsman step takes 1 technology tile (placed at the pass, §14.2)."""
    after = activate(action_state({"spaces": VILLAGE}), "village", recruit="craftsman")
    assert player(after)["technology_pending"] == 1
    assert player(after)["technology"] == {}
    assert after.data["supply"]["technology"] == 15
    assert player(after)["tracks"]["craftsman"] == 1


def test_village_craftsman_blocked_without_technology_tiles():
    """§6.3 / §6.1: the Craftsman option is not allowed while no technology tile is left."""
    state = edited(action_state({"spaces": VILLAGE}), lambda d: d["supply"].update(technology=0))
    assert {"recruit": "craftsman"} not in activations(state, "village")


def test_village_trader_first_place_tile_from_stack_one_then_any():
    """§6.4: the first place tile must come from stack I; later ones from I or II."""
    state = action_state({"spaces": VILLAGE})
    assert_refused(state, 0, {"type": "activate", "space": "village", "recruit": "trader", "place_tile": "school"})
    after = activate(state, "village", recruit="trader", place_tile="hay_rick")
    assert player(after)["places"] == ["hay_rick"] and player(after)["tracks"]["trader"] == 1
    assert "hay_rick" not in after.data["place_tiles"]["display"]["I"]
    later = action_state({"spaces": VILLAGE, "places": ["hay_rick"], "tracks": {"trader": 1}})
    assert {"recruit": "trader", "place_tile": "school"} in activations(later, "village")


def test_village_each_option_blocked_without_its_follower():
    """§6 supply limit: a recruit the supply no longer holds cannot be chosen."""
    state = edited(action_state({"spaces": VILLAGE}), without_supply("trader"))
    assert {o["recruit"] for o in activations(state, "village")} == {"boatman", "craftsman"}


@pytest.mark.parametrize("track, dev", [(0, 2), (1, 3), (2, 4), (3, 5), (4, 6)])
def test_university_development_by_scholar_step(track, dev):
    """§6.5: Scholar steps 1–5 give 2, 3, 4, 5, 6 development steps."""
    after = activate(action_state({"spaces": UNIVERSITY, "tracks": {"scholar": track}}), "university")
    assert player(after)["development"] == dev
    assert player(after)["tracks"]["scholar"] == track + 1
    assert player(after)["bag"]["scholar"] == 1


def test_university_allowed_at_development_end_extra_steps_lost():
    """§14.4: University stays allowed on 30; the steps are lost."""
    state = action_state({"spaces": UNIVERSITY, "development": 30, "development_coins": [7, 12, 25]})
    after = activate(state, "university")
    assert player(after)["development"] == 30 and player(after)["tracks"]["scholar"] == 1


def test_castle_knight_track_and_citizen_at_step_four():
    """§6.6: a Knight, +1 Knight track; the first to reach step 4 takes a citizen."""
    state = action_state({"spaces": CASTLE, "tracks": {"knight": 3}}, others={"spaces": CASTLE,
                                                                               "tracks": {"knight": 3}})
    state = activate(state, "castle")
    assert player(state)["tracks"]["knight"] == 4 and player(state)["citizens"] == 1
    state = activate(state, "castle", seat=1)
    assert player(state, 1)["tracks"]["knight"] == 4 and player(state, 1)["citizens"] == 0
    assert player(state)["bag"]["knight"] == 1


def test_castle_no_citizen_at_other_steps():
    """§6.6: only step 4 carries the citizen."""
    for track in (0, 1, 2, 4):
        after = activate(action_state({"spaces": CASTLE, "tracks": {"knight": track}}), "castle")
        assert player(after)["citizens"] == 0


def test_monastery_recruits_monk_but_not_in_pilgrimage():
    """§5 Monastery / §8.7: no Monastery action in a Pilgrimage round."""
    assert not can_activate(action_state({"spaces": MONASTERY}, event="pilgrimage"), "monastery")
    after = activate(action_state({"spaces": MONASTERY}, event="plague"), "monastery")
    assert player(after)["bag"] == {"monk": 1, "scholar": 1, "trader": 1}
    assert after.data["supply"]["followers"]["monk"] == 7


def test_scriptorium_development_and_blocked_at_thirty():
    """§5 Scriptorium +1; §7.1 / §14.4: not allowed on 30."""
    state = action_state({"spaces": {"scriptorium": ["knight", "scholar"]}, "development": 5})
    assert player(activate(state, "scriptorium"))["development"] == 6
    at_end = action_state({"spaces": {"scriptorium": ["knight", "scholar"]}, "development": 30})
    assert not can_activate(at_end, "scriptorium")
    assert_refused(at_end, 0, {"type": "activate", "space": "scriptorium"})


def test_ship_moves_along_waterways_only():
    """§5 Ship: along one waterway from the merchant's town (Orléans: Briare, Blois)."""
    state = edited(action_state({"spaces": SHIP}), lambda d: d["routes"].update(e06=["cheese", "wine"], e17=[]))
    options = activations(state, "ship")
    assert options == [{"route": "e06", "good": "cheese"}, {"route": "e06", "good": "wine"},
                       {"route": "e06", "good": None}, {"route": "e17", "good": None}]
    after = activate(state, "ship", route="e06", good="wine")
    assert player(after)["merchant"] == "briare"
    assert player(after)["goods"]["wine"] == 1 and sum(player(after)["goods"].values()) == 1
    assert after.data["routes"]["e06"] == ["cheese"]  # §4.3: one good per move


def test_wagon_moves_along_roads_only():
    """§5 Wagon: along one road (Orléans: Vierzon, Chartres, Châteaudun, Montargis)."""
    state = action_state({"spaces": WAGON})
    routes = {o["route"] for o in activations(state, "wagon")}
    assert routes == {"e08", "e11", "e16", "e18"}
    after = activate(state, "wagon", route="e18", good=None)
    assert player(after)["merchant"] == "montargis"
    assert_refused(state, 0, {"type": "activate", "space": "wagon", "route": "e06"})


def test_guildhall_one_station_per_town():
    """§4.4: a station where the merchant stands if that town has none yet."""
    state = action_state({"spaces": GUILDHALL, "merchant": "blois"})
    after = activate(state, "guildhall")
    assert after.data["stations"] == {"blois": [0]} and player(after)["stations_left"] == 9
    taken = edited(state, lambda d: d["stations"].update(blois=[1]))
    assert not can_activate(taken, "guildhall")


def test_guildhall_orleans_one_per_player():
    """§4.4: in Orléans every player may have one trading station."""
    state = edited(action_state({"spaces": GUILDHALL}), lambda d: d["stations"].update(orleans=[1]))
    after = activate(state, "guildhall")
    assert after.data["stations"] == {"orleans": [1, 0]}
    again = edited(state, lambda d: d["stations"].update(orleans=[0, 1]))
    assert not can_activate(again, "guildhall")


def test_guildhall_needs_a_station_left():
    """§4.4: with all 10 stations used no more can be built."""
    assert not can_activate(action_state({"spaces": GUILDHALL, "merchant": "blois", "stations_left": 0}),
                            "guildhall")


@pytest.mark.parametrize("space, tiles, kind", [("castle", CASTLE, "knight"), ("university", UNIVERSITY, "scholar"),
                                                ("monastery", MONASTERY, "monk"), ("farmhouse", FARMHOUSE, "farmer")])
def test_recruiting_blocked_when_supply_is_empty(space, tiles, kind):
    """§6 / §6.1 / §8.7: an action that would hand out a character no longer in the supply
    cannot be carried out."""
    state = edited(action_state({"spaces": tiles}, event="plague"), without_supply(kind))
    assert not can_activate(state, space)
    assert_refused(state, 0, {"type": "activate", "space": space})


@pytest.mark.parametrize("space, tiles, track", [("castle", CASTLE, "knight"), ("university", UNIVERSITY, "scholar")])
def test_track_actions_blocked_at_track_end(space, tiles, track):
    """§6: a track action cannot be chosen with the marker on the last space (5)."""
    assert not can_activate(action_state({"spaces": tiles, "tracks": {track: 5}}), space)
    assert can_activate(action_state({"spaces": tiles, "tracks": {track: 4}}), space)


# --- §6.1 supply exhaustion --------------------------------------------------------------------


def test_village_craftsman_needs_both_a_craftsman_and_a_technology_tile():
    """§6.1/§6.3: the Craftsman option needs a Craftsman in supply and a technology tile."""
    state = action_state({"spaces": VILLAGE})
    no_craftsman = edited(state, lambda d: d["supply"]["followers"].update(craftsman=0))
    no_tech = edited(state, lambda d: d["supply"].update(technology=0))
    for s in (no_craftsman, no_tech):
        assert {"recruit": "craftsman"} not in activations(s, "village")
        assert {"recruit": "boatman"} in activations(s, "village")


def test_farmhouse_blocked_when_the_next_step_good_is_out():
    """§6.1 best choice: Farmer track step 5 gives wine; no wine left → no Farmhouse."""
    state = action_state({"spaces": {"farmhouse": ["boatman", "craftsman"]}, "tracks": {"farmer": 4}})
    assert not can_activate(edited(state, lambda d: d["supply"]["goods"].update(wine=0)), "farmhouse")
    assert can_activate(edited(state, lambda d: d["supply"]["goods"].update(cheese=0)), "farmhouse")
