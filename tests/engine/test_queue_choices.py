"""The action queue carries the whole action with its choices (engine.queue; RULES §8.7):
each choice kind queued and played with exact numbers, an entry whose choice became illegal
waits and says why, opt-in defaults, and prompts answered in advance (technology tile after a
queued pass, Harvest food, Bathhouse keep) falling back to asking when the situation changed."""
from __future__ import annotations

import pytest

import engine
from engine.queue import check_queue, next_queued, queue_after_move
from tests.support.engine_states import action_state, edited, end_of_actions, planning_state, player

VILLAGE = ["start_boatman", "start_craftsman", "start_farmer"]
SHIP = ["boatman", "farmer", "knight"]


def play_queue(state, queue, seat=0):
    """Play ``seat``'s queue as the site does: apply each ``play``, keep ``queue_after_move``;
    returns ``(state, queue, (verdict, detail) of the stop)``."""
    queue = check_queue(state, seat, queue) if state.data["phase"] in ("planning", "actions") else queue
    for _ in range(20):
        verdict, detail = next_queued(state, seat, queue)
        if verdict != "play":
            return state, queue, (verdict, detail)
        state = engine.apply(state, seat, detail)[0]
        queue = queue_after_move(queue, detail)
    raise AssertionError("the queue never stopped")


def test_a_queued_village_trader_takes_the_queued_place_tile():
    """RULES §6.4: the Trader's Village action takes a place tile (the first from stack I)."""
    state = action_state({"spaces": {"village": VILLAGE}})
    entry = {"type": "activate", "space": "village", "recruit": "trader", "place_tile": "bathhouse"}
    after, queue, _ = play_queue(state, [entry])
    assert player(after)["places"] == ["bathhouse"] and player(after)["tracks"]["trader"] == 1
    assert queue == []


def test_a_queued_ship_moves_along_the_route_and_takes_the_good():
    """RULES §4.3: Orléans → Briare by water (e06) takes the brocade lying on it."""
    state = action_state({"spaces": {"ship": SHIP}})
    after, _, _ = play_queue(state, [{"type": "activate", "space": "ship", "route": "e06", "good": "brocade"}])
    assert player(after)["merchant"] == "briare" and player(after)["goods"]["brocade"] == 1
    assert after.data["routes"]["e06"] == []


def test_the_default_takes_the_good_on_the_route_and_without_it_the_queue_asks():
    state = action_state({"spaces": {"ship": SHIP}})
    entry = {"type": "activate", "space": "ship", "route": "e06"}
    assert next_queued(state, 0, [entry])[1]["code"] == "queue_choice_open"
    after, _, _ = play_queue(state, [{**entry, "defaults": True}])
    assert player(after)["goods"]["brocade"] == 1


def test_the_route_default_with_no_good_left_moves_without_one():
    state = edited(action_state({"spaces": {"ship": SHIP}}), lambda d: d["routes"].update(e06=[]))
    after, _, _ = play_queue(state, [{"type": "activate", "space": "ship", "route": "e06", "defaults": True}])
    assert player(after)["merchant"] == "briare" and sum(player(after)["goods"].values()) == 0


def test_a_queued_good_taken_meanwhile_waits_and_says_why():
    state = edited(action_state({"spaces": {"ship": SHIP}}), lambda d: d["routes"].update(e06=[]))
    queue = [{"type": "activate", "space": "ship", "route": "e06", "good": "brocade"}, {"type": "pass"}]
    after, left, (verdict, reason) = play_queue(state, queue)
    assert after == state and left == queue
    assert (verdict, reason["code"], reason["params"]["why"]) == ("wait", "queue_choice_illegal", "good_not_on_route")
    assert reason["message"].startswith("Your queue waits at “Use Ship: Orléans–Briare, take brocade”: "
                                        "that choice is not possible now")


def test_a_queued_pharmacy_pays_the_queued_coins():
    """RULES §11 Pharmacy: 2 coins for 2 development steps."""
    state = action_state({"places": ["pharmacy"], "spaces": {"pharmacy": ["start_trader"]}, "development": 1})
    after, _, _ = play_queue(state, [{"type": "activate", "space": "pharmacy", "coins": 2}])
    assert (player(after)["coins"], player(after)["development"]) == (3, 3)


def test_a_queued_town_hall_sends_each_follower_to_its_deed_and_reward():
    """RULES §7.2: the Knight on Peace Treaty (2 coins), the Boatman on Canalisation for a
    development step instead of its coin."""
    state = action_state({"spaces": {"town_hall": ["boatman", "knight"]}, "development": 5})
    entry = {"type": "activate", "space": "town_hall",
             "deeds": [{"follower": "knight", "deed": "peace_treaty"},
                       {"follower": "boatman", "deed": "canalisation", "reward": "development"}]}
    assert next_queued(state, 0, [entry])[0] == "play"
    after, _, _ = play_queue(state, [entry])
    assert (player(after)["coins"], player(after)["development"]) == (7, 6)
    assert after.data["deeds"]["peace_treaty"] == [["knight", 0]]
    assert after.data["deeds"]["canalisation"] == [["boatman", 0]]


def test_the_town_hall_default_takes_any_free_deed_space_for_coins():
    """Opt-in default: as many followers as can go, for coins, on the spaces paying most
    (RULES §7.2): the Knight goes to the Papal Conclave (3 coins, City Wall 1, Peace Treaty 2)."""
    state = action_state({"spaces": {"town_hall": ["knight"]}})
    entry = {"type": "activate", "space": "town_hall"}
    assert next_queued(state, 0, [entry])[1]["code"] == "queue_choice_open"
    verdict, action = next_queued(state, 0, [{**entry, "defaults": True}])
    assert verdict == "play" and action["deeds"] == [{"follower": "knight", "deed": "papal_conclave", "reward": "coins"}]


def test_a_full_deed_space_waits_and_names_the_deed():
    state = action_state({"spaces": {"town_hall": ["knight"]}})
    state = edited(state, lambda d: d["deeds"].update(peace_treaty=[["knight", 1], ["knight", 1]]))
    entry = {"type": "activate", "space": "town_hall", "deeds": [{"follower": "knight", "deed": "peace_treaty"}]}
    verdict, reason = next_queued(state, 0, [entry])
    assert (verdict, reason["code"], reason["params"]["why"]) == ("wait", "queue_choice_illegal", "deed_full")


def test_a_queued_gunpowder_tower_sends_two_market_followers():
    """RULES §11 Gunpowder Tower: up to 2 market followers to the deeds, once a round."""
    state = action_state({"places": ["gunpowder_tower"], "market": ["monk", "scholar"]})
    entry = {"type": "activate", "space": "gunpowder_tower",
             "deeds": [{"follower": "monk", "deed": "papal_conclave"}, {"follower": "scholar", "deed": "astronomy"}]}
    after, _, _ = play_queue(state, [entry])
    assert player(after)["market"] == [] and player(after)["coins"] == 5 + 3 + 1
    assert player(after)["tower_used"] is True


def test_a_technology_target_answered_with_the_pass_is_placed():
    """RULES §8.6, §14.2: the tile taken this round is placed on passing; the first on a
    Farmer circle."""
    state = end_of_actions({0: {"technology_pending": 1}}, event="income")
    queue = [{"type": "pass", "technology": [{"space": "castle", "circle": "knight"},
                                             {"space": "village", "circle": "farmer"}]}]
    after, _, _ = play_queue(state, queue)
    assert player(after)["technology"] == {"village": "farmer"} and player(after)["technology_pending"] == 0


def test_a_technology_target_no_longer_legal_falls_back_to_asking():
    state = end_of_actions({0: {"technology_pending": 1}}, event="income")
    queue = [{"type": "pass", "technology": [{"space": "castle", "circle": "knight"}]}]
    after, left, (verdict, reason) = play_queue(state, queue)
    assert engine.awaiting(after) == {0: "technology"}
    assert (verdict, reason["code"]) == ("wait", "queue_answer_changed")
    assert reason["message"] == "Your queue's answer for the technology tile is not possible any more: choose now."


def test_harvest_food_queued_in_a_harvest_round_is_returned():
    """RULES §9.3 Harvest (phased, round 2: 1 food): the queued cheese goes back, the grain stays."""
    state = end_of_actions({0: {"goods": {"grain": 1, "cheese": 1}}}, event="harvest")
    queue = [{"type": "harvest", "food": ["cheese"]}, {"type": "pass"}]
    after, left, _ = play_queue(state, queue)
    assert player(after)["goods"]["grain"] == 1 and player(after)["goods"]["cheese"] == 0
    assert left == []


def test_harvest_food_held_no_more_falls_back_to_asking():
    state = end_of_actions({0: {"goods": {"grain": 1, "wine": 1}}}, event="harvest")
    after, _, (verdict, reason) = play_queue(state, [{"type": "harvest", "food": ["cheese"]}, {"type": "pass"}])
    assert engine.awaiting(after) == {0: "harvest"} and reason["code"] == "queue_answer_changed"


def test_harvest_food_is_queued_only_when_the_harvest_is_face_up():
    with pytest.raises(engine.QueueRefused) as caught:
        check_queue(planning_state(event="income"), 0, [{"type": "harvest", "food": ["grain"]}])
    assert caught.value.code == "queue_no_harvest"


def bathhouse_state(drawn_bag):
    """Seat 0's Bathhouse is ready; its bag holds exactly ``drawn_bag`` (all three are drawn)."""
    return action_state({"places": ["bathhouse"], "spaces": {"bathhouse": ["start_farmer"]},
                         "bag": drawn_bag})


def test_the_bathhouse_keeps_by_preference_order():
    """RULES §11 Bathhouse: draw 3, keep up to 2 on empty matching circles; the rest to the bag."""
    state = bathhouse_state({"knight": 1, "scholar": 1, "monk": 1})
    entry = {"type": "activate", "space": "bathhouse",
             "keep": [{"follower": "farmer", "space": "farmhouse"}, {"follower": "knight", "space": "ship"},
                      {"follower": "monk", "space": "monastery"}, {"follower": "scholar", "space": "university"}]}
    after, left, _ = play_queue(state, [entry])
    assert engine.awaiting(after).get(0) != "bathhouse"
    assert player(after)["spaces"] == {"monastery": ["monk"], "ship": ["knight"]}
    assert player(after)["bag"] == {"scholar": 1, "start_farmer": 1}


def test_a_bathhouse_draw_without_a_wanted_follower_goes_back_to_the_bag():
    state = bathhouse_state({"knight": 1, "scholar": 1, "monk": 1})
    entry = {"type": "activate", "space": "bathhouse", "keep": [{"follower": "farmer", "space": "farmhouse"}]}
    after, left, _ = play_queue(state, [entry])
    assert engine.awaiting(after).get(0) != "bathhouse"
    assert player(after)["bag"] == {"knight": 1, "monk": 1, "scholar": 1, "start_farmer": 1}


def test_a_wanted_follower_drawn_with_no_room_left_falls_back_to_asking():
    state = bathhouse_state({"knight": 1, "scholar": 1, "monk": 1})
    entry = {"type": "activate", "space": "bathhouse", "keep": [{"follower": "knight", "space": "castle"}]}
    after, left, (verdict, reason) = play_queue(state, [entry])
    assert engine.awaiting(after) == {0: "bathhouse"}
    assert reason["message"] == "Your queue's answer for the Bathhouse is not possible any more: choose now."
    assert queue_after_move(left, {"type": "bathhouse_done"}) == []


@pytest.mark.parametrize("entry, code", [
    ({"type": "activate", "space": "town_hall", "deeds": [{"follower": "knight", "deed": "nowhere"}]}, "queue_choice"),
    ({"type": "activate", "space": "town_hall", "deeds": []}, "queue_choice"),
    ({"type": "activate", "space": "castle", "deeds": [{"follower": "knight"}]}, "queue_field"),
    ({"type": "activate", "space": "castle", "defaults": True}, "queue_field"),
    ({"type": "activate", "space": "ship", "defaults": 1}, "queue_choice"),
    ({"type": "pass", "technology": [{"space": "castle"}]}, "queue_choice"),
    ({"type": "harvest", "food": ["wool"]}, "queue_choice"),
])
def test_a_malformed_choice_is_refused_with_its_code(entry, code):
    with pytest.raises(engine.QueueRefused) as caught:
        check_queue(planning_state(), 0, [entry])
    assert caught.value.code == code


def test_the_queue_card_reads_each_choice():
    label = engine.describe_queue_entry
    assert label({"type": "activate", "space": "town_hall", "defaults": True}) == \
        "Use Town Hall (any free deed space of its type)"
    assert label({"type": "activate", "space": "town_hall",
                  "deeds": [{"follower": "boatman", "deed": "canalisation", "reward": "development"}]}) == \
        "Use Town Hall: Boatman to Canalisation for a development step"
    assert label({"type": "activate", "space": "ship", "route": "e06", "defaults": True}) == \
        "Use Ship: Orléans–Briare, take the good on the route if there is one"
    assert label({"type": "pass", "technology": [{"space": "village", "circle": "farmer"}]}) == \
        "Pass for the rest of the round; technology tile: the farmer circle of Village"
    assert label({"type": "harvest", "food": ["grain"]}) == "At the Harvest, return grain"


@pytest.mark.parametrize("seed", [3, 4])
def test_the_queue_panels_choices_leave_the_state_as_it_was_and_read_the_plan_as_placed(seed):
    """``queue_options`` shares all but the seat's spaces and plan with the state it reads
    (engine.queue._as_planned): the state stays exactly as it was, and the choices are those
    of a state read back from its snapshot (a whole copy)."""
    import json
    import random

    from engine.queue import queue_options
    from engine.simulate import choose

    rng = random.Random(seed)
    state, checked = engine.new_game(engine.GameOptions(players=4), seed), 0
    while not engine.is_over(state) and checked < 60:
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
            continue
        awaited = engine.awaiting(state)
        for seat in sorted(awaited):
            before = json.dumps(state.data)
            options = queue_options(state, seat)
            assert json.dumps(state.data) == before
            assert options == queue_options(engine.from_json(engine.to_json(state)), seat)
            checked += 1
        seat = rng.choice(sorted(awaited))
        state, _ = engine.apply(state, seat, choose(rng, awaited[seat], engine.legal_actions(state, seat),
                                                    state.data, seat))
    assert checked >= 60
