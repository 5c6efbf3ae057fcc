"""``engine.plan_circles``: one place of a seat's own ``plan_circles``, built without the
whole view, equals what the view gives (RULES §8.4 planning, §8.7 the matching)."""
import random

import pytest

import engine
from engine.simulate import choose


def _planning_states(seed: int, count: int):
    """Up to ``count`` states of a random 4-player game where some seat plans, with that seat."""
    rng = random.Random(seed)
    state, found = engine.new_game(engine.GameOptions(players=4), seed), []
    while not engine.is_over(state) and len(found) < count:
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
            continue
        awaited = engine.awaiting(state)
        seat = rng.choice(sorted(awaited))
        if awaited[seat] == "plan":
            found.append((state, seat))
        state, _ = engine.apply(state, seat, choose(rng, awaited[seat], engine.legal_actions(state, seat),
                                                    state.data, seat))
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_place_after_every_legal_placement_equals_the_views(seed):
    checked = 0
    for state, seat in _planning_states(seed, 40):
        for action in engine.legal_actions(state, seat):
            if action["type"] != "place":
                continue
            placed, _ = engine.apply(state, seat, action)
            whole = engine.view(placed, seat)["players"][seat]["plan_circles"]
            for place_id in {*whole, action["space"], "castle", "town_hall"}:
                assert engine.plan_circles(placed, seat, place_id) == whole.get(place_id)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("seed", [4, 5])
def test_the_circles_of_a_placement_not_made_equal_those_after_making_it(seed):
    checked = 0
    for state, seat in _planning_states(seed, 40):
        before = engine.to_json(state)
        for action in engine.legal_actions(state, seat):
            if action["type"] == "place":
                placed, _ = engine.apply(state, seat, action)
                assert engine.plan_circles(state, seat, action["space"], placing=action["follower"]) \
                    == engine.plan_circles(placed, seat, action["space"])
                checked += 1
        assert engine.to_json(state) == before  # nothing was placed
    assert checked > 100


def test_a_placement_apply_would_refuse_is_refused_alike():
    state, seat = _planning_states(6, 1)[0]
    market = state.data["players"][seat]["market"]
    absent = next(f for f in ("farmer", "boatman", "craftsman", "trader", "knight", "scholar", "monk")
                  if f not in market)
    for follower, space in ((absent, "castle"), (market[0], "no_such_place")):
        placement = {"type": "place", "follower": follower, "space": space}
        with pytest.raises(engine.IllegalAction) as applied:
            engine.apply(state, seat, placement)
        with pytest.raises(engine.IllegalAction) as asked:
            engine.plan_circles(state, seat, space, placing=follower)
        assert (asked.value.code, asked.value.params) == (applied.value.code, applied.value.params)


def test_a_placement_in_a_finished_game_is_refused_as_apply_refuses_it():
    from engine.simulate import play_game

    over = play_game(engine.GameOptions(players=2), 8, check=False)["state"]
    for seat in (0, 3, -1, True, None):  # the game's end first, as apply says it
        with pytest.raises(engine.GameOver):
            engine.apply(over, seat, {"type": "place", "follower": "farmer", "space": "castle"})
        with pytest.raises(engine.GameOver):
            engine.plan_circles(over, seat, "castle", placing="farmer")


def test_a_place_with_nothing_on_it_has_no_circles():
    state = engine.new_game(engine.GameOptions(players=2), 5)
    assert engine.plan_circles(state, 0, "castle") is None


def test_a_seat_not_in_the_game_is_refused():
    state = engine.new_game(engine.GameOptions(players=2), 5)
    with pytest.raises(engine.NotYourTurn):
        engine.plan_circles(state, 3, "castle")
