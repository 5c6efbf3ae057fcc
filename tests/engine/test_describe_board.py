"""English for the board from the engine (issue 7 item 1; RULES §5, §6, §9.3, §11): what
each place and event does, follower names and letters, and each track step's reward.
The strings are the ones the site's board shows."""
from __future__ import annotations

import engine
from engine import content as C


def test_places_are_described_from_their_effect_records():
    assert engine.describe_place("hay_rick") == "Take 1 grain"
    assert engine.describe_place("windmill") == "Gain 2 coins and 1 development step"
    assert engine.describe_place("hospital") == "Gain 1 coin per development level"
    assert engine.describe_place("office") == "Gain 1 coin per trading station built"
    assert engine.describe_place("pharmacy") == "Pay 1–3 coins: 1 development step per coin"
    assert engine.describe_place("herb_garden") == ("Permanent: your Boatmen may fill Farmer, Craftsman and "
                                                    "Trader circles (not on beneficial deeds)")
    assert engine.describe_place("school") == ("Permanent: your Scholars may fill Farmer, Boatman, Craftsman, "
                                               "Trader and Knight circles (not on beneficial deeds)")
    assert engine.describe_place("bathhouse") == ("Draw 3 from your bag, keep 2 and put them at once on your action "
                                                  "spaces")
    assert engine.describe_place("castle") == "Recruit knight; knight track +1"


def test_every_place_has_a_line():
    assert all(engine.describe_place(p) for p in C.PLACES)


def test_events_are_described_by_phase_and_strength():
    assert engine.describe_event("income", "B") == "+2 coins per development level"
    assert engine.describe_event("pilgrimage") == "No Monastery action this round"
    assert engine.describe_event("harvest", "A").startswith("Return 1 food (grain, cheese or wine), or pay")
    assert engine.describe_event("nothing") == ""
    assert engine.event_name("trading_day") == "Trading day"


def test_follower_names_and_letters():
    assert engine.follower_name("start_farmer") == "starting Farmer"
    assert engine.follower_name("knight") == "Knight"
    assert engine.follower_name("any") == "any follower"
    assert [engine.follower_letter(t) for t in C.FOLLOWER_TYPES] == ["F", "B", "C", "T", "S", "K", "M"]
    assert engine.follower_letter("start_knight") == "K" and engine.follower_letter("any") == "?"
    assert engine.place_name("town_hall") == "Town Hall"


def test_the_boatmans_citizen_step_is_read_from_the_data():
    boatman = engine.track_rewards()["boatman"]
    assert len(boatman) == C.TRACK_LENGTH["boatman"]
    assert boatman[C.BOATMAN_CITIZEN_STEP - 1] == f"citizen / {C.BOATMAN_TRACK_COINS[C.BOATMAN_CITIZEN_STEP - 1]} coins"
    assert engine.track_rewards()["knight"][C.KNIGHT_CITIZEN_STEP - 1].endswith(" + citizen")
