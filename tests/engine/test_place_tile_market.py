"""RULES §12.3 the place-tile market options (Market 3 / Market 5: face-up tiles per stack,
a chosen tile replaced from its own stack, the stacks hidden) with the Trader track's place
tiles (§6.4: the first tile from stack I, later ones from stack II too)."""
import engine

from tests.support.engine_states import action_state, activate, activations, assert_refused, edited, player

VILLAGE = {"village": ["boatman", "craftsman", "farmer"]}


def test_market3_first_tile_from_face_up_stack_one_and_refill():
    """§12.3 Market 3: 3 face-up tiles per stack; the first place tile comes from stack I
    (§6.4); a chosen tile is replaced from its own stack; the stacks stay hidden."""
    state = action_state({"spaces": VILLAGE}, options={"place_tile_market": "market3"})
    tiles = state.data["place_tiles"]
    display_i, stack_i = list(tiles["display"]["I"]), list(tiles["stack"]["I"])
    display_ii = list(tiles["display"]["II"])
    assert len(display_i) == 3 and len(display_ii) == 3 and len(stack_i) == 9
    offered = [a["place_tile"] for a in activations(state, "village") if a["recruit"] == "trader"]
    assert offered == display_i
    assert_refused(state, 0, {"type": "activate", "space": "village", "recruit": "trader",
                              "place_tile": display_ii[0]})
    assert_refused(state, 0, {"type": "activate", "space": "village", "recruit": "trader",
                              "place_tile": stack_i[0]})
    after = activate(state, "village", recruit="trader", place_tile=display_i[0])
    assert after.data["place_tiles"]["display"]["I"] == sorted(display_i[1:] + [stack_i[0]])
    assert after.data["place_tiles"]["display"]["II"] == display_ii
    assert player(after)["places"] == [display_i[0]] and player(after)["tracks"]["trader"] == 1
    v = engine.view(after, 1)["place_tiles"]
    assert v["stack_counts"] == {"I": 8, "II": 5} and "stack" not in v


def test_market5_later_tile_from_stack_two_refills_stack_two():
    """§12.3 Market 5 / §6.4: after the first tile, stack II too; refill from stack II."""
    state = action_state({"spaces": VILLAGE, "tracks": {"trader": 1}}, options={"place_tile_market": "market5"})
    tiles = state.data["place_tiles"]
    owned = tiles["display"]["I"][0]
    state = edited(state, lambda d: (d["place_tiles"]["display"]["I"].remove(owned),
                                     d["players"][0]["places"].append(owned)))
    display_ii, stack_ii = list(tiles["display"]["II"]), list(tiles["stack"]["II"])
    assert len(display_ii) == 5 and len(stack_ii) == 3
    offered = {a["place_tile"] for a in activations(state, "village") if a["recruit"] == "trader"}
    assert set(display_ii) <= offered and not set(stack_ii) & offered
    after = activate(state, "village", recruit="trader", place_tile=display_ii[2])
    assert after.data["place_tiles"]["display"]["II"] == sorted(display_ii[:2] + display_ii[3:] + [stack_ii[0]])
    assert after.data["place_tiles"]["stack"]["II"] == stack_ii[1:]


def test_market3_village_trader_blocked_when_stack_one_is_empty_for_a_first_tile():
    """§6.1 / §6.4: no stack I tile left for a player's first tile: no Trader option."""
    state = action_state({"spaces": VILLAGE}, options={"place_tile_market": "market3"})
    state = edited(state, lambda d: d["place_tiles"].update(display={"I": [], "II": d["place_tiles"]["display"]["II"]},
                                                            stack={"I": [], "II": d["place_tiles"]["stack"]["II"]}))
    assert {a["recruit"] for a in activations(state, "village")} == {"boatman", "craftsman"}
