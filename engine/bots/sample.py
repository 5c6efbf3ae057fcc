"""Determinisation: a full engine state consistent with what one seat sees (issue #10).

:func:`determinise` builds, from ``engine.view(state, seat)`` alone and a caller's rng, a
state tree that the engine can play on: every public number is copied from the view and
every hidden one is sampled consistently with it:

- the hourglass stack (RULES §9.2): with ``abc`` stacks the tiles still in the current
  phase's stack are the counts left minus the full later stacks; each stack is shuffled;
- hidden place-tile stacks (RULES §12.3, market 3/5): the tiles of the stack not shown,
  not owned and not removed, shuffled;
- other seats' bags, markets (while planning) and plans (before the reveal): the followers
  not visible anywhere (conservation, RULES §2.2) shared out, each seat's four starting
  followers to that seat, the others weighted by the seat's character tracks (a track
  step is a recruited follower of that type, RULES §6); a sampled plan is a sequence of
  legal placements (RULES §8.4) of the right size;
- the seed (a fresh random one: the draws from every bag are sampled by the engine).

The result passes ``engine.simulate.check_invariants`` and gives back the same view for the
seat. Bots call it; nothing else should.
"""

from __future__ import annotations

import random

from .. import content as C
from ..phases import planning
from ..phases.event import _strength
from ..setup import new_player
from ..steps import action_places
from ..state import SCHEMA_VERSION, clone


class DeterminiseError(ValueError):
    """The view could not be completed into a consistent state (should not happen)."""


def _hourglass(view: dict, rng: random.Random) -> list[str]:
    """The hidden hourglass stack, top first, consistent with ``hourglass_left`` (RULES §9.2)."""
    left = dict(view["hourglass_left"])
    remaining = [e for e in C.EVENTS for _ in range(left.get(e, 0))]
    if view["options"]["hourglass_order"] != "abc" or not remaining:
        rng.shuffle(remaining)
        return remaining
    rounds = range(view["round"] + 1, C.ROUNDS + 1)
    letters = [C.ROUND_PHASE[r] for r in rounds]
    # later stacks are whole: one tile of each event each; the current stack holds the rest
    current = C.ROUND_PHASE[view["round"]] if view["round"] else "A"
    order: list[str] = []
    rest = dict(left)
    later = [letter for letter in dict.fromkeys(letters) if letter != current]
    for _letter in later:
        for e in C.EVENTS:
            rest[e] -= 1
    head = [e for e in C.EVENTS for _ in range(rest.get(e, 0))]
    if any(v < 0 for v in rest.values()) or len(head) != letters.count(current):
        rng.shuffle(remaining)  # not the abc structure after all (should not happen): any order
        return remaining
    rng.shuffle(head)
    order += head
    for _letter in later:
        stack = list(C.EVENTS)
        rng.shuffle(stack)
        order += stack
    return order


def _place_tiles(view: dict, rng: random.Random) -> dict:
    """Display as shown; hidden stacks from the tiles nobody can see (RULES §12.3)."""
    pt = view["place_tiles"]
    display = {k: list(v) for k, v in pt["display"].items()}
    seen = {t for v in display.values() for t in v} | set(view["removed"]["places"])
    for p in view["players"]:
        seen |= set(p["places"])
    stack = {}
    for letter, count in pt["stack_counts"].items():
        pool = sorted(t for t, pl in C.PLACE_TILES.items() if pl.stack == letter and t not in seen)
        rng.shuffle(pool)
        stack[letter] = pool[:count]
    return {"display": display, "stack": stack}


def _add(counts: dict, tile: str, k: int = 1) -> None:
    counts[tile] = counts.get(tile, 0) + k


def _hidden_pool(view: dict, seat: int) -> dict:
    """Followers not visible anywhere to ``seat``: the total minus every known location."""
    n = len(view["players"])
    pool = dict(C.NEUTRAL_FOLLOWERS[n])
    for t in C.STARTING_TYPES:
        pool[C.STARTING_PREFIX + t] = n

    def take(tile, k=1):
        pool[tile] = pool.get(tile, 0) - k

    for tile, k in view["supply"]["followers"].items():
        take(tile, k)
    for tile, k in view["removed"]["followers"].items():
        take(tile, k)
    for deed in view["deeds"].values():
        for tile, _seat in deed:
            take(tile)
    for p in view["players"]:
        for tiles in p["spaces"].values():
            for tile in tiles:
                take(tile)
        if p["seat"] == seat:
            for tile, k in p["bag"].items():
                take(tile, k)
            for _sp, tile in p["plan"]:
                take(tile)
            if p["prompt"]:
                for tile in p["prompt"].get("drawn", []):
                    take(tile)
        if p["market"] is not None:
            for tile in p["market"]:
                take(tile)
    if any(v < 0 for v in pool.values()):
        raise DeterminiseError(f"more followers visible than exist: {pool}")
    return {t: k for t, k in pool.items() if k}


def _other_prompt(view: dict, kind: str) -> dict:
    """A plausible prompt for another seat: only its kind is public (RULES §10.1, §9.3)."""
    if kind == "harvest":
        return {"kind": "harvest", "food": _strength({"round": view["round"], "options": view["options"]},
                                                     "harvest", "foodToReturn")}
    if kind == "torture":
        return {"kind": "torture", "debt": 1, "reason": "census" if view["phase"] == "planning" else "taxes"}
    if kind == "bathhouse":
        return {"kind": "bathhouse", "drawn": [], "kept": 0}
    return {"kind": kind}


def _pulled(view: dict, me: dict, legal_actions) -> int:
    """Pull-backs already made this round by the seat (RULES §8.3), inferred from its draws."""
    if not legal_actions or me["stage"] != "draw":
        return 0
    draws = [a["count"] for a in legal_actions if a["type"] == "draw"]
    if not draws:
        return 0
    room_market = me["market_capacity"] - me["market_size"]
    most = max(draws)
    if most < min(room_market, me["bag_size"]):
        return max(0, me["draw_count"] - most)
    return 0


def _player(view: dict, pv: dict, seat: int, legal_actions) -> dict:
    """The public part of one player, from its view (hidden parts filled in later)."""
    p = new_player(pv["seat"])
    for key in ("coins", "development", "citizens", "stations_left", "merchant", "stage", "passed",
                "technology_pending"):
        p[key] = pv[key]
    p["goods"] = dict(pv["goods"])
    p["tracks"] = dict(pv["tracks"])
    p["spaces"] = {k: list(v) for k, v in pv["spaces"].items()}
    p["technology"] = dict(pv["technology"])
    p["places"] = list(pv["places"])
    # a development step back never crosses a coin space (RULES §14.3), so coins taken = spaces passed
    p["development_coins"] = [sp for sp in sorted(C.DEVELOPMENT_COINS) if sp <= pv["development"]]
    p["technology_placed_ever"] = bool(pv["technology"])
    p["tower_used"] = "gunpowder_tower" in pv["places"] and "gunpowder_tower" not in pv["usable_places"]
    p["market"] = list(pv["market"]) if pv["market"] is not None else []
    p["drawn"] = list(pv["drawn"]) if pv["drawn"] is not None else []
    if pv["seat"] == seat:
        p["bag"] = dict(pv["bag"])
        p["plan"] = [list(x) for x in pv["plan"]]
        p["pulled"] = _pulled(view, pv, legal_actions)
        if pv["prompt"]:
            prompt = clone(pv["prompt"])
            prompt.pop("payable", None)
            p["prompts"] = [prompt]
    else:
        p["prompts"] = [_other_prompt(view, pv["prompt"]["kind"])] if pv["prompt"] else []
    return p


def _deal(view: dict, seat: int, players: list, pool: dict, rng: random.Random) -> None:
    """Share the hidden followers out to the other seats' bags, markets and plans."""
    others = [pv for pv in view["players"] if pv["seat"] != seat]
    starting = {t: k for t, k in pool.items() if C.is_starting(t)}
    plain = {t: k for t, k in pool.items() if not C.is_starting(t)}
    hands: dict = {}
    need: dict = {}
    for pv in others:
        visible = [t for tiles in pv["spaces"].values() for t in tiles] + list(pv["market"] or [])
        mine = [C.STARTING_PREFIX + t for t in C.STARTING_TYPES if C.STARTING_PREFIX + t not in visible]
        for t in mine:
            if starting.get(t, 0) <= 0:
                raise DeterminiseError(f"seat {pv['seat']}'s {t} is nowhere")
            starting[t] -= 1
        hands[pv["seat"]] = mine
        size = pv["bag_size"] + (pv["market_size"] if pv["market"] is None else 0) + pv["plan_size"]
        need[pv["seat"]] = size - len(mine)
    if any(starting.values()) or sum(need.values()) != sum(plain.values()) or any(v < 0 for v in need.values()):
        raise DeterminiseError("hidden followers do not match the hidden counts")
    order = list(others)
    rng.shuffle(order)
    for i, pv in enumerate(order):
        s_ = pv["seat"]
        if i == len(order) - 1:
            hands[s_] += [t for t, k in sorted(plain.items()) for _ in range(k)]
            break
        # a track step is one recruited follower of that type (RULES §6): weight by it
        visible = [t for tiles in pv["spaces"].values() for t in tiles] + list(pv["market"] or [])
        est = {t: pv["tracks"].get(t, 0) - visible.count(t) for t in C.FOLLOWER_TYPES}
        for _ in range(need[s_]):
            types = sorted(t for t, k in plain.items() if k > 0)
            weights = [plain[t] * (1 + 3 * max(0, est.get(t, 0))) for t in types]
            t = rng.choices(types, weights)[0]
            plain[t] -= 1
            est[t] = est.get(t, 0) - 1
            hands[s_].append(t)
    for pv in others:
        _fill_seat(view, players[pv["seat"]], pv, hands[pv["seat"]], rng)


def _fill_seat(view: dict, p: dict, pv: dict, tiles: list, rng: random.Random) -> None:
    """Put one other seat's hidden tiles in its market, plan (legal placements) and bag."""
    for _attempt in range(50):
        rng.shuffle(tiles)
        hidden_market = pv["market_size"] if pv["market"] is None else 0
        k = hidden_market + pv["plan_size"]
        p["market"] = sorted(list(pv["market"] or []) + tiles[:k])
        p["plan"] = []
        p["bag"] = {}
        for t in tiles[k:]:
            _add(p["bag"], t)
        ok = True
        for _ in range(pv["plan_size"]):
            choice = _random_placement(p, rng)
            if choice is None:
                ok = False
                break
            t, pl = choice
            p["market"].remove(t)
            p["plan"].append([pl, t])
        if ok:
            p["plan"].sort()
            return
    raise DeterminiseError(f"no legal plan of {pv['plan_size']} for seat {pv['seat']}")




def _random_placement(p: dict, rng: random.Random):
    """A random legal ``(tile, place)`` placement from ``p``'s market (RULES §8.4), or None."""
    places = action_places(p)
    rng.shuffle(places)
    tiles = sorted(set(p["market"]))
    rng.shuffle(tiles)
    for pl in places:
        for t in tiles:
            if planning.can_place(p, t, pl):
                return t, pl
    return None


def determinise(view: dict, rng: random.Random, legal_actions: list | None = None) -> dict:
    """A full state tree consistent with ``view`` (``engine.view(state, seat)``, seat not None).

    ``legal_actions`` (the seat's, optional) only refines the seat's own pull-backs this
    round. Returns a JSON-safe tree (wrap it in ``GameState``); raises
    :class:`DeterminiseError` if the view is inconsistent.
    """
    seat = view["seat"]
    if seat is None:
        raise DeterminiseError("a spectator's view cannot be determinised for a seat")
    phase = view["phase"]
    players = [_player(view, pv, seat, legal_actions) for pv in view["players"]]
    _deal(view, seat, players, _hidden_pool(view, seat), rng)
    any_prompt = any(pv["prompt"] for pv in view["players"])
    return {
        "schema": SCHEMA_VERSION,
        "options": dict(view["options"]),
        "seed": rng.getrandbits(40),
        "rng": {},
        "round": view["round"],
        "phase": phase,
        "barrier": view["needs_resolution"],
        "event_waited": phase == "event" and not view["needs_resolution"] and any_prompt,
        "start_player": view["start_player"],
        "turn": view["turn"],
        "event": view["event"],
        "hourglass": _hourglass(view, rng),
        "supply": clone(view["supply"]),
        # the view's copies of these have the state's own shapes
        "removed": clone(view["removed"]),
        "routes": clone(view["routes"]),
        "stations": clone(view["stations"]),
        "deeds": clone(view["deeds"]),
        "citizens": list(view["citizens_left"]),
        "place_tiles": _place_tiles(view, rng),
        "players": players,
    }
