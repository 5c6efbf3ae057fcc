"""Any JSON value an action may be is refused with :class:`engine.MalformedAction` when it
is not an action, never with another exception, and the state is unchanged (issue 7 item 2)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import engine
from engine.state import clone
from tests.support.engine_states import action_state, planning_state

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TYPES = st.sampled_from(sorted(engine.ACTION_SPECS)) | JSON
FIELD_NAMES = st.sampled_from(["space", "follower", "count", "placements", "recruit", "deeds", "food", "item",
                               "good", "coins", "circle", "route", "place_tile", "town", "place"]) | st.text(max_size=6)
ACTIONS = JSON | st.builds(lambda t, rest: {"type": t, **rest}, TYPES, st.dictionaries(FIELD_NAMES, JSON, max_size=4))

ODD = [None, 0, 1.5, "pass", [], [{"type": "pass"}], {}, {"type": None}, {"type": ["pass"]}, {"type": {"a": 1}},
       {"type": 3}, {"type": True}, {"type": "place", "follower": {}, "space": []},
       {"type": "submit_plan", "placements": [[[]]]}, {"type": "activate", "space": "town_hall", "deeds": [1]},
       {"type": "activate", "space": "town_hall", "deeds": [{"follower": [], "deed": "x"}]},
       {"type": "return_food", "food": [None, ["grain"]]}, {"type": "draw", "count": -1}]


def _refused_cleanly(state, action) -> None:
    before = clone(state.data)
    try:
        engine.apply(state, 0, action)
    except engine.MalformedAction as err:
        assert err.code == "malformed" and err.message == "That move could not be read."
    except engine.RulesError as err:  # well-formed but not legal now
        assert isinstance(err.code, str) and isinstance(err.message, str) and err.message
    assert state.data == before


@pytest.mark.parametrize("action", ODD, ids=[repr(a)[:40] for a in ODD])
def test_an_odd_json_value_is_a_malformed_action(action):
    with pytest.raises(engine.MalformedAction):
        engine.apply(planning_state(), 0, action)


@settings(max_examples=300, deadline=None)
@given(ACTIONS)
def test_any_json_value_is_refused_as_a_rules_error_in_planning(action):
    _refused_cleanly(planning_state({0: {"market": ["knight", "farmer"]}}), action)


@settings(max_examples=300, deadline=None)
@given(ACTIONS)
def test_any_json_value_is_refused_as_a_rules_error_in_the_action_phase(action):
    _refused_cleanly(action_state({"spaces": {"castle": ["start_farmer", "start_boatman", "start_trader"]}}), action)
