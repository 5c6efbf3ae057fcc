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


def _event_outlook(s: dict) -> list[tuple[dict, str]]:
    """Per event still to resolve: ``({event: probability}, phase letter)`` (RULES §9.2).

    The current round's event is known (before its event phase); later rounds use the
    counts left, which the seat sees."""
    out = []
    if s["phase"] in ("planning", "actions") and s["event"]:
        out.append(({s["event"]: 1.0}, C.ROUND_PHASE[s["round"]]))
    left: dict = {}
    for e in s["hourglass"]:
        left[e] = left.get(e, 0) + 1
    total = sum(left.values())
    if total:
        probs = {e: k / total for e, k in left.items()}
        for r in range(s["round"] + 1, C.ROUNDS + 1):
            out.append((probs, C.ROUND_PHASE[r]))
    return out


def _amount(s: dict, event: str, key: str, letter: str) -> int:
    return C.event_amount(s["options"]["event_strength"], event, key, letter)


def _owned_followers(p: dict) -> list[str]:
    tiles = list(p["market"]) + [t for _sp, t in p["plan"]]
    for t, k in p["bag"].items():
        tiles += [t] * k
    for v in p["spaces"].values():
        tiles += v
    for prompt in p["prompts"]:
        tiles += prompt.get("drawn", [])
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
    if R <= 0:
        return v + multiplied * level - debt
    followers = _owned_followers(p)
    scholars = sum(1 for t in followers if C.follower_type(t) == "scholar")
    # the level the development marker is likely to reach (RULES §7.1), smooth in each step
    final = min(C.DEVELOPMENT_END, d + R * (w["development_rate"] + w["development_per_scholar"] * scholars))
    final_level = _smooth_level(final)
    v += (multiplied + w["future_multiplied"] * R) * final_level
    # engine of the position: followers, draws, technology and place tiles
    drawn = draw_count(p)
    crowd = min(1.0, (drawn + 3) / max(1, len(followers)))
    v += R * crowd * sum(w["follower"][C.follower_type(t)] for t in followers if not C.is_starting(t))
    v += R * w["draw"] * (drawn - 4)
    v += R * w["technology"] * (len(p["technology"]) + p["technology_pending"])
    v += R * w["place_use_rate"] * sum(w["place"].get(t, 1.0) for t in p["places"]) * min(1.0, R / 6)
    # a station can be built where the merchant stands
    if p["stations_left"] and S.can_build_station(s, seat) and R > 1:
        v += w["station_here"] * level
    # events still to come
    food = food_held(p)
    food_need = 0.0
    goods = sum(p["goods"].values())
    for probs, letter in _event_outlook(s):
        for e, pr in probs.items():
            if e == "income":
                v += pr * level * _amount(s, e, "coinsPerDevelopmentLevel", letter)
            elif e == "trading_day":
                v += pr * stations * _amount(s, e, "coinsPerTradingStation", letter)
            elif e == "harvest":
                food_need += pr * _amount(s, e, "foodToReturn", letter)
            elif e == "taxes":
                v -= pr * (goods // _amount(s, e, "goodsPerCoin", letter))
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


def best_by_value(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """The legal action whose result has the best :func:`value` (first on ties)."""
    best, best_v = legal[0], None
    for a in legal:
        v = value(_after(s, seat, a), seat, w)
        if best_v is None or v > best_v + 1e-9:
            best, best_v = a, v
    return best


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


def _activation_gain(s: dict, seat: int, place_id: str, combo: tuple, base: float, w: dict) -> float:
    """Best :func:`value` gain of using ``place_id`` once with ``combo`` added (RULES §8.7)."""
    t = clone(s)
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
        u = clone(t)
        PLACE_RULES[place_id][1](u, seat, choice, [])
        if place_id != "town_hall":
            S.empty_spaces_to_bag(u["players"][seat], place_id)
        u["players"][seat]["prompts"] = [pr for pr in u["players"][seat]["prompts"] if pr["kind"] != "bathhouse"]
        gain = value(u, seat, w) - base
        if best is None or gain > best:
            best = gain
    return -1.0 if best is None else best


def plan_step(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """The next planning action: a placement toward the best completable place, or submit."""
    p = s["players"][seat]
    market = list(p["market"])
    if not market:
        return {"type": "submit_plan"}
    t = clone(s)
    base = value(t, seat, w)
    candidates = []
    for place_id in S.action_places(p):
        if place_id in C.EVENT_PHASE_PLACES:
            continue
        for combo in _completions(p, place_id, market):
            if not combo:
                continue
            gain = _activation_gain(t, seat, place_id, combo, base, w)
            cost = sum(_tile_cost(x) for x in combo)
            if gain - cost > 0.2:
                candidates.append(((gain - cost) / len(combo), gain, place_id, combo))
    if "sacristy" in p["places"] and not p["spaces"].get("sacristy") and "monk" in market:
        if s["event"] in C.NEGATIVE_EVENTS:  # RULES §14.7: this round's event is known
            candidates.append((1.0, 1.0, "sacristy", ("monk",)))
    if not candidates:
        return {"type": "submit_plan"}
    candidates.sort(key=lambda c: (-c[0], -c[1], c[2]))
    legal_set = {(a["follower"], a["space"]) for a in legal if a["type"] == "place"}
    for _eff, _gain, place_id, combo in candidates:
        for tile in combo:
            if (tile, place_id) in legal_set:
                return {"type": "place", "follower": tile, "space": place_id}
    return {"type": "submit_plan"}


# --- the policy ------------------------------------------------------------------------------


def _technology_step(s: dict, seat: int, legal: list[dict]) -> dict:
    """Cover the circle whose follower type the seat owns least of (a scarce follower freed)."""
    p = s["players"][seat]
    owned = [C.follower_type(t) for t in _owned_followers(p)]
    order = list(C.BOARD_SPACES) + sorted(p["places"])

    def key(a):
        return (owned.count(a["circle"]), order.index(a["space"]) if a["space"] in order else 99)

    return min(legal, key=key)


def decide(s: dict, seat: int, legal: list[dict], w: dict = WEIGHTS) -> dict:
    """The greedy choice among ``legal`` for ``seat`` on the full state ``s`` (a sample)."""
    if len(legal) == 1:
        return legal[0]
    kind = ACTION_SPECS[legal[0]["type"]].decision
    if kind == "draw":
        draws = [a for a in legal if a["type"] == "draw"]
        return max(draws, key=lambda a: a["count"])
    if kind == "plan":
        action = plan_step(s, seat, legal, w)
        return _same(action, legal)
    if kind == "technology":
        return _technology_step(s, seat, legal)
    if kind == "torture":
        singles = [a for a in legal if a["type"] == "torture"]
        return best_by_value(s, seat, singles or legal, w)
    return best_by_value(s, seat, legal, w)


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
