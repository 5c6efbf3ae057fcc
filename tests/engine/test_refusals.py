"""Refusals a player can read: every refusal has a code, its params and one English
sentence naming the blocking condition (issue 7 item 2; RULES §5, §6.1, §8, §11, §14).

Each case is a small scenario, the exact code and the exact sentence ``err.message``.
"""
from __future__ import annotations

import pytest

import engine
from engine.refusals import MESSAGES, render
from tests.support.engine_states import action_state, assert_refused, build, draw_state, edited, planning_state

CASTLE = {"castle": ["start_farmer", "start_boatman", "start_trader"]}
VILLAGE = {"village": ["farmer", "boatman", "craftsman"]}
GUILDHALL = {"guildhall": ["farmer", "craftsman", "knight"]}


def supply(state, **changes):
    """``state`` with general-supply entries changed (followers, goods or technology)."""
    def change(d):
        for key, value in changes.items():
            if key == "technology":
                d["supply"]["technology"] = value
            elif key in d["supply"]["goods"]:
                d["supply"]["goods"][key] = value
            else:
                d["supply"]["followers"][key] = value
    return edited(state, change)


def no_place_tiles(state):
    return edited(state, lambda d: d["place_tiles"]["display"].update(I=[], II=[]))


def activate(space, **choice):
    return {"type": "activate", "space": space, **choice}


def tile_state(tile, tiles, **fields):
    return action_state({"places": [tile], "spaces": {tile: tiles}, **fields})


def monk_deeds_full(d):
    """Every monk space of the beneficial deeds taken (RULES §7.2: a monk takes only a monk space)."""
    d["deeds"].update(papal_conclave=[["monk", 1], ["monk", 1]], cathedral=[["monk", 1], ["monk", 1]],
                      peace_treaty=[["monk", 1]])


def bathhouse_prompt(drawn):
    """Seat 0 has just used its Bathhouse and drew ``drawn`` (RULES §11)."""
    return action_state({"places": ["bathhouse"], "prompts": [{"kind": "bathhouse", "drawn": sorted(drawn), "kept": 0}],
                         "bag": {"farmer": 1}})


CASES = {
    "track_end": (lambda: action_state({"spaces": CASTLE, "tracks": {"knight": 5}}), 0, activate("castle"),
                  "The Castle cannot be used: the Knight track is at its last space."),
    "character_supply_empty": (lambda: supply(action_state({"spaces": CASTLE}), knight=0), 0, activate("castle"),
                               "The Castle cannot be used: no Knights are left in the supply."),
    "good_unavailable": (lambda: supply(tile_state("hay_rick", ["farmer"]), grain=0), 0, activate("hay_rick"),
                         "The Hay Rick cannot be used: no grain is left in the goods supply."),
    "technology_unavailable": (lambda: supply(tile_state("laboratory", ["craftsman", "scholar"]), technology=0), 0,
                               activate("laboratory"),
                               "The Laboratory cannot be used: no technology tiles are left."),
    "place_tile_unavailable": (lambda: no_place_tiles(action_state({"spaces": VILLAGE})), 0,
                               activate("village", recruit="trader", place_tile="hay_rick"),
                               "The Village cannot recruit a Trader: no place tile is left to take."),
    "nothing_to_recruit": (lambda: action_state({"spaces": VILLAGE, "tracks": {"boatman": 5, "craftsman": 5,
                                                                                "trader": 5}}),
                           0, activate("village", recruit="boatman"),
                           "The Village cannot be used: no Boatman, Craftsman or Trader can be recruited now."),
    "pilgrimage": (lambda: action_state({"spaces": {"monastery": ["scholar", "trader"]}}, event="pilgrimage"), 0,
                   activate("monastery"), "The Monastery cannot be used: it is a Pilgrimage round."),
    "development_end": (lambda: action_state({"spaces": {"scriptorium": ["knight", "scholar"]}, "development": 30}),
                        0, activate("scriptorium"),
                        "The Scriptorium cannot be used: your development marker is at the end of the track."),
    "station_present": (lambda: edited(action_state({"spaces": GUILDHALL}), lambda d: d["stations"].update(orleans=[0])),
                        0, activate("guildhall"),
                        "The Guildhall cannot be used: you already have a trading station in Orléans."),
    "no_stations_left": (lambda: action_state({"spaces": GUILDHALL, "stations_left": 0}), 0, activate("guildhall"),
                         "The Guildhall cannot be used: you have no trading stations left."),
    "no_route": (lambda: action_state({"spaces": {"ship": ["farmer", "boatman", "knight"]}, "merchant": "chartres"}),
                 0, activate("ship", route="orleans_chartres"),
                 "The Ship cannot be used: no waterway leaves Chartres."),
    "no_deed_space": (lambda: edited(action_state({"places": ["gunpowder_tower"], "market": ["monk"]}), monk_deeds_full),
                      0, activate("gunpowder_tower", deeds=[{"follower": "monk", "deed": "cathedral"}]),
                      "The Gunpowder Tower cannot be used: no beneficial deed has a free space for these followers."),
    # RULES §7.2, §14.8: starting followers never go to the deeds, whatever space is free
    "no_deed_follower": (lambda: action_state({"places": ["gunpowder_tower"], "market": ["start_farmer"]}), 0,
                         activate("gunpowder_tower", deeds=[{"follower": "start_farmer", "deed": "city_wall"}]),
                         "The Gunpowder Tower cannot be used: no follower in your market can go to a beneficial "
                         "deed (starting followers never can)."),
    # RULES §6.4: the first place tile ever taken comes from stack I
    "first_place_tile": (lambda: action_state({"spaces": VILLAGE}), 0,
                         activate("village", recruit="trader", place_tile="cellar"),
                         "The Village cannot recruit a Trader: your first place tile must come from stack I."),
    "place_tile_taken": (lambda: edited(action_state({"spaces": VILLAGE}),
                                        lambda d: d["place_tiles"]["display"]["I"].remove("hay_rick")), 0,
                         activate("village", recruit="trader", place_tile="hay_rick"),
                         "The Village cannot recruit a Trader: the Hay Rick is not available to take."),
    # RULES §11 Pharmacy, §14.4: at most as many coins as the player has and as spaces are left
    "development_room": (lambda: tile_state("pharmacy", ["farmer"], coins=5, development=28), 0,
                         activate("pharmacy", coins=3),
                         "The Pharmacy cannot take 3 coins: your development marker has only 2 spaces left to the "
                         "end of the track."),
    # RULES §4.3, §5: a route of the place's kind from the merchant's town, one good lying on it
    "route_elsewhere": (lambda: action_state({"spaces": {"ship": ["farmer", "boatman", "knight"]}}), 0,
                        activate("ship", route="e11"),
                        "The Ship cannot take that route: it is not a waterway from Orléans, where your merchant "
                        "stands."),
    "good_not_on_route": (lambda: edited(action_state({"spaces": {"ship": ["farmer", "boatman", "knight"]}}),
                                         lambda d: d["routes"].update(e06=["cheese"])), 0,
                          activate("ship", route="e06", good="wine"),
                          "The Ship cannot take wine from that route: there is none on it."),
    # RULES §11 Bathhouse: keep drawn tiles by placing them on another action space
    "not_drawn": (lambda: bathhouse_prompt(["knight", "knight", "scholar"]), 0,
                  {"type": "bathhouse_place", "follower": "monk", "space": "scriptorium"},
                  "There is no Monk among the followers drawn at the Bathhouse."),
    "bathhouse_itself": (lambda: bathhouse_prompt(["knight", "knight", "scholar"]), 0,
                         {"type": "bathhouse_place", "follower": "knight", "space": "bathhouse"},
                         "The followers drawn at the Bathhouse cannot go on the Bathhouse itself."),
    "not_enough_coins": (lambda: tile_state("pharmacy", ["farmer"], coins=0), 0, activate("pharmacy", coins=1),
                         "The Pharmacy cannot be used: you need at least 1 coin to pay."),
    "already_used": (lambda: action_state({"places": ["gunpowder_tower"], "market": ["knight"], "tower_used": True}),
                     0, activate("gunpowder_tower", deeds=[{"follower": "knight", "deed": "city_wall"}]),
                     "The Gunpowder Tower has already been used this round."),
    "not_an_action": (lambda: tile_state("sacristy", ["monk"]), 0, activate("sacristy"),
                      "The Sacristy is not an action of the action phase."),
    "not_ready": (lambda: action_state({"spaces": {"castle": ["start_farmer"]}}), 0, activate("castle"),
                  "The Castle is not ready: not all its circles are filled."),
    "choice_not_allowed": (lambda: tile_state("pharmacy", ["farmer"], coins=9), 0, activate("pharmacy", coins=4),
                           "These choices are not allowed for the Pharmacy now."),
    "unknown_place": (lambda: action_state(), 0, activate("moon"), "There is no place called “moon”."),
    "unknown_follower": (lambda: planning_state({0: {"market": ["knight"]}}), 0,
                         {"type": "place", "follower": "dragon", "space": "castle"},
                         "There is no follower called “dragon”."),
    "not_owned": (lambda: action_state(), 0, activate("hay_rick"), "You do not own the Hay Rick."),
    "not_in_market": (lambda: planning_state({0: {"market": ["knight"]}}), 0,
                      {"type": "place", "follower": "farmer", "space": "castle"}, "You have no Farmer in your market."),
    "no_free_circle": (lambda: planning_state({0: {"market": ["farmer"], "places": ["hay_rick"],
                                                   "spaces": {"hay_rick": ["farmer"]}}}), 0,
                       {"type": "place", "follower": "farmer", "space": "hay_rick"},
                       "Every circle of the Hay Rick is already taken."),
    "circle_type": (lambda: planning_state({0: {"market": ["knight"]}}), 0,
                    {"type": "place", "follower": "knight", "space": "castle"},
                    "No free circle of the Castle takes a Knight."),
    "starting_follower": (lambda: planning_state({0: {"market": ["start_farmer"]}}), 0,
                          {"type": "place", "follower": "start_farmer", "space": "town_hall"},
                          "Starting followers cannot go on the Town Hall."),
    "not_on_space": (lambda: draw_state({0: {"bag": {"knight": 3}}}), 0,
                     {"type": "pull_back", "follower": "knight", "space": "castle"},
                     "There is no Knight on your Castle."),
    "draw_limit": (lambda: draw_state({0: {"bag": {"knight": 9}}}), 0, {"type": "draw", "count": 5},
                   "You may draw at most 4 followers now (your Knight track's draw count)."),
    "market_full": (lambda: draw_state({0: {"market": ["knight"] * 7, "bag": {"knight": 9}}}), 0,
                    {"type": "draw", "count": 3}, "Your market has room for only 1 more follower."),
    "bag_short": (lambda: draw_state({0: {"bag": {"knight": 1}}}), 0, {"type": "draw", "count": 3},
                  "Your bag holds only 1 follower."),
    "technology_target": (lambda: action_state({"technology_pending": 1, "prompts": [{"kind": "technology"}]}), 0,
                          {"type": "place_technology", "space": "castle", "circle": "knight"},
                          "A technology tile cannot go there now."),
    "not_your_turn": (lambda: action_state(), 1, {"type": "pass"}, "It is not your turn."),
    "wrong_decision": (lambda: planning_state({0: {"market": ["knight"]}}), 0, {"type": "draw", "count": 1},
                       "First finish your plan."),
    "game_over": (lambda: build("over"), 0, {"type": "pass"}, "The game is over."),
    "malformed": (lambda: action_state(), 0, {"type": ["pass"]}, "That move could not be read."),
    "food_choice": (lambda: build("event", {0: {"prompts": [{"kind": "harvest", "food": 1}], "goods": {"grain": 1}}}),
                    0, {"type": "return_food", "food": ["wine"]},
                    "Return exactly 1 food that you have (grain, cheese or wine)."),
    "torture_item": (lambda: build("planning", {0: {"prompts": [{"kind": "torture", "debt": 1}], "goods": {"grain": 1}}},
                                   stage="draw"),
                     0, {"type": "torture", "item": "good", "good": "wine"},
                     "You cannot give that up: you do not have it."),
}
ERRORS = {"not_your_turn": engine.NotYourTurn, "game_over": engine.GameOver, "malformed": engine.MalformedAction}


@pytest.mark.parametrize("code", list(CASES), ids=list(CASES))
def test_each_refusal_has_its_code_and_player_sentence(code):
    make, seat, action, sentence = CASES[code]
    state = make()
    error = ERRORS.get(code, engine.IllegalAction)
    assert_refused(state, seat, action, error)
    with pytest.raises(error) as caught:
        engine.apply(state, seat, action)
    assert (caught.value.code, caught.value.message) == (code, sentence)


def test_the_town_hall_with_nothing_on_it_says_so():
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(action_state(), 0, activate("town_hall", deeds=[]))
    assert caught.value.code == "not_ready"
    assert caught.value.message == "The Town Hall is not ready: no follower stands on it."


def test_a_station_of_another_player_blocks_the_guildhall_in_a_small_town():
    state = edited(action_state({"spaces": GUILDHALL, "merchant": "chartres"}),
                   lambda d: d["stations"].update(chartres=[1]))
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, activate("guildhall"))
    assert caught.value.params == {"place": "guildhall", "town": "chartres", "own": False}
    assert caught.value.message == "The Guildhall cannot be used: there is already a trading station in Chartres."


def test_the_village_names_why_the_chosen_recruit_is_blocked():
    state = supply(action_state({"spaces": VILLAGE}), craftsman=0)
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, activate("village", recruit="craftsman"))
    assert caught.value.code == "character_supply_empty"
    assert caught.value.message == "The Village cannot recruit a Craftsman: no Craftsmen are left in the supply."


def test_a_bad_placement_in_a_whole_plan_names_its_number_and_reason():
    state = planning_state({0: {"market": ["knight"]}})
    plan = {"type": "submit_plan", "placements": [{"follower": "knight", "space": "scriptorium"},
                                                  {"follower": "farmer", "space": "castle"}]}
    with pytest.raises(engine.IllegalAction, match="placement 2") as caught:
        engine.apply(state, 0, plan)
    assert caught.value.code == "not_in_market"
    assert caught.value.params == {"follower": "farmer", "placement": 2}


def test_waiting_for_resolution_and_a_missing_seat_are_not_your_turn_with_their_own_sentence():
    waiting = edited(planning_state(), lambda d: d.update(barrier=True))
    with pytest.raises(engine.NotYourTurn) as caught:
        engine.apply(waiting, 0, {"type": "submit_plan"})
    assert caught.value.message == "Not now: the game is waiting for the other players' moves to be resolved."
    with pytest.raises(engine.NotYourTurn) as caught:
        engine.apply(planning_state(), 7, {"type": "submit_plan"})
    assert caught.value.message == "You have no seat in this game."


def test_nothing_to_resolve_and_invalid_options_have_codes():
    with pytest.raises(engine.NothingToResolve) as caught:
        engine.resolve(action_state())
    assert (caught.value.code, caught.value.message) == ("nothing_to_resolve", "There is nothing to resolve now.")
    with pytest.raises(engine.InvalidOptions) as caught:
        engine.GameOptions(players=9)
    assert (caught.value.code, caught.value.message) == ("invalid_options", "These game options are not valid.")


def test_the_stale_code_is_defined_for_the_site():
    assert engine.STALE == "stale"
    assert render(engine.STALE) == "The game has moved on since this page was shown: here is the current position."


def test_the_developer_text_still_names_the_action_seat_round_and_phase():
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(action_state({"spaces": CASTLE, "tracks": {"knight": 5}}), 0, activate("castle"))
    assert str(caught.value) == ("{'type': 'activate', 'space': 'castle'} (seat 0, round 2, actions): "
                                 "The Castle cannot be used: the Knight track is at its last space.")


def test_every_message_renders_without_params_and_an_unknown_code_is_generic():
    for code in MESSAGES:
        assert isinstance(render(code, {}), str)
    assert render("no_such_code", {"place": ["odd"]}) == "That is not allowed."


def test_the_pharmacy_names_the_coins_the_player_lacks():
    """RULES §11 Pharmacy, §10.1: a voluntary cost cannot be started without the coins."""
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(tile_state("pharmacy", ["farmer"], coins=2), 0, activate("pharmacy", coins=3))
    assert caught.value.code == "not_enough_coins"
    assert caught.value.message == "The Pharmacy cannot be used: you need at least 3 coins to pay."


@pytest.mark.parametrize("follower, space, code, sentence", [
    ("knight", "hay_rick", "not_owned", "You do not own the Hay Rick."),
    ("start_farmer", "town_hall", "starting_follower", "Starting followers cannot go on the Town Hall."),
    ("knight", "monastery", "circle_type", "No free circle of the Monastery takes a Knight."),
    ("knight", "castle", "no_free_circle", "Every circle of the Castle is already taken."),
])
def test_a_follower_drawn_at_the_bathhouse_is_refused_with_the_real_reason(follower, space, code, sentence):
    """RULES §11 Bathhouse: an empty matching circle of one of the player's other action spaces;
    §7.2 / §14.8 never a starting follower on the Town Hall."""
    state = edited(bathhouse_prompt(["knight", "start_farmer"]),
                   lambda d: d["players"][0]["spaces"].update(castle=["farmer", "boatman", "trader"]))
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "bathhouse_place", "follower": follower, "space": space})
    assert (caught.value.code, caught.value.message) == (code, sentence)


def test_not_allowed_is_only_the_queues_answer_for_an_entry_it_never_stored():
    """Every action type ``apply`` checks has its own code, so ``not_allowed`` is unreachable there
    (pass, submit_plan and bathhouse_done are always legal in their decision). The queue gives it
    for a head that is not an activation (an entry ``check_queue`` would have refused)."""
    state = action_state({"spaces": CASTLE})
    verdict, reason = engine.queue.next_queued(state, 0, [{"type": "pass", "extra": 1}])
    assert verdict == "drop" and reason["params"]["why"] == "not_allowed"
    assert reason["message"].endswith("so the rest was dropped. That move is not allowed now.")


def test_refused_is_the_code_of_an_unreadable_stored_state_and_of_an_unknown_code():
    """``refused`` (RulesError's default) is raised only by ``from_json`` (SchemaError): a stored
    state, never a player's move."""
    with pytest.raises(engine.SchemaError) as caught:
        engine.from_json({"schema": -1})
    assert (caught.value.code, caught.value.message) == ("refused", "That is not allowed.")
    assert render("no_such_code") == "That is not allowed."


FARMHOUSE = {"farmhouse": ["boatman", "craftsman"]}
UNIVERSITY = {"university": ["farmer", "craftsman", "trader"]}


@pytest.mark.parametrize("make, action, code, sentence", [
    (lambda: action_state({"spaces": FARMHOUSE, "tracks": {"farmer": 8}}), activate("farmhouse"), "track_end",
     "The Farmhouse cannot be used: the Farmer track is at its last space."),
    (lambda: supply(action_state({"spaces": FARMHOUSE}), farmer=0), activate("farmhouse"), "character_supply_empty",
     "The Farmhouse cannot be used: no Farmers are left in the supply."),
    # RULES §6.1: the good of the step the marker moves to (step 3 of the Farmer track: cheese)
    (lambda: supply(action_state({"spaces": FARMHOUSE, "tracks": {"farmer": 2}}), cheese=0), activate("farmhouse"),
     "good_unavailable", "The Farmhouse cannot be used: no cheese is left in the goods supply."),
    (lambda: action_state({"spaces": UNIVERSITY, "tracks": {"scholar": 5}}), activate("university"), "track_end",
     "The University cannot be used: the Scholar track is at its last space."),
    (lambda: supply(action_state({"spaces": {"monastery": ["scholar", "trader"]}}), monk=0), activate("monastery"),
     "character_supply_empty", "The Monastery cannot be used: no Monks are left in the supply."),
    (lambda: supply(action_state({"spaces": VILLAGE}), technology=0), activate("village", recruit="craftsman"),
     "technology_unavailable", "The Village cannot recruit a Craftsman: no technology tiles are left."),
    (lambda: action_state({"spaces": VILLAGE, "tracks": {"boatman": 5}}), activate("village", recruit="boatman"),
     "track_end", "The Village cannot recruit a Boatman: the Boatman track is at its last space."),
    (lambda: edited(action_state({"spaces": {"town_hall": ["monk"]}}), monk_deeds_full),
     activate("town_hall", deeds=[{"follower": "monk", "deed": "cathedral"}]), "no_deed_space",
     "The Town Hall cannot be used: no beneficial deed has a free space for these followers."),
    (lambda: tile_state("library", ["knight", "scholar"], development=30), activate("library"), "development_end",
     "The Library cannot be used: your development marker is at the end of the track."),
    (lambda: tile_state("shipping_line", ["boatman"], development=30), activate("shipping_line"), "development_end",
     "The Shipping Line cannot be used: your development marker is at the end of the track."),
    (lambda: tile_state("pharmacy", ["farmer"], coins=3, development=30), activate("pharmacy", coins=1),
     "development_end", "The Pharmacy cannot be used: your development marker is at the end of the track."),
    (lambda: supply(tile_state("tailor_shop", ["trader", "scholar"]), brocade=0), activate("tailor_shop"),
     "good_unavailable", "The Tailor Shop cannot be used: no brocade is left in the goods supply."),
    (lambda: tile_state("horse_wagon", ["knight", "trader"]), activate("horse_wagon", route="e06"), "route_elsewhere",
     "The Horse Wagon cannot take that route: it is not a road from Orléans, where your merchant stands."),
    (lambda: action_state({"spaces": {"wagon": ["farmer", "trader", "knight"]}}), activate("wagon", route="e17"),
     "route_elsewhere", "The Wagon cannot take that route: it is not a road from Orléans, where your merchant stands."),
], ids=lambda v: v if isinstance(v, str) and " " not in v else None)
def test_each_place_names_its_own_blocking_condition(make, action, code, sentence):
    """RULES §5, §6.1–§6.5, §7.1, §7.2, §11, §14.4: the sentence is the condition that blocks."""
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(make(), 0, action)
    assert (caught.value.code, caught.value.message) == (code, sentence)


def test_the_university_stays_usable_at_the_end_of_the_development_track():
    """RULES §14.4: an action with another effect is allowed on 30; the steps are lost."""
    state = action_state({"spaces": UNIVERSITY, "development": 30})
    assert {"type": "activate", "space": "university"} in engine.legal_actions(state, 0)


def test_a_seat_that_has_passed_is_told_so():
    """RULES §8.7: a player who passes takes no more actions this round."""
    state = action_state({"spaces": CASTLE}, others={"passed": True, "spaces": CASTLE}, blockers=False)
    with pytest.raises(engine.NotYourTurn) as caught:
        engine.apply(state, 1, {"type": "pass"})
    assert caught.value.params == {"why": "passed"}
    assert caught.value.message == "You have passed: you take no more actions this round."


def test_a_seat_that_has_submitted_its_plan_is_told_so_while_the_others_plan():
    """RULES §14.14: a plan can be edited until it is submitted; the other seats are still planning."""
    state = engine.apply(planning_state({1: {"market": ["farmer", "knight"]}}), 0, {"type": "submit_plan"})[0]
    with pytest.raises(engine.NotYourTurn) as caught:
        engine.apply(state, 0, {"type": "submit_plan"})
    assert caught.value.params == {"why": "planned"}
    assert caught.value.message == "Your plan is in: wait for the other players to finish theirs."


def deeds(*pairs):
    return [{"follower": tile, "deed": deed} for tile, deed in pairs]


TOWN_HALL = {"spaces": {"town_hall": ["knight", "monk"]}}
TOWER = {"places": ["gunpowder_tower"], "market": ["knight", "knight", "knight", "start_farmer"]}


@pytest.mark.parametrize("p0, space, sent, code, sentence", [
    # RULES §14.8: every follower on the Town Hall that can go must go
    (TOWN_HALL, "town_hall", deeds(("knight", "city_wall")), "deeds_all",
     "Every follower on the Town Hall that has a free beneficial deed space of its type must go to one."),
    # RULES §7.2: a space of exactly its type; a monk is not wild on the deeds
    (TOWN_HALL, "town_hall", deeds(("knight", "city_wall"), ("monk", "city_wall")), "deed_full",
     "Building the City Wall has no free Monk space: a follower goes only on a space of its own type."),
    (TOWN_HALL, "town_hall", deeds(("scholar", "astronomy")), "not_on_space", "There is no Scholar on your Town Hall."),
    # RULES §11 Gunpowder Tower: its two spaces; starting followers never go to the deeds (§14.8)
    (TOWER, "gunpowder_tower", deeds(*[("knight", "city_wall")] * 3), "tower_two",
     "The Gunpowder Tower holds only 2 followers."),
    (TOWER, "gunpowder_tower", deeds(("start_farmer", "city_wall")), "deed_starting",
     "Starting followers never go to a beneficial deed."),
    (TOWER, "gunpowder_tower", deeds(("monk", "cathedral")), "not_in_market", "You have no Monk in your market."),
    (TOWER, "gunpowder_tower", [], "deeds_none", "Choose at least one follower to send to a beneficial deed."),
], ids=["town_hall_all", "monk_not_wild", "town_hall_missing", "tower_two", "tower_starting", "tower_market",
        "tower_none"])
def test_a_deeds_choice_names_the_deed_rule_it_breaks(p0, space, sent, code, sentence):
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(action_state(p0), 0, activate(space, deeds=sent))
    assert (caught.value.code, caught.value.message) == (code, sentence)


@pytest.mark.parametrize("tile", ["herb_garden", "school", "gunpowder_tower"])
def test_a_place_tile_without_circles_says_so_when_a_follower_is_put_on_it(tile):
    """RULES §11: Herb Garden, School and Gunpowder Tower are permanent abilities without circles
    (the tower's two spaces are market spaces, §14.5)."""
    state = planning_state({0: {"market": ["knight"], "places": [tile]}})
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "place", "follower": "knight", "space": tile})
    assert caught.value.code == "no_circles"
    assert caught.value.message == f"The {engine.place_name(tile)} has no circles: no follower can be put on it."
    drawn = edited(bathhouse_prompt(["knight"]), lambda d: d["players"][0]["places"].append(tile))
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(drawn, 0, {"type": "bathhouse_place", "follower": "knight", "space": tile})
    assert caught.value.code == "no_circles"


def test_a_pull_back_with_every_draw_used_says_why():
    """RULES §8.3, §14.5: draws + pull-backs never exceed the draw count (4 here)."""
    state = draw_state({0: {"bag": {"knight": 3}, "pulled": 4, "spaces": {"castle": ["start_farmer"]}}})
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "pull_back", "follower": "start_farmer", "space": "castle"})
    assert (caught.value.code, caught.value.message) == (
        "no_draw_left", "Each pull-back takes the place of one draw, and you have no draw left this round.")


TECH = {"technology_pending": 1, "prompts": [{"kind": "technology"}], "technology_placed_ever": True}


@pytest.mark.parametrize("p0, space, circle, code, sentence", [
    ({**TECH, "technology_placed_ever": False}, "castle", "trader", "technology_first_farmer",
     "Your first technology tile must cover a Farmer circle."),
    (TECH, "town_hall", "any", "technology_town_hall", "A technology tile cannot go on the Town Hall."),
    ({**TECH, "places": ["hay_rick"]}, "hay_rick", "farmer", "technology_one_circle",
     "A technology tile cannot go on the Hay Rick: it has only one circle."),
    ({**TECH, "technology": {"castle": "farmer"}}, "castle", "trader", "technology_twice",
     "The Castle already has a technology tile."),
    ({**TECH, "places": ["cellar"]}, "cellar", "monk", "technology_monk", "A technology tile never covers a Monk circle."),
    (TECH, "bathhouse", "any", "not_owned", "You do not own the Bathhouse."),
], ids=["first_farmer", "town_hall", "one_circle", "twice", "monk", "not_owned"])
def test_a_technology_tile_refusal_names_the_placement_rule(p0, space, circle, code, sentence):
    """RULES §8.6 (first on a Farmer circle, never a Monk circle, one per place, not on a one-circle
    place), §8.6 UNCERTAIN best choice: not on the Town Hall; §14.2 placed when passing."""
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(action_state(p0), 0, {"type": "place_technology", "space": space, "circle": circle})
    assert (caught.value.code, caught.value.message) == (code, sentence)


TORTURE = {"prompts": [{"kind": "torture", "debt": 1}], "goods": {"grain": 1}}


@pytest.mark.parametrize("p0, item, code, sentence", [
    ({**TORTURE, "development": 8}, "development", "torture_development",
     "You cannot give a development step: your marker may not move from or onto a coin space (7, 12, 25)."),
    ({**TORTURE, "bag": {"start_farmer": 2}}, "follower", "torture_follower",
     "You cannot give a follower: your bag holds only starting followers, which are never lost."),
    (TORTURE, "follower", "torture_item", "You cannot give that up: you do not have it."),
], ids=["development_coin_space", "only_starting_followers", "empty_bag"])
def test_a_torture_item_that_cannot_be_given_names_why(p0, item, code, sentence):
    """RULES §10.1, §14.3."""
    state = build("planning", {0: p0}, stage="draw")
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "torture", "item": item})
    assert (caught.value.code, caught.value.message) == (code, sentence)


WOOL = {"item": "good", "good": "wool"}
OWES_3 = {"prompts": [{"kind": "torture", "debt": 3, "reason": "taxes"}], "goods": {"wool": 2, "grain": 1},
          "stations_left": 1}


@pytest.mark.parametrize("items, code, params, sentence", [
    ([WOOL, WOOL, WOOL], "payment_item", {"index": 3, "why": "torture_item", "why_params": {"item": "good"}},
     "Item 3 of your payment is refused. You cannot give that up: you do not have it."),
    ([WOOL], "payment_short", {"debt": 3, "remaining": 2},
     "Your payment does not settle the debt of 3 coins: choose 2 more items, one per missing coin."),
    ([WOOL, WOOL, {"item": "station"}, {"item": "good", "good": "grain"}], "payment_too_many", {"debt": 3},
     "You owe only 3 coins: give one item per missing coin, no more."),
    ([{"item": "development"}, WOOL, WOOL], "payment_item",
     {"index": 1, "why": "torture_item", "why_params": {"item": "development"}},
     "Item 1 of your payment is refused. You cannot give that up: you do not have it."),
], ids=["item_not_held_at_its_point", "debt_not_settled", "more_items_than_owed", "first_item_illegal"])
def test_a_whole_payment_names_the_item_or_the_shortfall(items, code, params, sentence):
    """RULES §10.1: one item per missing coin, each one the player has at its point."""
    state = build("event", {0: OWES_3}, round=2, event="taxes")
    assert_refused(state, 0, {"type": "pay_debt", "items": items})
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(state, 0, {"type": "pay_debt", "items": items})
    assert (caught.value.code, caught.value.params, caught.value.message) == (code, params, sentence)


@pytest.mark.parametrize("items", [["wool"], [{"type": "torture", "item": "good", "good": "wool"}],
                                   [{"item": "good", "good": 3}], [{"item": "good", "colour": "red"}], [{}],
                                   [WOOL] * 201])
def test_a_payment_item_that_cannot_be_read_is_malformed(items):
    state = build("event", {0: OWES_3}, round=2, event="taxes")
    assert_refused(state, 0, {"type": "pay_debt", "items": items}, engine.MalformedAction)
