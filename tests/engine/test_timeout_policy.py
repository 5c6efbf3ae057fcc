"""The timeout policy (engine.policy): a predictable legal default for every decision."""

import engine
from engine.state import clone
from engine.simulate import play_game


def with_data(state, edit):
    data = clone(state.data)
    edit(data)
    return engine.GameState(data)


def test_every_awaited_seat_gets_a_legal_default_until_the_game_ends():
    state = engine.new_game(engine.GameOptions(players=3), 4)
    steps = 0
    while not engine.is_over(state):
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
            continue
        seat = min(engine.awaiting(state))
        action = engine.timeout_action(state, seat)
        assert action in engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, action)
        steps += 1
    assert engine.outcome(state) is not None and steps > 18


def test_not_awaited_seat_has_no_default():
    state = engine.new_game(engine.GameOptions(players=2), 4)
    state, _ = engine.apply(state, 0, {"type": "submit_plan"})
    assert engine.timeout_action(state, 0) is None


def test_planning_submits_the_plan_as_it_stands():
    state = engine.new_game(engine.GameOptions(players=2), 4)
    state, _ = engine.apply(state, 1, {"type": "place", "follower": "start_farmer", "space": "castle"})
    assert engine.timeout_action(state, 1) == {"type": "submit_plan"}


def test_torture_gives_the_cheapest_item_first():
    """RULES §10.1: the default gives a grain before wine, before a development step."""
    state = engine.new_game(engine.GameOptions(players=2), 4)

    def edit(d):
        p = d["players"][0]
        p["goods"].update(grain=0, wine=1, cheese=1)
        p["development"] = 5
        p["prompts"] = [{"kind": "torture", "debt": 1, "reason": "taxes"}]

    state = with_data(state, edit)
    assert engine.awaiting(state)[0] == "torture"
    assert engine.timeout_action(state, 0) == {"type": "torture", "item": "good", "good": "cheese"}


def test_harvest_returns_grain_before_wine():
    state = engine.new_game(engine.GameOptions(players=2), 4)

    def edit(d):
        d["phase"] = "event"
        p = d["players"][1]
        p["goods"].update(grain=1, wine=2)
        p["prompts"] = [{"kind": "harvest", "food": 2}]
        for q in d["players"]:
            q["stage"] = None

    state = with_data(state, edit)
    assert engine.timeout_action(state, 1) == {"type": "return_food", "food": ["grain", "wine"]}


def test_action_phase_default_is_pass():
    result = play_game(engine.GameOptions(players=2), 8, check=False)
    assert engine.is_over(result["state"])
    state = engine.new_game(engine.GameOptions(players=2), 8)
    for seat, action in result["log"]:
        state = engine.resolve(state)[0] if seat is None else engine.apply(state, seat, action)[0]
        awaited = engine.awaiting(state)
        if "action" in awaited.values():
            seat = next(s for s, k in awaited.items() if k == "action")
            assert engine.timeout_action(state, seat) == {"type": "pass"}
            return
    raise AssertionError("no action phase decision met")
