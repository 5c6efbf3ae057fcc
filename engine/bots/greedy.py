"""The ``greedy`` bot: a fast heuristic player (issue #10).

It decides from the seat's view only: it first builds a full state consistent with the view
(:func:`engine.bots.sample.determinise`) and then looks one step ahead on that state, never
on the real one:

- :func:`value` is a hand-written estimate of the seat's final score from a position: the
  score as it stands (RULES §10.3) plus what the position is likely to earn in the rounds
  left (followers, technology tiles, place tiles, development, the income and trading days
  still in the hourglass) minus what it is likely to lose (Harvests without food, Taxes,
  torture debts; RULES §9.3, §10.1);
- actions, prompts and torture items: each legal action is applied to the sampled state and
  the one with the best :func:`value` is taken;
- planning (RULES §8.4): each place is worth the best :func:`value` gain of activating it;
  the bot fills the places it can complete with its market, best gain per follower first,
  one placement per decision, then submits (so it plans toward places it can complete);
- followers phase: draw as many as allowed (RULES §8.3).

:func:`decide` does the same on a full state (used by ``strong``'s playouts, where the
state is itself a sample). p95 well under 50 ms per decision on this machine.
"""

from __future__ import annotations

import random
from itertools import combinations

from .. import content as C
from .. import steps as S
from ..actions import ACTION_SPECS
from ..flow import ACTIONS, advance
from ..matching import fits, town_hall_allows
from ..phases.event import food_held
from ..phases import planning
from ..phases.followers import draw_count
from ..places import PLACE_RULES
from ..state import clone
from .sample import determinise

# --- the value function ----------------------------------------------------------------------

#: The value function's weights (points). ``FOLLOWER_*``: one non-starting follower per round
#: left, by type; ``PLACE_*``: points one use of a place tile brings (RULES §11), times
#: ``place_use_rate`` per round left. Tuned with ``python -m engine.arena``.
WEIGHTS = {
    "follower": {"farmer": 0.20, "boatman": 0.26, "craftsman": 0.24, "trader": 0.24, "scholar": 0.30,
                 "knight": 0.28, "monk": 0.30},
    "place": {
        "hay_rick": 1.5, "cheese_factory": 2.2, "winery": 3.2, "wool_manufacturer": 3.8, "tailor_shop": 4.5,
        "brewery": 2.0, "herb_garden": 1.2, "sacristy": 1.4, "bathhouse": 1.2, "windmill": 3.4, "library": 3.5,
        "hospital": 3.0, "gunpowder_tower": 2.0, "cellar": 4.0, "office": 3.0, "school": 1.6, "pharmacy": 2.0,
        "horse_wagon": 2.8, "shipping_line": 1.8, "laboratory": 1.8,
    },
    "place_use_rate": 0.35,
    "technology": 0.35,  # per round left: a technology tile saves a follower on its place
    "draw": 0.8,  # per round left and follower of draw count above 4 (Knight track, RULES §6.6)
    "future_multiplied": 0.22,  # stations + citizens still to come per round left
    "development_rate": 0.5,  # development steps still to come per round left, plus per scholar:
    "development_per_scholar": 0.12,
    "harvest_short": 5.0,  # coins per missing food (RULES §9.3)
    "torture_per_coin": 3.0,  # what one coin of debt costs in items given up (RULES §10.1)
    "station_here": 0.5,  # times the level: a station can be built where the merchant stands
}

_LEVEL = C.DEVELOPMENT_LEVEL
# fraction of the way through the current development level, for a smooth value of a step
_BAND: list = []
for _d in range(C.DEVELOPMENT_END + 1):
    _lo = min(x for x in range(_d + 1) if _LEVEL[x] == _LEVEL[_d])
    _hi = max(x for x in range(_d, C.DEVELOPMENT_END + 1) if _LEVEL[x] == _LEVEL[_d])
    _BAND.append((_d - _lo + 1) / (_hi - _lo + 2) if _d < C.DEVELOPMENT_END else 0.0)


def _smooth_level(x: float) -> float:
    """Development level at position ``x`` (a float), rising a little with each step inside a level."""
    i = int(x)
    lo = _LEVEL[i] + _BAND[i]
    if i >= C.DEVELOPMENT_END:
        return lo
    return lo + (x - i) * (_LEVEL[i + 1] + _BAND[i + 1] - lo)


def rounds_left(s: dict, p: dict) -> int:
    """Action phases still to come for ``p``, this round's included while not passed."""
    r = C.ROUNDS - s["round"]
    if s["phase"] == "planning" or (s["phase"] == "actions" and not p["passed"]):
        r += 1
    return max(0, r) if s["phase"] != "over" else 0


_OUTLOOKS: dict = {}


def _event_outlook(s: dict) -> tuple:
    """Expected events still to resolve (RULES §9.2, §9.3), as ``(income coins per level,
    trading-day coins per station, food to return, {goods per tax coin: expected taxes})``.

    The current round's event is known (before its event phase); later rounds use the
    counts left, which the seat sees. Cached by what it reads."""
    left: dict = {}
    for e in s["hourglass"]:
        left[e] = left.get(e, 0) + 1
    now = s["event"] if s["phase"] in ("planning", "actions") else None
    key = (tuple(sorted(left.items())), s["round"], now, s["options"]["event_strength"])
    hit = _OUTLOOKS.get(key)
    if hit is not None:
        return hit
    rounds = []
    if now:
        rounds.append(({now: 1.0}, C.ROUND_PHASE[s["round"]]))
    total = sum(left.values())
    if total:
        probs = {e: k / total for e, k in left.items()}
        rounds += [(probs, C.ROUND_PHASE[r]) for r in range(s["round"] + 1, C.ROUNDS + 1)]
    income = trading = food = 0.0
    taxes: dict = {}
    for probs, letter in rounds:
        for e, pr in probs.items():
            if e == "income":
                income += pr * _amount(s, e, "coinsPerDevelopmentLevel", letter)
            elif e == "trading_day":
                trading += pr * _amount(s, e, "coinsPerTradingStation", letter)
            elif e == "harvest":
                food += pr * _amount(s, e, "foodToReturn", letter)
            elif e == "taxes":
                n = _amount(s, e, "goodsPerCoin", letter)
                taxes[n] = taxes.get(n, 0.0) + pr
    if len(_OUTLOOKS) > 4096:
        _OUTLOOKS.clear()
    hit = _OUTLOOKS[key] = (income, trading, food, tuple(sorted(taxes.items())))
    return hit


def _amount(s: dict, event: str, key: str, letter: str) -> int:
    return C.event_amount(s["options"]["event_strength"], event, key, letter)


def _owned_followers(p: dict) -> dict:
    """``{tile: count}`` of every follower the player owns, wherever it is."""
    tiles = dict(p["bag"])
    for t in p["market"]:
        tiles[t] = tiles.get(t, 0) + 1
    for _sp, t in p["plan"]:
        tiles[t] = tiles.get(t, 0) + 1
    for v in p["spaces"].values():
        for t in v:
            tiles[t] = tiles.get(t, 0) + 1
    for prompt in p["prompts"]:
        for t in prompt.get("drawn", ()):
            tiles[t] = tiles.get(t, 0) + 1
    return tiles


def value(s: dict, seat: int, w: dict = WEIGHTS) -> float:
    """Estimated final score of ``seat`` from the full state ``s`` (points, RULES §10.3).

    Deterministic; reads the hidden stacks only as counts (what the seat's view shows)."""
    p = s["players"][seat]
    R = rounds_left(s, p)
    d = p["development"]
    level = _LEVEL[d]
    stations = S.stations_built(s, seat)
    multiplied = stations + p["citizens"]
    v = p["coins"] + sum(p["goods"][g] * C.GOODS_VP[g] for g in C.GOODS)
    debt = w["torture_per_coin"] * sum(pr.get("debt", 0) for pr in p["prompts"])
    for pr in p["prompts"]:
        if pr["kind"] == "harvest":  # the food still to return (RULES §9.3), cheapest first
            held = [g for g in C.FOOD for _ in range(p["goods"][g])]
            debt += sum(C.GOODS_VP[g] for g in held[: pr["food"]])
    if R <= 0:
        return v + multiplied * level - debt
    followers = _owned_followers(p)
    scholars = followers.get("scholar", 0)
    # the level the development marker is likely to reach (RULES §7.1), smooth in each step
    final = min(C.DEVELOPMENT_END, d + R * (w["development_rate"] + w["development_per_scholar"] * scholars))
    final_level = _smooth_level(final)
    v += (multiplied + w["future_multiplied"] * R) * final_level
    # engine of the position: followers, draws, technology and place tiles
    drawn = draw_count(p)
    crowd = min(1.0, (drawn + 3) / max(1, sum(followers.values())))
    worth = w["follower"]
    v += R * crowd * sum(worth[t] * k for t, k in followers.items() if t in worth)
    v += R * w["draw"] * (drawn - 4)
    v += R * w["technology"] * (len(p["technology"]) + p["technology_pending"])
    v += R * w["place_use_rate"] * sum(w["place"].get(t, 1.0) for t in p["places"]) * min(1.0, R / 6)
    # a station can be built where the merchant stands
    if p["stations_left"] and S.can_build_station(s, seat) and R > 1:
        v += w["station_here"] * level
    # events still to come
    food = food_held(p)
    goods = sum(p["goods"].values())
    income, trading, food_need, taxes = _event_outlook(s)
    v += income * level + trading * stations
    for n, pr in taxes:
        v -= pr * (goods // n)
    if s["phase"] in ("planning", "actions") and s["event"] == "harvest":
        now = _amount(s, "harvest", "foodToReturn", C.ROUND_PHASE[s["round"]])
        v -= w["harvest_short"] * 1.2 * max(0, now - food)
        v -= w["harvest_short"] * 0.6 * max(0.0, food_need - now - max(0, food - now))
    else:
        v -= w["harvest_short"] * 0.6 * max(0.0, food_need - food)
    return v - debt


# --- one step ahead --------------------------------------------------------------------------


def _after(s: dict, seat: int, action: dict) -> dict:
    """A copy of ``s`` after ``seat`` plays ``action`` (engine step functions, no checks:
    the action comes from the legal list)."""
    t = clone(s)
    ev: list = []
    ACTIONS[action["type"]][1](t, seat, action, ev)
    advance(t, ev)
    return t


def ranked_by_value(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> list[dict]:
    """``legal`` sorted by the :func:`value` of their results, best first (stable on ties)."""
    scored = [(value(_after(s, seat, a), seat, w), i, a) for i, a in enumerate(legal)]
    scored.sort(key=lambda x: (-round(x[0], 9), x[1]))
    return [a for _v, _i, a in scored]


def best_by_value(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """The legal action whose result has the best :func:`value` (first on ties)."""
    return ranked_by_value(s, seat, legal, w)[0]


# --- planning --------------------------------------------------------------------------------

#: What a follower used on a place costs, by type (monks are wild, keep them for hard circles).
_TILE_COST = {"monk": 0.6, "knight": 0.3, "scholar": 0.3}


def _tile_cost(tile: str) -> float:
    return 0.0 if C.is_starting(tile) else 0.1 + _TILE_COST.get(C.follower_type(tile), 0.0)


def _completions(p: dict, place_id: str, market: list[str]) -> list[tuple]:
    """Cheapest sets of market tiles that fill every free circle of ``place_id`` (RULES §8.4)."""
    current = p["spaces"].get(place_id, []) + [t for sp, t in p["plan"] if sp == place_id]
    circles = S.free_circles(p, place_id)
    missing = len(circles) - len(current)
    if place_id == "town_hall":
        if current:
            return [()]
        options = sorted({(t,) for t in market if town_hall_allows(t)}, key=lambda c: _tile_cost(c[0]))
        return options[:3]
    if missing <= 0 or missing > len(market):
        return [()] if missing == 0 and current else []
    subs = S.substitutes(p)
    found = set()
    for combo in combinations(sorted(market), missing):
        if combo in found:
            continue
        if fits(circles, tuple(sorted(current + list(combo))), subs):
            found.add(combo)
    return sorted(found, key=lambda c: sum(_tile_cost(t) for t in c))[:2]


_SHARED = ("supply", "removed", "routes", "stations", "deeds", "citizens", "place_tiles", "rng")


def _own_copy(s: dict, seat: int) -> dict:
    """A copy of ``s`` safe for a place's effect on ``seat``: the shared parts and the seat's
    own player copied, the other players shared (a place's effect never touches them)."""
    t = dict(s)
    parts = clone([s[k] for k in _SHARED] + [s["players"][seat]])  # one copy: marshal is per call
    for k, part in zip(_SHARED, parts, strict=False):
        t[k] = part
    t["players"] = list(s["players"])
    t["players"][seat] = parts[-1]
    return t


def _activation_gain(s: dict, seat: int, place_id: str, combo: tuple, base: float, w: dict) -> float:
    """Best :func:`value` gain of using ``place_id`` once with ``combo`` added (RULES §8.7)."""
    t = _own_copy(s, seat)
    p = t["players"][seat]
    for sp, tile in p["plan"]:
        S.put_on_space(p, sp, tile)
    p["plan"] = []
    for tile in combo:
        p["market"].remove(tile)
        S.put_on_space(p, place_id, tile)
    choices = PLACE_RULES[place_id][0](t, seat)
    best = None
    for choice in choices[:40]:
        u = _own_copy(t, seat)
        PLACE_RULES[place_id][1](u, seat, choice, [])
        if place_id != "town_hall":
            S.empty_spaces_to_bag(u["players"][seat], place_id)
        u["players"][seat]["prompts"] = [pr for pr in u["players"][seat]["prompts"] if pr["kind"] != "bathhouse"]
        gain = value(u, seat, w) - base
        if best is None or gain > best:
            best = gain
    return -1.0 if best is None else best


def _ranked_completions(s: dict, seat: int, p: dict, market: list[str], skip: set, base: float, w: dict,
                        gains: dict) -> list[tuple]:
    """``(gain per follower, gain, place, tiles)`` of every place ``market`` can complete whose
    activation gains more than its followers cost, best first (RULES §8.4, §8.7)."""
    out = []
    for place_id in S.action_places(p):
        if place_id in C.EVENT_PHASE_PLACES or place_id in skip:
            continue
        for combo in _completions(p, place_id, market):
            if not combo:
                continue
            key = (place_id, combo)
            if key not in gains:
                gains[key] = _activation_gain(s, seat, place_id, combo, base, w)
            cost = sum(_tile_cost(x) for x in combo)
            if gains[key] - cost > 0.2:
                out.append(((gains[key] - cost) / len(combo), gains[key], place_id, combo))
    if ("sacristy" in p["places"] and "sacristy" not in skip and not p["spaces"].get("sacristy")
            and "monk" in market and s["event"] in C.NEGATIVE_EVENTS):  # RULES §14.7: this round's event
        out.append((1.0, 1.0, "sacristy", ("monk",)))
    out.sort(key=lambda c: (-c[0], -c[1], c[2]))
    return out


def full_plan(s: dict, seat: int, w: dict = WEIGHTS) -> tuple[list[list[str]], list[tuple]]:
    """The greedy plan from the seat's position: ``(placements to add as [place, tile],
    first-choice candidates)``: best place per follower first, each completed with the
    market left, until no place gains more than its followers cost (RULES §8.4)."""
    p = s["players"][seat]
    market = list(p["market"])
    if not market:
        return [], []
    base = value(s, seat, w)
    gains: dict = {}
    tp = {"spaces": p["spaces"], "technology": p["technology"], "places": p["places"], "plan": list(p["plan"])}
    added: list = []
    skip: set = set()
    first: list = []
    while market:
        ranked = _ranked_completions(s, seat, tp, market, skip, base, w, gains)
        if not first:
            first = ranked
        if not ranked:
            break
        _eff, _gain, place_id, combo = ranked[0]
        for tile in combo:
            market.remove(tile)
            added.append([place_id, tile])
            tp["plan"].append([place_id, tile])
        skip.add(place_id)
    # a market too full to draw next round strands the bag (RULES §8.3): start places with
    # what is left, the places worth most when used first
    room = S.market_capacity(p) - len(market)
    if market and room < draw_count(p):
        worth = {pl: _activation_gain(s, seat, pl, (), base, w) for pl in S.action_places(p)
                 if pl not in skip and pl not in C.EVENT_PHASE_PLACES and pl != "town_hall"}
        for tile in sorted(market, key=_tile_cost):
            if room >= draw_count(p):
                break
            fits_on = [pl for pl in worth if worth[pl] > 0 and planning.can_place(tp, tile, pl)]
            if fits_on:
                # the place nearest completion first, so the tiles do not spread thin
                pl = max(fits_on, key=lambda x: (len(planning._planned_on(tp, x)) / len(S.free_circles(tp, x)),
                                                 worth[x], x))
                market.remove(tile)
                added.append([pl, tile])
                tp["plan"].append([pl, tile])
                room += 1
    return added, first


def plan_options(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> list[dict]:
    """Placements worth making now, best first: the greedy plan's next placement, then the
    first follower of each other place worth completing (RULES §8.4, §8.7)."""
    added, first = full_plan(s, seat, w)
    legal_set = {(a["follower"], a["space"]) for a in legal if a["type"] == "place"}
    out: list = []
    heads = [(place_id, tile) for place_id, tile in added[:1]]
    heads += [(place_id, tile) for _e, _g, place_id, combo in first for tile in combo[:1]]
    for place_id, tile in heads:
        if (tile, place_id) in legal_set:
            action = {"type": "place", "follower": tile, "space": place_id}
            if action not in out:
                out.append(action)
    return out


def plan_step(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """The next planning action: a placement toward the best completable place, or submit."""
    options = plan_options(s, seat, legal, w)
    return options[0] if options else {"type": "submit_plan"}


# --- the policy ------------------------------------------------------------------------------


def _technology_step(s: dict, seat: int, legal: list[dict]) -> dict:
    """Cover the circle whose follower type the seat owns least of (a scarce follower freed)."""
    p = s["players"][seat]
    owned: dict = {}
    for t, k in _owned_followers(p).items():
        owned[C.follower_type(t)] = owned.get(C.follower_type(t), 0) + k
    order = list(C.BOARD_SPACES) + sorted(p["places"])

    def key(a):
        return (owned.get(a["circle"], 0), order.index(a["space"]) if a["space"] in order else 99)

    return min(legal, key=key)


def draw_step(s: dict, seat: int, legal: list[dict]) -> dict:
    """Draw as many as allowed (RULES §8.3); when the bag cannot fill the draw, first pull
    followers back from the places furthest from completion (RULES §14.5)."""
    draws = [a for a in legal if a["type"] == "draw"]
    most = max(draws, key=lambda a: a["count"])
    p = s["players"][seat]
    pulls = [a for a in legal if a["type"] == "pull_back"]
    room = min(draw_count(p) - p["pulled"], S.market_capacity(p) - len(p["market"]))
    if not pulls or sum(p["bag"].values()) >= room:
        return most

    def progress(a):
        tiles = p["spaces"].get(a["space"], [])
        return (len(tiles) / max(1, len(S.free_circles(p, a["space"]))), _tile_cost(a["follower"]), a["space"])

    return min(pulls, key=progress)


def decide(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """The greedy choice among ``legal`` for ``seat`` on the full state ``s`` (a sample)."""
    if len(legal) == 1:
        return legal[0]
    kind = ACTION_SPECS[legal[0]["type"]].decision
    if kind == "draw":
        return draw_step(s, seat, legal)
    if kind == "plan":
        action = plan_step(s, seat, legal, w)
        return _same(action, legal)
    if kind == "technology":
        return _technology_step(s, seat, legal)
    if kind == "torture":
        singles = [a for a in legal if a["type"] == "torture"]
        return best_by_value(s, seat, singles or legal, w)
    return best_by_value(s, seat, legal, w)


def decide_plan_whole(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """Like :func:`decide`, but a planning decision is answered with the whole greedy plan at
    once (``submit_plan`` with ``placements``; RULES §8.4): used in playouts, where one
    decision per plan is much faster. The result may not be an element of ``legal``."""
    kind = ACTION_SPECS[legal[0]["type"]].decision
    if kind != "plan":
        return decide(s, seat, legal, w)
    p = s["players"][seat]
    added, _first = full_plan(s, seat, w)
    placements = [{"follower": t, "space": sp} for sp, t in list(p["plan"]) + added]
    return {"type": "submit_plan", "placements": placements}


def _same(action: dict, legal: list[dict]) -> dict:
    """The element of ``legal`` equal to ``action`` (the protocol returns list elements)."""
    for a in legal:
        if a == action:
            return a
    return next(a for a in legal if a["type"] == "submit_plan")


class GreedyBot:
    """Greedy heuristic bot: see the module docstring. Ignores ``budget``."""

    name = "greedy"
    weights = WEIGHTS

    def choose(self, view: dict, legal_actions: list[dict], rng: random.Random, budget: float) -> dict:
        """One element of ``legal_actions`` from ``view`` alone (sampled hidden information)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        s = determinise(view, rng, legal_actions)
        return decide(s, view["seat"], legal_actions, self.weights)
