"""``apply`` checks a submitted action against the legal list narrowed to it (the same legal
function, given ``only``): on random states an action is in the narrowed list exactly when
it is in the whole list, and the narrowed list holds only entries of the whole list. The
followers' cheap "more than one choice" test (engine.flow's forced moves) equals the list's
length too."""
from __future__ import annotations

import random

import pytest

import engine
from engine import content as C
from engine.actions import normalize
from engine.flow import _narrowed_legal, awaiting_data, legal_data
from engine.phases import followers
from engine.simulate import choose
from engine.state import clone


def states(options: dict, seed: int):
    """Every state of a random game (engine.simulate's policy)."""
    rng = random.Random(seed)
    state = engine.new_game(engine.GameOptions(**options), seed)
    while not engine.is_over(state):
        yield state
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
            continue
        awaited = awaiting_data(state.data)
        seat = rng.choice(sorted(awaited))
        state, _ = engine.apply(state, seat, choose(rng, awaited[seat], engine.legal_actions(state, seat),
                                                    state.data, seat))


def candidates(d: dict, seat: int, legal: list[dict], rng: random.Random) -> list[dict]:
    """The legal actions and near misses: every follower on every place, take-backs and
    pull-backs of tiles that are not there, activations of every place with another
    place's choices, draw counts past the limit, ``pass`` and ``submit_plan``."""
    p = d["players"][seat]
    tiles = sorted(set(p["market"]) | {"monk", "start_farmer", "knight"})
    places = list(C.BOARD_SPACES) + sorted(C.PLACE_TILES)
    out = list(legal)
    out += [{"type": "place", "follower": t, "space": pl} for t in tiles for pl in places]
    out += [{"type": "unplace", "follower": t, "space": pl} for t in tiles for pl in rng.sample(places, 4)]
    out += [{"type": "pull_back", "follower": t, "space": pl} for t in tiles for pl in rng.sample(places, 4)]
    out += [{"type": "draw", "count": n} for n in range(12)]
    activations = [a for a in legal if a["type"] == "activate"]
    for a in activations:
        out += [{**a, "space": pl} for pl in rng.sample(places, 3)]
    out += [{"type": "activate", "space": pl} for pl in places]
    out += [{"type": "pass"}, {"type": "submit_plan"}, {"type": "submit_plan", "placements": None}]
    return [normalize(a) for a in out]


@pytest.mark.parametrize("options", [dict(players=4), dict(players=3, simultaneous_followers=False),
                                     dict(players=2, place_tile_market="all")], ids=["4p", "3p-sequential", "2p-all"])
def test_an_action_is_in_its_narrowed_list_exactly_when_it_is_legal(options):
    rng = random.Random(1)
    checked = {"draw": 0, "plan": 0, "action": 0}
    for number, state in enumerate(states(options, seed=21)):
        d = state.data
        for seat, kind in awaiting_data(d).items():
            if kind not in checked or number % 3:
                continue
            legal = legal_data(d, seat)
            for action in candidates(d, seat, legal, rng):
                if engine.ACTION_SPECS[action["type"]].decision != kind:
                    continue
                narrowed = _narrowed_legal(kind, d, seat, action)
                assert (action in narrowed) == (action in legal), (kind, action)
                assert all(a in legal for a in narrowed)
                checked[kind] += 1
    assert min(checked.values()) > 0


def test_a_draw_has_a_choice_exactly_when_the_list_has_more_than_one_action():
    """On the draw positions of a game and on variants with a full market, an empty bag,
    no followers on the board, or all of these (positions the engine itself resolves)."""
    variants = [{}, {"market": ["farmer"] * 10}, {"bag": {}}, {"spaces": {}}, {"bag": {}, "spaces": {}},
                {"pulled": 9}, {"bag": {"farmer": 0}, "spaces": {}}]
    seen = set()
    for state in states(dict(players=4), seed=4):
        for seat, kind in awaiting_data(state.data).items():
            if kind != "draw":
                continue
            for change in variants:
                d = clone(state.data)
                d["players"][seat].update(clone(change))
                many = len(followers.legal(d, seat)) > 1
                assert followers.has_choice(d["players"][seat]) == many, change
                seen.add(many)
    assert seen == {True, False}


def test_a_plan_with_an_empty_market_is_forced_exactly_when_the_list_has_one_action():
    """engine.flow's forced-move check skips a planning seat whose market or plan is not
    empty: with an empty market the list has one action (submit) exactly when the plan is
    empty too. On the planning positions of a game, with the market emptied, the plan
    emptied, or both."""
    from engine.phases import planning

    seen = set()
    for state in states(dict(players=4), seed=6):
        for seat, kind in awaiting_data(state.data).items():
            if kind != "plan":
                continue
            for change in ({"market": []}, {"market": [], "plan": []}, {}):
                d = clone(state.data)
                d["players"][seat].update(clone(change))
                p = d["players"][seat]
                if p["market"]:
                    continue
                one = len(planning.legal(d, seat)) == 1
                assert one == (not p["plan"]), change
                seen.add(one)
    assert seen == {True, False}


def test_apply_refuses_exactly_what_the_legal_list_leaves_out():
    """The public contract end to end: apply accepts an action iff legal_actions lists it
    (a planning step's placements one at a time; a whole plan is checked as it is applied)."""
    rng = random.Random(2)
    for number, state in enumerate(states(dict(players=3), seed=9)):
        if number % 7:
            continue
        for seat, kind in awaiting_data(state.data).items():
            legal = engine.legal_actions(state, seat)
            for action in rng.sample(candidates(state.data, seat, legal, rng), 25):
                if engine.ACTION_SPECS[action["type"]].decision != kind:
                    continue
                try:
                    engine.apply(state, seat, action)
                    accepted = True
                except engine.IllegalAction:
                    accepted = False
                assert accepted == (action in legal), action
