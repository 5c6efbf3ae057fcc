"""The action queue, pure (engine.queue; RULES §8.7): checking a queue, matching its head
against the legal actions, play / wait / drop on the seat's turn, and the queue after a
manual move. Mirrors the site's tests in tests/games/services/test_action_queue.py and
tests/review/test_review_changes.py without a database."""
from __future__ import annotations

import pytest

import engine
from engine.queue import QUEUE_LIMIT, check_entry, check_queue, matches, next_queued, own_places, queue_after_move
from tests.support.engine_states import BLOCKER, action_state, build, edited, planning_state

CASTLE = ["start_farmer", "start_boatman", "start_trader"]
VILLAGE = ["start_boatman", "start_craftsman", "start_farmer"]
CASTLE_ENTRY = {"type": "activate", "space": "castle"}
PASS = {"type": "pass"}


def refused(state, entries, code, seat=0):
    with pytest.raises(engine.QueueRefused) as caught:
        check_queue(state, seat, entries)
    assert caught.value.code == code
    return caught.value.message


def test_a_queued_action_plays_on_the_seats_turn_then_the_pass():
    state = action_state({"spaces": {"castle": CASTLE}})
    assert next_queued(state, 0, [CASTLE_ENTRY, PASS]) == ("play", CASTLE_ENTRY)
    state = engine.apply(state, 0, CASTLE_ENTRY)[0]
    rest = queue_after_move([CASTLE_ENTRY, PASS], CASTLE_ENTRY)
    assert rest == [PASS]
    assert next_queued(state, 0, rest)[0] == "wait"


def test_two_queues_alternate_until_both_have_passed():
    state = action_state({"spaces": {"castle": CASTLE, "scriptorium": ["knight", "scholar"]}},
                         others={"spaces": {"castle": CASTLE}})
    queues = {0: [CASTLE_ENTRY, {"type": "activate", "space": "scriptorium"}, PASS], 1: [CASTLE_ENTRY, PASS]}
    played = []
    for _ in range(10):
        seat = next((s for s, kind in engine.awaiting(state).items() if kind == "action"), None)
        if seat is None:
            break
        kind, action = next_queued(state, seat, queues[seat])
        assert kind == "play"
        played.append((seat, action["type"], action.get("space")))
        state = engine.apply(state, seat, action)[0]
        queues[seat] = queue_after_move(queues[seat], action)
    # with nothing left to activate the engine makes each pass itself (a forced move)
    assert played == [(0, "activate", "castle"), (1, "activate", "castle"), (0, "activate", "scriptorium")]
    assert engine.game_part(state)[1] != "actions"
    assert queues == {0: [PASS], 1: [PASS]}  # what is left belongs to the round that ended


def test_a_head_that_cannot_be_played_drops_the_queue_with_the_reason():
    state = action_state({"spaces": {"castle": CASTLE}})
    kind, why = next_queued(state, 0, [{"type": "activate", "space": "university"}, PASS])
    assert kind == "drop"
    assert why["code"] == "queue_not_playable" and why["params"]["why"] == "not_ready"
    assert why["message"] == ("Your queue stopped at “Use University”: it could not be played when your turn came, "
                              "so the rest was dropped. The University is not ready: not all its circles are filled.")


def test_a_blocked_place_names_its_rule_when_the_queue_drops():
    state = action_state({"spaces": {"castle": CASTLE}, "tracks": {"knight": 5}})
    kind, why = next_queued(state, 0, [CASTLE_ENTRY])
    assert (kind, why["params"]["why"]) == ("drop", "track_end")
    assert why["message"].endswith("The Castle cannot be used: the Knight track is at its last space.")


def test_a_choice_the_queue_does_not_fix_waits_for_the_player():
    state = action_state({"spaces": {"village": VILLAGE}})
    entry = {"type": "activate", "space": "village"}
    kind, why = next_queued(state, 0, [entry])
    assert (kind, why["code"]) == ("wait", "queue_choice_open")
    assert why["message"] == "Your queue waits at “Use Village”: choose how to use it."
    by_hand = {"type": "activate", "space": "village", "recruit": "boatman"}
    assert queue_after_move([entry, PASS], by_hand) == [PASS]  # the hand-made choice took the head


def test_an_entry_fixing_the_choice_plays():
    state = action_state({"spaces": {"village": VILLAGE}})
    entry = {"type": "activate", "space": "village", "recruit": "boatman"}
    assert next_queued(state, 0, [entry]) == ("play", entry)


def test_the_queue_waits_while_it_is_not_the_seats_action_decision():
    state = action_state({"spaces": {"castle": CASTLE}})
    assert next_queued(state, 1, [CASTLE_ENTRY])[1]["code"] == "queue_not_turn"
    assert next_queued(planning_state(), 0, [CASTLE_ENTRY])[1]["code"] == "queue_not_turn"
    prompt = action_state({"technology_pending": 1, "prompts": [{"kind": "technology"}]})
    assert next_queued(prompt, 0, [CASTLE_ENTRY])[0] == "wait"
    assert next_queued(state, 0, []) == ("wait", {"code": "queue_empty", "params": {}, "message": "Nothing is queued."})


def test_a_manual_pass_empties_the_queue_and_another_move_keeps_it():
    queue = [CASTLE_ENTRY, {"type": "activate", "space": "village"}]
    assert queue_after_move(queue, PASS) == []
    assert queue_after_move(queue, {"type": "activate", "space": "university"}) == queue
    assert queue_after_move(queue, {"type": "submit_plan"}) == queue
    assert queue_after_move([], PASS) == []


def test_matching_needs_every_field_of_the_entry():
    action = {"type": "activate", "space": "ship", "route": "orleans_blois", "good": None}
    assert matches(action, {"type": "activate", "space": "ship"})
    assert matches(action, {"type": "activate", "space": "ship", "good": None})
    assert not matches(action, {"type": "activate", "space": "ship", "good": "wine"})


def test_queue_entries_are_checked_against_the_seats_places_and_the_limit():
    state = planning_state()
    assert refused(state, [{"type": "draw", "count": 2}], "queue_entry") == \
        "Queue an action on one of your places, or passing."
    assert refused(state, [{"type": "activate", "space": "hay_rick"}], "queue_not_own") == \
        "You can only queue actions on your own places."
    assert refused(state, [PASS] * (QUEUE_LIMIT + 1), "queue_limit") == "At most 10 actions can be queued."
    with pytest.raises(engine.QueueRefused):
        check_queue(state, 0, [PASS] * 3, limit=2)


def test_nothing_after_a_pass_and_no_place_twice():
    state = planning_state()
    assert refused(state, [PASS, CASTLE_ENTRY], "queue_after_pass") == \
        "Passing ends your round: nothing can be queued after it."
    assert refused(state, [CASTLE_ENTRY, CASTLE_ENTRY], "queue_place_twice") == \
        "Each place can be used once a round: it is already in your queue."
    assert check_queue(state, 0, [CASTLE_ENTRY, PASS]) == [CASTLE_ENTRY, PASS]


@pytest.mark.parametrize("entry, code", [
    ({"type": "activate", "space": "village", "recruit": "zzz"}, "queue_choice"),
    ({"type": "activate", "space": "village", "recruit": "knight"}, "queue_choice"),
    ({"type": "activate", "space": "ship", "route": "nowhere"}, "queue_choice"),
    ({"type": "activate", "space": "ship", "route": "e11"}, "queue_choice"),  # Chartres–Orléans: a road, not a waterway
    ({"type": "activate", "space": "castle", "recruit": "boatman"}, "queue_field"),
    ({"type": "activate", "space": ["castle"]}, "queue_not_own"),
    ({"type": "activate", "space": "sacristy"}, "queue_not_action"),  # owned, but no action (RULES §11)
    ({"type": ["activate"], "space": "castle"}, "queue_entry"),
    ({"type": "activate", "space": "village", "recruit": ["boatman"]}, "queue_choice"),
    ("pass", "queue_entry"),
    (None, "queue_entry"),
])
def test_a_malformed_entry_is_refused_with_its_code(entry, code):
    state = planning_state({0: {"places": ["sacristy"]}})
    with pytest.raises(engine.QueueRefused) as caught:
        check_entry(state, 0, entry)
    assert caught.value.code == code and caught.value.message


def test_the_pharmacys_coins_range_comes_from_its_data():
    state = planning_state({0: {"places": ["pharmacy"]}})
    assert check_entry(state, 0, {"type": "activate", "space": "pharmacy", "coins": 3})["coins"] == 3
    for bad in (0, 4, True, 2.0, "2"):
        with pytest.raises(engine.QueueRefused):
            check_entry(state, 0, {"type": "activate", "space": "pharmacy", "coins": bad})


def test_a_queue_is_set_only_while_planning_or_in_the_action_phase():
    state = build("event")
    assert refused(state, [PASS], "queue_phase") == "Actions can be queued while planning and during the action phase."
    assert check_queue(action_state({"spaces": BLOCKER}), 0, [PASS]) == [PASS]


def test_own_places_are_the_board_spaces_and_the_tiles_with_an_action():
    state = planning_state({0: {"places": ["hay_rick", "herb_garden", "sacristy", "gunpowder_tower"]}})
    places = own_places(state, 0)
    assert places[:10] == list(engine.content.BOARD_SPACES)
    assert places[10:] == ["hay_rick", "gunpowder_tower"]


def test_describe_queue_entry_reads_as_the_queue_card():
    assert engine.describe_queue_entry(CASTLE_ENTRY) == "Use Castle"
    assert engine.describe_queue_entry(PASS) == "Pass for the rest of the round"
    assert engine.describe_queue_entry({"type": "activate", "space": "village", "recruit": "boatman"}) == \
        "Use Village: recruit a Boatman"
    assert engine.describe_queue_entry({"type": "activate", "space": ["x"]}) == "An action that cannot be read"


def test_a_timeout_stops_when_the_part_of_the_game_changes():
    state = action_state({"spaces": {"castle": CASTLE}}, others={"passed": True}, blockers=False)
    before = engine.game_part(state)
    assert before == (2, "actions")
    after = engine.apply(state, 0, PASS)[0]
    assert engine.game_part(after) != before


def test_the_queue_never_depends_on_another_seats_hidden_information():
    """next_queued reads only the seat's own decision: other seats' bags (hidden, RULES §8.3) and the
    seat's own bag order change nothing."""
    base = action_state({"spaces": {"castle": CASTLE, "village": VILLAGE}, "bag": {"knight": 2}},
                        others={"spaces": BLOCKER, "bag": {"monk": 3}})
    other = action_state({"spaces": {"castle": CASTLE, "village": VILLAGE}, "bag": {"knight": 2}},
                         others={"spaces": BLOCKER, "bag": {"farmer": 1, "scholar": 5}})
    for queue in ([CASTLE_ENTRY], [{"type": "activate", "space": "village"}], [{"type": "activate", "space": "ship"}],
                  [PASS], []):
        assert next_queued(base, 0, queue) == next_queued(other, 0, queue)
        assert next_queued(base, 1, queue) == next_queued(other, 1, queue)  # not seat 1's turn: wait


def test_a_queued_village_whose_recruit_ran_out_waits_naming_the_recruits_reason():
    state = edited(action_state({"spaces": {"village": VILLAGE}}),
                   lambda d: d["supply"]["followers"].update(boatman=0))
    queue = [{"type": "activate", "space": "village", "recruit": "boatman"}, PASS]
    verdict, reason = next_queued(state, 0, queue)
    assert verdict == "wait" and reason["code"] == "queue_choice_illegal"
    assert reason["params"]["why"] == "character_supply_empty"
    assert reason["message"] == ("Your queue waits at “Use Village: recruit a Boatman”: that choice is not possible "
                                 "now, so choose how to use it. "
                                 "The Village cannot recruit a Boatman: no Boatmen are left in the supply.")
    by_hand = {"type": "activate", "space": "village", "recruit": "craftsman"}
    assert queue_after_move(queue, by_hand) == [PASS]


def test_using_a_queued_place_by_hand_removes_its_entry_wherever_it_stands():
    ship = {"type": "activate", "space": "ship"}
    assert queue_after_move([ship, CASTLE_ENTRY, PASS], CASTLE_ENTRY) == [ship, PASS]
