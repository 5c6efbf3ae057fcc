"""A torture debt paid at once (``pay_debt``) gives exactly the state and events of the same
items given one ``torture`` action at a time (RULES §10.1, §14.3): the whole payment is
validated and applied item by item, and the engine's own steps after the last item (the
only item left given, nothing left forgiven) are the same."""
from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings, strategies as st

import engine
from engine.flow import advance
from engine.state import GameState, clone
from tests.support.engine_states import build, without_undo

PLACES = ("brewery", "cellar", "gunpowder_tower")


def settled(state: engine.GameState) -> engine.GameState:
    """``state`` after the engine's automatic steps, as every stored position is (a built
    state may still hold another seat's forced draw)."""
    data = clone(state.data)
    advance(data, [])
    return GameState(data)


@st.composite
def tortured_states(draw):
    """Seat 0 owes 1–9 coins (Taxes in the event phase, or the census while planning) and
    holds a random mix of every kind of item."""
    development = draw(st.integers(0, 20))
    places = draw(st.lists(st.sampled_from(PLACES), unique=True, max_size=3))
    covered = {"castle": "farmer", "cellar": "scholar"}  # a circle each may cover (RULES §8.6)
    technology = {pl: covered[pl] for pl in draw(st.lists(st.sampled_from(["castle", "cellar"]), unique=True))
                  if pl == "castle" or pl in places}
    fields = {
        "coins": 0,
        "stations_left": draw(st.integers(0, 3)),
        "bag": {"knight": draw(st.integers(0, 2)), "monk": draw(st.integers(0, 1)),
                "start_farmer": draw(st.integers(0, 1))},
        "development": development,
        "development_coins": [c for c in (7, 12) if c <= development],
        "goods": {"wool": draw(st.integers(0, 3)), "grain": draw(st.integers(0, 2))},
        "places": places,
        "technology": technology,
        "technology_pending": draw(st.integers(0, 1)),
    }
    fields["bag"] = {t: n for t, n in fields["bag"].items() if n}
    stations = {"blois": [0]} if draw(st.booleans()) else {}
    seed = draw(st.integers(1, 50))
    debt = draw(st.integers(1, 9))
    if draw(st.booleans()):
        fields["prompts"] = [{"kind": "torture", "debt": debt, "reason": "taxes"}]
        return settled(build("event", {0: fields}, round=2, event="taxes", stations=stations, seed=seed))
    fields["prompts"] = [{"kind": "torture", "debt": debt, "reason": "census"}]
    fields["bag"]["farmer"] = 1  # the draw after the census is then a real decision
    return settled(build("planning", {0: fields}, stage="draw", stations=stations, seed=seed))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=tortured_states(), data=st.data())
def test_paying_a_whole_debt_at_once_equals_paying_item_by_item(state, data):
    assume(engine.awaiting(state).get(0) == "torture")
    one_by_one, events, items = state, [], []
    while engine.awaiting(one_by_one).get(0) == "torture":
        legal = engine.legal_actions(one_by_one, 0)
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="item")]
        one_by_one, ev = engine.apply(one_by_one, 0, action)
        events += ev
        items.append({k: v for k, v in action.items() if k != "type"})
    whole, whole_events = engine.apply(state, 0, {"type": "pay_debt", "items": items})
    # the same game; only the take-back record differs (one decision, or one per item)
    assert without_undo(whole) == without_undo(one_by_one)
    assert whole_events == events
