"""The view's readiness and circles agree with the rules (RULES §8.4–§8.7, §11, §14.8).

For every seat in the action phase and every place it owns with an action
(``engine.own_places``), with ``reason = places.unusable_reason(state, seat, place)``:

- a legal ``activate`` of the place exists  <=>  ``reason`` is None, and then the place is in
  the view's ``usable_places``;
- the place is in ``usable_places`` but has no legal ``activate``  =>  ``reason`` is a rule that
  blocks a ready place (a code of :data:`BLOCKING`, never ``not_ready``);
- the place is not in ``usable_places``  =>  ``reason`` is ``not_ready`` (circles not all
  filled; the Town Hall empty), or ``already_used`` for a Gunpowder Tower used this round;
- ``places.PLACE_USABLE`` (whether the Town Hall or Gunpowder Tower has a choice, asked
  cheaply) agrees with the place's listed choices.

And in every phase, for every viewer, ``circles`` (and the viewer's ``plan_circles``) put each
follower standing on a place on a circle of a type it may occupy (RULES §8.4, §8.5, §11 Herb
Garden / School), the technology tile on a circle of its type (§8.6), every follower of the
place exactly once, and no starting follower on the Town Hall (§14.8).

Checked on random playouts (``engine.simulate.choose``) and on generated action-phase
positions that hit the blocking rules (supplies out, tracks at their end, development on 30,
no coins, no stations, full deeds, a Pilgrimage round, a used Gunpowder Tower).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine import content as C
from engine.flow import awaiting_data
from engine.matching import can_fill
from engine.phases.actions_phase import legal as action_legal
from engine.places import PLACE_RULES, PLACE_USABLE, unusable_reason
from engine.simulate import choose
from engine.steps import action_places, space_fits, substitutes
from tests.support.engine_states import action_state, edited

#: Codes of a ready place that a rule blocks (engine.refusals; RULES §5, §6, §7.2, §8.7, §11, §14.4).
BLOCKING = frozenset({
    "track_end", "character_supply_empty", "good_unavailable", "technology_unavailable",
    "place_tile_unavailable", "nothing_to_recruit", "pilgrimage", "development_end", "station_present",
    "no_stations_left", "no_route", "no_deed_space", "no_deed_follower", "not_enough_coins", "already_used",
})


def readiness_problems(state) -> list[str]:
    """Every break of the readiness relation (module doc) in ``state``."""
    d = state.data
    if d["phase"] != "actions":
        return []
    problems = []
    spectator = engine.view(state, None)
    for seat in range(len(d["players"])):
        usable = spectator["players"][seat]["usable_places"]
        own = engine.own_places(state, seat)
        if not set(usable) <= set(own):
            problems.append(f"seat {seat}: usable {usable} not among its places {own}")
        legal = {a["space"] for a in action_legal(d, seat) if a["type"] == "activate"}
        if awaiting_data(d).get(seat) == "action":
            assert legal == {a["space"] for a in engine.legal_actions(state, seat) if a["type"] == "activate"}
        for place, usable_now in PLACE_USABLE.items():  # the cheaper question has the same answer
            if usable_now(d, seat) != bool(PLACE_RULES[place][0](d, seat)):
                problems.append(f"seat {seat}: {place} usable={usable_now(d, seat)} but its choices say otherwise")
        for place in own:
            why = unusable_reason(d, seat, place)
            code = why and why[0]
            where = f"seat {seat} {place} (usable={place in usable}, legal={place in legal}, reason={why})"
            if (place in legal) != (why is None):
                problems.append(f"legal activate iff no reason: {where}")
            elif place in legal and place not in usable:
                problems.append(f"legal but not usable: {where}")
            elif place in usable and place not in legal and code not in BLOCKING:
                problems.append(f"usable, not legal, reason not a blocking rule: {where}")
            elif place not in usable and not (code == "not_ready" or
                                              (code == "already_used" and place == "gunpowder_tower")):
                problems.append(f"not usable but reason is not 'not ready': {where}")
    return problems


def _check_slots(p: dict, place: str, slots: list, tiles: list, where: str) -> list[str]:
    problems = []
    circles = C.PLACES[place].circles
    subs = substitutes(p)
    if len(slots) != len(circles):
        return [f"{where}: {len(slots)} slots for {len(circles)} circles"]
    standing = [t for t in slots if t not in (None, "technology")]
    if sorted(standing) != sorted(tiles):
        problems.append(f"{where}: circles show {standing}, the place holds {tiles}")
    if slots.count("technology") != (place in p["technology"]):
        problems.append(f"{where}: technology shown {slots.count('technology')} times")
    for slot, circle in zip(slots, circles, strict=True):
        if slot == "technology" and circle != p["technology"].get(place):
            problems.append(f"{where}: technology tile on a {circle} circle, it covers {p['technology'].get(place)}")
        elif slot not in (None, "technology") and not can_fill(slot, circle, subs):
            problems.append(f"{where}: {slot} on a {circle} circle")
        elif slot not in (None, "technology") and place == "town_hall" and C.is_starting(slot):
            problems.append(f"{where}: starting follower on the Town Hall")
    return problems


def circle_problems(state, viewers=None) -> list[str]:
    """Every follower shown on a circle it may not occupy, in every viewer's view (module doc)."""
    d = state.data
    problems = []
    for viewer in viewers if viewers is not None else list(range(len(d["players"]))) + [None]:
        v = engine.view(state, viewer)
        for pv in v["players"]:
            p = d["players"][pv["seat"]]
            listed = set(pv["circles"])
            expected = {pl for pl in action_places(p) if pl in p["spaces"] or pl in p["technology"]}
            if listed != expected:
                problems.append(f"viewer {viewer}, seat {pv['seat']}: circles for {sorted(listed)}, "
                                f"places with something on them {sorted(expected)}")
            for place, slots in pv["circles"].items():
                problems += _check_slots(p, place, slots, p["spaces"].get(place, []),
                                         f"viewer {viewer}, seat {pv['seat']}, {place}")
            if pv["seat"] == viewer:
                for place, slots in pv["plan_circles"].items():
                    planned = [t for sp, t in p["plan"] if sp == place]
                    flagged = sorted(slot["tile"] for slot in slots if slot["planned"])
                    if flagged != sorted(planned):
                        problems.append(f"viewer {viewer}, {place}: planned flags {flagged}, plan {planned}")
                    shown = ["technology" if slot["technology"] else slot["tile"] for slot in slots]
                    problems += _check_slots(p, place, shown, p["spaces"].get(place, []) + planned,
                                             f"viewer {viewer} plan, {place}")
    return problems


# --- random playouts -----------------------------------------------------------------------

PLAYOUTS = [
    (dict(players=2), 11),
    (dict(players=3, place_tile_market="all"), 12),
    (dict(players=4, place_tile_market="market3", simultaneous_followers=False), 13),
]


@pytest.mark.parametrize("config, seed", PLAYOUTS, ids=lambda c: str(c))
def test_readiness_and_circles_hold_through_a_random_game(config, seed):
    rng = random.Random(seed)
    state = engine.new_game(engine.GameOptions(**config), seed)
    problems: list[str] = []
    steps = 0
    while not engine.is_over(state) and steps < 20000:
        if state.data["barrier"]:
            state = engine.resolve(state)[0]
        else:
            awaited = awaiting_data(state.data)
            seat = rng.choice(sorted(awaited))
            action = choose(rng, awaited[seat], engine.legal_actions(state, seat), state.data, seat)
            state = engine.apply(state, seat, action)[0]
            # one viewer per step (the acting seat) and the spectator keep the game fast
            problems += circle_problems(state, viewers=[seat, None])
        problems += readiness_problems(state)
        steps += 1
        assert not problems, problems[:5]
    assert engine.is_over(state)


# --- generated action-phase positions ------------------------------------------------------

_WILD_FOR = {"farmer", "boatman", "craftsman", "trader"}


def _follower_for(rng: random.Random, circle: str, town_hall: bool) -> str:
    if circle in ("any", "unknown"):
        kind = rng.choice(C.FOLLOWER_TYPES)
    elif circle != "monk" and rng.random() < 0.2:
        kind = "monk"
    else:
        kind = circle
    if kind in _WILD_FOR and not town_hall and rng.random() < 0.3:
        return C.STARTING_PREFIX + kind
    return kind


def random_position(seed: int):
    """A seat-0 action-phase position with random places, followers, supplies and limits."""
    rng = random.Random(seed)
    tiles = sorted(rng.sample(sorted(C.PLACE_TILES), rng.randint(0, 6)))
    if rng.random() < 0.5 and "gunpowder_tower" not in tiles:
        tiles = sorted(tiles + ["gunpowder_tower"])
    p0 = {
        "places": tiles,
        "coins": rng.choice([0, 1, 2, 5]),
        "development": rng.choice([0, 10, 28, 29, 30]),
        "tracks": {t: rng.randint(0, C.TRACK_LENGTH[t]) for t in C.TRACK_LENGTH},
        "merchant": rng.choice(sorted(C.TOWNS)),
        "stations_left": rng.choice([0, 3]),
        "tower_used": rng.random() < 0.3,
        "market": sorted(rng.choice(C.ALL_FOLLOWER_TILES) for _ in range(rng.randint(0, 4))),
    }
    state = action_state(p0, event=rng.choice(["pilgrimage", "trading_day"]))

    def change(d):
        p = d["players"][0]
        for place in action_places(p):
            circles = list(C.PLACES[place].circles)
            if len(circles) >= 2 and place != "town_hall" and rng.random() < 0.2:
                covered = rng.choice([c for c in circles if c not in ("monk", "any")] or [None])
                if covered:
                    p["technology"][place] = covered
                    circles.remove(covered)
            if rng.random() < 0.5:
                continue
            chosen = [_follower_for(rng, c, place == "town_hall") for c in circles]
            if rng.random() < 0.3:  # a free circle: not ready (the Town Hall with one is ready)
                chosen = chosen[:-1]
            if chosen and space_fits(p, place, chosen):
                p["spaces"][place] = sorted(chosen)
        for kind in C.FOLLOWER_TYPES:
            if rng.random() < 0.2:
                d["supply"]["followers"][kind] = 0
        for good in C.GOODS:
            if rng.random() < 0.2:
                d["supply"]["goods"][good] = 0
        if rng.random() < 0.3:
            d["supply"]["technology"] = 0
        if rng.random() < 0.3:
            d["place_tiles"]["display"]["I"] = []
        if rng.random() < 0.3:
            d["stations"][p["merchant"]] = [rng.choice([0, 1])]
        if rng.random() < 0.3:
            for deed_id, deed in C.DEEDS.items():
                d["deeds"][deed_id] = sorted([kind, 1] for kind, n in deed.spaces.items() for _ in range(n))

    return edited(state, change)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_readiness_and_circles_hold_in_generated_positions(seed):
    state = random_position(seed)
    assert readiness_problems(state) == []
    assert circle_problems(state) == []


def test_generated_positions_reach_every_kind_of_verdict():
    """The generator is not vacuous: it produces legal, blocked-ready and not-ready places."""
    verdicts = set()
    for seed in range(300):
        state = random_position(seed)
        usable = engine.view(state, None)["players"][0]["usable_places"]
        for place in engine.own_places(state, 0):
            why = unusable_reason(state.data, 0, place)
            verdicts.add("legal" if why is None else ("blocked" if place in usable else why[0]))
    assert {"legal", "blocked", "not_ready", "already_used"} <= verdicts
