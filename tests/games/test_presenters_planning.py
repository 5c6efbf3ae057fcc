"""The planning board's presenter (games.presenters.planning): the circle a target lights is
the one the engine's matching puts the follower on, a draft is replayed through the engine
and comes back in short form, and only planning edits are read as a draft."""
import json

import pytest

import engine
from games.presenters.planning import MAX_DRAFT, apply_draft, parse_draft, plan_context
from tests.support import engine_states as H


def context(state, seat=0):
    view = engine.view(state, seat)
    items = [{"action": a, "label": engine.describe_action(a, state, seat)} for a in engine.legal_actions(state, seat)]
    return plan_context(engine, state, seat, view, items, key="g:0:2", draft=[], sent="")


def lit(ctx) -> list[tuple]:
    """``(place, circle index, follower)`` of every target."""
    return [(card["id"], i, follower) for card in ctx["cards"] for i, slot in enumerate(card["slots"])
            for follower in slot["targets"]]


@pytest.mark.parametrize("market", [
    ["start_farmer", "knight", "scholar", "monk"],
    ["boatman", "craftsman", "trader", "monk", "farmer"],
])
def test_each_lit_circle_is_the_free_circle_the_engine_puts_the_follower_on(market):
    state = H.planning_state({0: {"market": market, "spaces": {"castle": ["farmer"]}}})
    ctx = context(state)
    assert lit(ctx)
    for place, index, follower in lit(ctx):
        after = engine.view(H.act(state, type="place", follower=follower, space=place), 0)
        circles = after["players"][0]["plan_circles"][place]
        before = engine.view(state, 0)["players"][0]["plan_circles"].get(place)
        assert before is None or before[index]["tile"] is None  # a free circle
        assert circles[index] == {"tile": follower, "planned": True, "technology": False}


def test_a_monk_lights_one_circle_on_every_place_it_may_go_on():
    state = H.planning_state({0: {"market": ["monk"]}})
    ctx = context(state)
    places = sorted(a["space"] for a in engine.legal_actions(state, 0) if a["type"] == "place")
    assert sorted(place for place, _i, _f in lit(ctx)) == places
    assert ctx["market"] == [{"tile": "monk", "count": 1, "name": engine.follower_name("monk"),
                              "targets": len(places)}]


def test_the_same_board_lights_the_same_circles_without_asking_the_engine_again():
    """Another seat's move rebuilds a planning page with the same own board: its targets
    are those of the first build, without an ``apply`` per target (planning._LANDINGS);
    a board that differs is worked out afresh."""
    from unittest import mock

    state = H.planning_state({0: {"market": ["boatman", "craftsman", "trader", "monk"], "spaces": {"castle": ["farmer"]}}})
    first = context(state)
    with mock.patch.object(engine, "apply", side_effect=AssertionError("asked again")):
        assert context(state) == first
    other = H.act(state, type="place", follower="monk", space="village")
    assert lit(context(other)) != lit(first)


def test_a_draft_comes_back_as_take_backs_then_placements_from_the_stored_plan():
    state = H.act(H.planning_state({0: {"market": ["boatman", "craftsman", "farmer"]}}),
                  type="place", follower="farmer", space="village")
    edits = [{"type": "place", "follower": "boatman", "space": "farmhouse"},
             {"type": "unplace", "follower": "farmer", "space": "village"},
             {"type": "place", "follower": "craftsman", "space": "farmhouse"},
             {"type": "unplace", "follower": "craftsman", "space": "farmhouse"},
             {"type": "place", "follower": "craftsman", "space": "farmhouse"}]
    drafted, short = apply_draft(engine, state, 0, edits)
    assert short == [{"type": "unplace", "follower": "farmer", "space": "village"},
                     {"type": "place", "follower": "boatman", "space": "farmhouse"},
                     {"type": "place", "follower": "craftsman", "space": "farmhouse"}]
    assert sorted(drafted.data["players"][0]["plan"]) == [["farmhouse", "boatman"], ["farmhouse", "craftsman"]]
    assert H.without_undo(apply_draft(engine, state, 0, short)[0]) == H.without_undo(drafted)
    assert state.data["players"][0]["plan"] == [["village", "farmer"]]  # the state itself is untouched


def test_the_submit_sends_the_whole_plan_shown():
    state = H.act(H.planning_state({0: {"market": ["boatman", "craftsman"]}}),
                  type="place", follower="boatman", space="farmhouse")
    assert context(state)["submit"]["action"] == {
        "type": "submit_plan", "placements": [{"follower": "boatman", "space": "farmhouse"}]}


@pytest.mark.parametrize("raw", [None, "", "nope", "{}", "[1]", '[{"type": "pass"}]',
                                 '[{"type": "place", "follower": "farmer"}]',
                                 '[{"type": "place", "follower": "farmer", "space": "castle", "x": 1}]',
                                 json.dumps([{"type": "place", "follower": "farmer", "space": "castle"}] * (MAX_DRAFT + 1)),
                                 "[" * 100_000])
def test_only_a_short_list_of_planning_edits_is_a_draft(raw):
    assert parse_draft(raw) == []


def test_a_list_of_planning_edits_is_read_as_it_is():
    edits = [{"type": "place", "follower": "farmer", "space": "castle"},
             {"type": "unplace", "follower": "farmer", "space": "castle"}]
    assert parse_draft(json.dumps(edits)) == edits


def test_a_draft_too_long_to_read_is_not_echoed():
    state = H.planning_state({0: {"market": ["boatman"]}})
    view = engine.view(state, 0)
    items = [{"action": a, "label": ""} for a in engine.legal_actions(state, 0)]
    assert plan_context(engine, state, 0, view, items, key="k", draft=[], sent="[" * 10_000)["sent"] == ""
