"""Places, hourglass events and track steps described in the active language
(``games.descriptions``, issue 11): in English exactly the engine's own lines, in Japanese
without a Latin word."""
from __future__ import annotations

import pytest
from django.utils import translation

from games import descriptions
from games.rules import engine_named
from tests.support.japanese import english_left

RULES = engine_named("orleans")
EVENT_CASES = [(e, letter, strength) for e in RULES.content.EVENTS for letter in "ABC"
               for strength in RULES.content.EVENT_EFFECTS]


def test_every_place_reads_in_english_as_the_engine_describes_it():
    with translation.override("en-gb"):
        assert {p: descriptions.describe_place(RULES, p) for p in RULES.content.PLACES} == {
            p: RULES.describe_place(p) for p in RULES.content.PLACES}


@pytest.mark.parametrize("event,letter,strength", EVENT_CASES)
def test_every_event_reads_in_english_as_the_engine_describes_it(event, letter, strength):
    with translation.override("en-gb"):
        assert descriptions.describe_event(RULES, event, letter, strength) == RULES.describe_event(event, letter, strength)


def test_every_track_step_reads_in_english_as_the_engine_names_it():
    with translation.override("en-gb"):
        assert descriptions.track_rewards(RULES) == RULES.track_rewards()


def test_in_japanese_no_description_has_a_latin_word():
    with translation.override("ja"):
        lines = [descriptions.describe_place(RULES, p) for p in RULES.content.PLACES]
        lines += [descriptions.describe_event(RULES, *case) for case in EVENT_CASES]
        lines += [step for steps in descriptions.track_rewards(RULES).values() for step in steps]
    assert [line for line in lines if english_left(line)] == []


def queue_option_positions():
    """``(state, seat)`` of sampled games where ``seat`` plans or acts: its queue panel
    offers choices then."""
    from tests.support.act_board import sampled_positions

    found = sampled_positions()
    return found.get("plan", []) + found.get("action", [])


def test_every_queue_choice_gives_in_english_what_the_engine_says():
    import engine
    from engine.queue import queue_options

    checked = 0
    with translation.override("en-gb"):
        for state, seat in queue_option_positions():
            me = engine.view(state, seat)["players"][seat]
            for option in queue_options(state, seat):
                if option["gives"]:
                    assert descriptions.queue_gives(RULES, me, option["entry"]) == option["gives"], option
                    checked += 1
    assert checked > 20


def test_in_japanese_no_queue_choice_has_a_latin_word():
    import engine
    from engine.queue import queue_options

    with translation.override("ja"):
        lines = [descriptions.queue_gives(RULES, engine.view(state, seat)["players"][seat], option["entry"])
                 for state, seat in queue_option_positions() for option in queue_options(state, seat)
                 if option["gives"]]
    assert lines and [line for line in lines if english_left(line)] == []
