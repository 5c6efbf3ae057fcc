"""The decision panel's forms (games.presenters.decisions)."""
import engine
from games.presenters.decisions import decision_forms

PASS = {"action": {"type": "pass"}, "label": "Pass for the rest of the round"}
CASTLE = {"action": {"type": "activate", "space": "castle"}, "label": "Use Castle"}


def test_passing_with_an_action_ready_asks_for_confirmation():
    forms = decision_forms(engine, "action", [CASTLE, PASS], None)
    passing = next(f for f in forms if f.key == "pass")
    assert "actions ready" in passing.confirm


def test_passing_with_nothing_ready_asks_nothing():
    forms = decision_forms(engine, "action", [PASS], None)
    assert [f.confirm for f in forms] == [""]


def test_the_lobby_shows_options_in_the_forms_words():
    from games.forms import describe_options

    rows = describe_options({"players": 3, "simultaneous_followers": True, "place_tile_market": "market5",
                             "event_strength": "phased", "hourglass_order": "abc"})
    assert rows[0] == ("Simultaneous Followers phase", "On: everyone draws at once")
    assert rows[1][1].startswith("Market of 5")
    assert len(rows) == 4
