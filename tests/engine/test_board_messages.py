"""The board's texts are engine messages (id and params): a place's effect, the hourglass
tile's effect and each character track step; their English is the describe functions'."""
import pytest

import engine
from engine import content as C
from engine.messages import CATALOG, text


@pytest.mark.parametrize("place_id", sorted(C.PLACES))
def test_every_places_description_is_the_text_of_its_message(place_id):
    msg = engine.place_message(place_id)
    assert msg["msg"] in CATALOG
    assert text(msg) == engine.describe_place(place_id)


def test_a_board_space_reads_its_rule_text_from_the_component_data():
    assert engine.place_message("castle") == {"msg": "place_rule.castle", "params": {}}
    assert engine.describe_place("castle") == "Recruit knight; knight track +1"


def test_gains_and_circle_names_are_joined_with_and():
    assert engine.describe_place("windmill") == "Gain 2 coins and 1 development step"
    assert engine.describe_place("herb_garden") == ("Permanent: your Boatmen may fill Farmer, Craftsman and Trader "
                                                    "circles (not on beneficial deeds)")


def test_an_unknown_place_has_no_message():
    with pytest.raises(KeyError):
        engine.place_message("moon")


@pytest.mark.parametrize("letter", "ABC")
@pytest.mark.parametrize("strength", ["phased", "constant"])
@pytest.mark.parametrize("event", list(C.EVENTS))
def test_every_events_description_is_the_text_of_its_message(event, letter, strength):
    assert text(engine.event_message(event, letter, strength)) == engine.describe_event(event, letter, strength)


def test_the_event_message_carries_the_phases_amount():
    assert engine.event_message("income", "B", "phased") == {"msg": "event_effect.income", "params": {"coins": 2}}
    assert engine.event_message("eclipse") is None and engine.describe_event("eclipse") == ""


def test_every_track_step_is_the_text_of_its_message():
    structured = engine.track_reward_messages()
    assert {t: [text(m) for m in steps] for t, steps in structured.items()} == engine.track_rewards()
    assert structured["knight"][C.KNIGHT_CITIZEN_STEP - 1]["msg"] == "track_reward.draw_citizen"
