"""The random playouts' plan policy (engine.simulate._best_placement) picks, among placements
in the order given, the first that fills its space, else the first on the Town Hall or on a
space the rest of the market can still complete, else none. Checked against a direct
reading of that rule (every combination of market tiles tried with steps.space_fits) on the
planning positions of a random game (tests.engine.bot_positions), each with its placements in several random orders."""
from __future__ import annotations

import random
from itertools import combinations

import engine
from engine.flow import awaiting_data
from engine.simulate import _best_placement
from engine.steps import free_circles, space_fits
from tests.engine.bot_positions import positions


def planned_tiles(p: dict, space: str) -> list[str]:
    return list(p["spaces"].get(space, [])) + [t for sp, t in p["plan"] if sp == space]


def completable(p: dict, action: dict) -> bool:
    """The space of ``action`` can be filled with its tile and some of the rest of the market."""
    space, tile = action["space"], action["follower"]
    tiles = planned_tiles(p, space) + [tile]
    missing = len(free_circles(p, space)) - len(tiles)
    market = list(p["market"])
    market.remove(tile)
    return any(space_fits(p, space, tiles + list(extra)) for extra in combinations(market, missing))


def expected(places: list[dict], p: dict) -> dict | None:
    for a in places:
        if a["space"] != "town_hall" and len(free_circles(p, a["space"])) - len(planned_tiles(p, a["space"])) == 1:
            return a
    for a in places:
        if a["space"] == "town_hall" or completable(p, a):
            return a
    return None


def test_the_plan_policy_picks_a_filling_placement_then_a_completable_one():
    rng = random.Random(4)
    seen = set()
    for state, seat in positions(engine.GameOptions(players=4), 4):
        if state.data["round"] > 6:
            break
        if awaiting_data(state.data)[seat] != "plan":
            continue
        p = state.data["players"][seat]
        places = [a for a in engine.legal_actions(state, seat) if a["type"] == "place"]
        for _ in range(3):
            rng.shuffle(places)
            best = _best_placement(places, p)
            assert best is expected(places, p)
            seen.add(None if best is None else best["space"] == "town_hall")
    assert {True, False} <= seen
