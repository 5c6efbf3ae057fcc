"""What the greedy bot does in small situations (issue #10), and strong without budget."""

import random

import pytest

import engine
from engine import content as C
from engine import steps as S
from engine.bots import choose, get_bot

from .bot_positions import position_where


def _plan_with_greedy(state, seat):
    rng = random.Random(1)
    while engine.awaiting(state).get(seat) == "plan":
        action = choose("greedy", engine.view(state, seat), engine.legal_actions(state, seat), rng)
        state, _ = engine.apply(state, seat, action)
    return state


def test_greedy_completes_every_place_it_plans_on_in_round_one():
    state = engine.new_game(engine.GameOptions(players=2), seed=1)
    while engine.awaiting(state).get(0) != "plan":
        state, _ = engine.apply(state, 0, {"type": "draw", "count": 0})
    state = _plan_with_greedy(state, 0)
    plan = state.data["players"][0]["plan"]
    assert plan, "the four starting followers complete several places: greedy plans at least one"
    planned = {sp for sp, _t in plan}
    board = {"spaces": {}, "technology": {}, "places": []}
    for sp, tile in plan:
        S.put_on_space(board, sp, tile)
    assert all(S.is_full(board, sp) for sp in planned)


def test_greedy_returns_its_cheapest_food_at_a_harvest():
    def harvest_with_choice(state, seat):
        p = state.data["players"][seat]
        kinds = [g for g in C.FOOD if p["goods"][g]]
        return engine.awaiting(state).get(seat) == "harvest" and len(kinds) > 1
    state, seat = position_where(engine.GameOptions(players=4, event_strength="constant"), 9, harvest_with_choice)
    p = state.data["players"][seat]
    cheapest = next(g for g in C.FOOD if p["goods"][g])
    action = choose("greedy", engine.view(state, seat), engine.legal_actions(state, seat), random.Random(0))
    assert action["food"] == [cheapest]


def test_greedy_draws_as_many_followers_as_it_may_when_the_bag_can_fill_the_draw():
    def full_draw_possible(state, seat):
        p = state.data["players"][seat]
        return engine.awaiting(state).get(seat) == "draw" and sum(p["bag"].values()) >= 6
    state, seat = position_where(engine.GameOptions(players=3), 2, full_draw_possible)
    legal = engine.legal_actions(state, seat)
    most = max(a["count"] for a in legal if a["type"] == "draw")
    assert choose("greedy", engine.view(state, seat), legal, random.Random(0)) == {"type": "draw", "count": most}


def test_strong_without_budget_plays_the_greedy_choice():
    def action_with_choice(state, seat):
        return engine.awaiting(state).get(seat) == "action" and len(engine.legal_actions(state, seat)) > 3
    state, seat = position_where(engine.GameOptions(players=4), 6, action_with_choice)
    seen, legal = engine.view(state, seat), engine.legal_actions(state, seat)
    greedy = get_bot("greedy").choose(seen, legal, random.Random(3), 0.0)
    assert get_bot("strong").choose(seen, legal, random.Random(3), 0.0) == greedy
    assert any(greedy is a for a in legal), "the protocol returns an element of legal_actions"


def test_choose_refuses_an_empty_list_and_an_unknown_level():
    seen = engine.view(engine.new_game(engine.GameOptions(players=2), seed=1), 0)
    with pytest.raises(ValueError, match="no legal action"):
        choose("greedy", seen, [], random.Random(0))
    with pytest.raises(KeyError):
        choose("grandmaster", seen, [{"type": "pass"}], random.Random(0))
