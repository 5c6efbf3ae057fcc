"""RULES §8.6 technology tiles and §14.2 timing: gained in the action phase, placed when
the owner passes; first one on a Farmer circle; never on a monk circle, a one-circle space
or the Town Hall; one per space; the character on the covered circle returns to the market;
tiles on place tiles and tiles waiting for a legal circle."""
import engine

from tests.support.engine_states import act, action_state, activate, activations, assert_refused, can_activate, player

VILLAGE = {"village": ["boatman", "craftsman", "farmer"]}


def passing(p0, **kw):
    """Seat 0 holds ``p0`` and passes; returns the state with its technology prompt."""
    return act(action_state(p0, **kw), type="pass")


def targets(state, seat=0):
    return {(a["space"], a["circle"]) for a in engine.legal_actions(state, seat) if a["type"] == "place_technology"}


def test_gained_tile_is_placed_when_passing():
    """§14.2: a technology tile gained in the action phase is placed when its owner passes."""
    state = activate(action_state({"spaces": VILLAGE}), "village", recruit="craftsman")
    # seat 0 has not passed yet: the tile waits beside the board
    assert player(state)["technology_pending"] == 1 and player(state)["technology"] == {}
    # seat 1 passes; seat 0, with nothing ready, is passed by the engine and must place it
    state = act(state, 1, type="pass")
    assert player(state)["passed"]
    assert engine.awaiting(state) == {0: "technology"}
    state = act(state, type="place_technology", space="castle", circle="farmer")
    assert player(state)["technology"] == {"castle": "farmer"}
    assert player(state)["technology_pending"] == 0


def test_first_tile_must_cover_a_farmer_circle():
    """§8.6: your first technology tile must cover a Farmer circle."""
    state = passing({"technology_pending": 1})
    assert {c for _s, c in targets(state)} == {"farmer"}
    assert targets(state) == {(s, "farmer") for s in ("village", "university", "castle", "ship", "wagon",
                                                       "guildhall")}
    assert_refused(state, 0, {"type": "place_technology", "space": "farmhouse", "circle": "boatman"})


def test_later_tiles_any_character_circle_but_not_monk_one_circle_or_town_hall():
    """§8.6: never on a monk circle, never on a one-circle space, at most one per space,
    not on the Town Hall (best choice)."""
    state = passing({"technology_pending": 1, "technology_placed_ever": True,
                     "technology": {"castle": "farmer"}, "places": ["cellar", "brewery", "hay_rick", "winery"]})
    got = targets(state)
    assert ("farmhouse", "boatman") in got and ("scriptorium", "knight") in got and ("winery", "trader") in got
    assert ("cellar", "scholar") in got and ("cellar", "monk") not in got
    assert not {s for s, _c in got} & {"town_hall", "brewery", "hay_rick", "castle"}


def test_no_legal_circle_keeps_tile_beside_the_board():
    """§14.2: if no legal circle exists, the tile stays and is placed at the next pass."""
    every = {pl: "farmer" for pl in ("village", "university", "castle", "ship", "wagon", "guildhall")}
    every.update({"farmhouse": "boatman", "monastery": "trader", "scriptorium": "knight"})
    state = passing({"technology_pending": 1, "technology_placed_ever": True, "technology": every})
    assert engine.awaiting(state).get(0) != "technology"
    assert player(state)["technology_pending"] == 1


def test_technology_tile_fills_its_circle():
    """§8.6: the tile permanently fills its circle: fewer characters make the space ready."""
    state = action_state({"technology": {"village": "farmer"}, "spaces": {"village": ["boatman", "craftsman"]}})
    assert can_activate(state, "village")
    after = activate(state, "village", recruit="boatman")
    assert player(after)["technology"] == {"village": "farmer"}  # technology tiles stay (§8.7)
    assert player(after)["bag"] == {"boatman": 2, "craftsman": 1}


def test_character_on_covered_circle_returns_to_market():
    """§14.2: a character standing on the chosen circle goes back to the owner's market."""
    state = passing({"technology_pending": 1, "spaces": VILLAGE})
    state = act(state, type="place_technology", space="village", circle="farmer")
    assert player(state)["spaces"] == {"village": ["boatman", "craftsman"]}
    assert player(state)["market"] == ["farmer"]


def test_character_elsewhere_on_the_space_stays():
    """§14.2: only the covered circle is cleared; a partly filled space keeps its tiles."""
    state = passing({"technology_pending": 1, "spaces": {"village": ["boatman"]}})
    state = act(state, type="place_technology", space="village", circle="farmer")
    assert player(state)["spaces"] == {"village": ["boatman"]} and player(state)["market"] == []


def test_monk_standing_in_for_the_covered_circle_returns():
    """§14.2: with Boatman, Craftsman and a wild Monk on the Village, the Monk is the one on
    the Farmer circle; covering it sends the Monk (not the Boatman) back to the market."""
    state = passing({"technology_pending": 1, "spaces": {"village": ["boatman", "craftsman", "monk"]}})
    state = act(state, type="place_technology", space="village", circle="farmer")
    assert player(state)["market"] == ["monk"]
    assert player(state)["spaces"] == {"village": ["boatman", "craftsman"]}


def test_laboratory_tile_may_cover_the_laboratory():
    """§11 Laboratory / §14.2: 1 technology tile without a Craftsman step; the Laboratory
    may be its target."""
    state = action_state({"places": ["laboratory"], "spaces": {"laboratory": ["craftsman", "scholar"]},
                          "technology_placed_ever": True})
    state = activate(state, "laboratory")
    assert player(state)["tracks"]["craftsman"] == 0 and player(state)["technology_pending"] == 1
    assert state.data["supply"]["technology"] == 15
    state = act(state, 1, type="pass")  # seat 0 is then passed by the engine
    assert ("laboratory", "craftsman") in targets(state) and ("laboratory", "scholar") in targets(state)


def test_laboratory_blocked_without_technology_tiles():
    """§6.1 / §11: an action that would hand out an unavailable technology tile is refused."""
    state = action_state({"places": ["laboratory"], "spaces": {"laboratory": ["craftsman", "scholar"]}},
                         supply={"followers": {}, "goods": {}, "technology": 0})
    assert not activations(state, "laboratory")


def test_two_pending_tiles_are_placed_one_after_another():
    """§8.6: one per space; both tiles are placed at the pass."""
    state = passing({"technology_pending": 2})
    state = act(state, type="place_technology", space="castle", circle="farmer")
    assert engine.awaiting(state) == {0: "technology"}
    assert ("castle", "boatman") not in targets(state)
    state = act(state, type="place_technology", space="farmhouse", circle="craftsman")
    assert player(state)["technology"] == {"castle": "farmer", "farmhouse": "craftsman"}


# --- technology tiles on place tiles, waiting tiles, the Town Hall ---------------------------


def test_first_technology_tile_on_a_place_tile_farmer_circle():
    """§8.6: the first tile covers a Farmer circle — place tiles with 2+ circles count
    (Cheese Factory, Winery); never on one-circle tiles (Hay Rick, Pharmacy 'any', Sacristy,
    Bathhouse 'any'), never on the Town Hall."""
    state = passing({"technology_pending": 1,
                        "places": ["cheese_factory", "winery", "hay_rick", "pharmacy", "sacristy", "bathhouse"]})
    got = targets(state)
    assert ("cheese_factory", "farmer") in got and ("winery", "farmer") in got
    assert ("winery", "trader") not in got
    assert not {s for s, _c in got} & {"hay_rick", "pharmacy", "sacristy", "bathhouse", "town_hall"}
    state = act(state, type="place_technology", space="cheese_factory", circle="farmer")
    assert player(state)["technology"] == {"cheese_factory": "farmer"}
    # one Farmer now fills the Cheese Factory (§8.6: the tile fills its circle for good)
    assert player(state)["technology_pending"] == 0


def test_technology_tile_fills_place_tile_circle_next_round():
    """§8.6: a covered place-tile circle needs no follower: one Farmer readies the Cheese
    Factory."""
    state = action_state({"places": ["cheese_factory"], "technology": {"cheese_factory": "farmer"},
                          "technology_placed_ever": True, "spaces": {"cheese_factory": ["farmer"]}})
    after = activate(state, "cheese_factory")
    assert player(after)["goods"]["cheese"] == 1
    assert player(after)["technology"] == {"cheese_factory": "farmer"}


def test_technology_waiting_tile_placed_at_a_later_pass_on_a_new_place():
    """§14.2: a tile with no legal circle waits; at the owner's next pass it goes on a
    place gained in the meantime (Laboratory may be the target)."""
    every = {pl: "farmer" for pl in ("village", "university", "castle", "ship", "wagon", "guildhall")}
    every.update({"farmhouse": "boatman", "monastery": "trader", "scriptorium": "knight"})
    state = passing({"technology_pending": 1, "technology_placed_ever": True, "technology": every,
                        "places": ["laboratory"]})
    assert targets(state) == {("laboratory", "craftsman"), ("laboratory", "scholar")}


def test_technology_tile_covering_town_hall_refused():
    """§8.6 UNCERTAIN best choice: never on the Town Hall."""
    state = passing({"technology_pending": 1, "technology_placed_ever": True})
    assert_refused(state, 0, {"type": "place_technology", "space": "town_hall", "circle": "any"})
    assert_refused(state, 0, {"type": "place_technology", "space": "monastery", "circle": "monk"})
