"""Random playouts with invariant checks.

``python -m engine.simulate --players N --games G --seed S [--event-strength constant]
[--market market3] [--sequential-followers] [--hourglass classic_shuffle]`` plays G complete
games with random legal actions and checks after every action:

- no negative counts (coins, goods, supplies, bags, stations, technology tiles);
- followers, goods, technology tiles, trading stations and citizens are conserved across
  supply, bags, markets, plans, spaces, deeds, prompts and removed-from-game;
- the JSON round-trip of the state is exact;
- a replica fed only the JSON-encoded action log equals the live state;
- no seat's view holds another seat's hidden information (bag, market or plan before the
  reveal, prompt details), the seed, the hourglass order or hidden stack order.

At the end of each game, ``replay`` of the action log must equal the live state (apply is
deterministic, so this covers every intermediate state too).

It prints one JSON line: games, actions, violations, mean and max score, games per second
and the median microseconds per ``apply``.
"""

from __future__ import annotations

import argparse
from functools import lru_cache
from itertools import combinations
import json
import random
import statistics
import sys
import time

from . import (GameOptions, apply, content as C, from_json, legal_actions, new_game, outcome, replay, resolve,
               to_json, view)
from .flow import awaiting_state
from .matching import fits
from .steps import circles_left, substitutes


def choose(rng: random.Random, kind: str, legal: list[dict], data: dict | None = None, seat: int = 0) -> dict:
    """A random but purposeful policy: plans prefer placements that fill a space, draws are
    mostly full (sometimes pulling a stranded tile back), and actions beat passing."""
    if kind == "plan":
        places = [a for a in legal if a["type"] == "place"]
        if data is not None and places and rng.random() < 0.9:
            shuffle(rng, places)
            best = _best_placement(places, data["players"][seat])
            if best is not None:
                return best
        elif places and rng.random() < 0.7:
            return pick(rng, places)
        undo = [a for a in legal if a["type"] == "unplace"]
        if undo and rng.random() < 0.03:
            return pick(rng, undo)
        return {"type": "submit_plan"}
    if kind == "draw":
        pulls = [a for a in legal if a["type"] == "pull_back"]
        if pulls and rng.random() < 0.25:
            return pick(rng, pulls)
        draws = [a for a in legal if a["type"] == "draw"]
        if draws and rng.random() < 0.9:
            return max(draws, key=lambda a: a["count"])
        return pick(rng, legal)
    if kind == "action":
        acts = [a for a in legal if a["type"] != "pass"]
        if acts and rng.random() < 0.95:
            return pick(rng, acts)
        return {"type": "pass"}
    return pick(rng, legal)


def pick(rng: random.Random, items):
    """``rng.choice(items)``: the same draw and the same item, for a plain
    :class:`random.Random` without its two calls (the policy picks on every decision)."""
    if type(rng) is not random.Random:
        return rng.choice(items)
    n = len(items)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()  # random.Random.choice and _randbelow_with_getrandbits, inline
    getrandbits = rng.getrandbits
    j = getrandbits(k)
    while j >= n:
        j = getrandbits(k)
    return items[j]


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``: the same draws and the same order, for a plain
    :class:`random.Random` without its call per item (the policy shuffles every plan step)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1))
        if len(items) <= 256:
            _SHUFFLE_STEPS[len(items)] = steps
    for i, n, k in steps:  # random.Random.shuffle and _randbelow_with_getrandbits, inline
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


#: list length -> the shuffle's steps ``(i, i + 1, its bit length)``, from the last item down
_SHUFFLE_STEPS: dict = {}


def _best_placement(places: list[dict], p: dict) -> dict | None:
    """The first of ``places`` (place actions of the player ``p``) that fills its space,
    else the first that the market can still complete (the Town Hall always can), else None."""
    here, tech = p["spaces"], p["technology"]
    planned: dict = {}  # space -> this round's tiles planned there
    for space, tile in p["plan"]:
        planned.setdefault(space, []).append(tile)
    missing: dict = {}  # space -> circles still free once its tiles and planned ones stand there
    for a in places:  # a placement that fills its space wins wherever it comes
        space = a["space"]
        if space == "town_hall":
            continue
        left = missing.get(space)
        if left is None:
            left = missing[space] = (len(circles_left(space, tech.get(space))) - len(here.get(space, ()))
                                     - len(planned.get(space, ())))
        if left == 1:
            return a
    subs = None  # looked up for the first completion scored
    markets: dict = {}
    for a in places:  # else the first the market can complete (score 3 would have filled it above)
        space = a["space"]
        if space == "town_hall":
            return a
        tile = a["follower"]
        market = markets.get(tile)
        if market is None:
            market = list(p["market"])
            market.remove(tile)
            market = markets[tile] = tuple(market)
        if missing[space] - 1 > len(market):
            continue  # fewer tiles left than free circles: no completion (the score's combinations are none)
        tiles = tuple(sorted([*here.get(space, ()), *planned.get(space, ()), tile]))
        if subs is None:
            subs = substitutes(p)
        if _completion_score(circles_left(space, tech.get(space)), tiles, market, subs) == 2:
            return a
    return None


@lru_cache(maxsize=65536)
def _completion_score(circles: tuple, tiles: tuple, market: tuple, subs: tuple) -> int:
    missing = len(circles) - len(tiles)
    if missing == 0:
        return 3
    for extra in set(combinations(market, missing)):
        if fits(circles, tuple(sorted(tiles + extra)), subs):
            return 2
    return 0


def check_invariants(data: dict) -> list[str]:
    """Conservation and non-negativity checks on a state tree; returns the violations."""
    errors = []
    n = len(data["players"])
    # followers
    expected = dict(C.NEUTRAL_FOLLOWERS[n])
    for t in C.STARTING_TYPES:
        expected[C.STARTING_PREFIX + t] = n
    seen: dict = {}

    def add(tile, k=1):
        seen[tile] = seen.get(tile, 0) + k

    for tile, k in data["supply"]["followers"].items():
        add(tile, k)
    for tile, k in data["removed"]["followers"].items():
        add(tile, k)
    for deed in data["deeds"].values():
        for tile, _seat in deed:
            add(tile)
    for p in data["players"]:
        for tile, k in p["bag"].items():
            add(tile, k)
        for tile in p["market"]:
            add(tile)
        for tiles in p["spaces"].values():
            for tile in tiles:
                add(tile)
        for _sp, tile in p["plan"]:
            add(tile)
        for prompt in p["prompts"]:
            for tile in prompt.get("drawn", []):
                add(tile)
    if seen != {k: v for k, v in expected.items() if v}:
        errors.append(f"followers not conserved: {seen} != {expected}")
    # goods
    for g in C.GOODS:
        total = data["supply"]["goods"][g] + data["removed"]["goods"][g]
        total += sum(r.count(g) for r in data["routes"].values())
        total += sum(p["goods"][g] for p in data["players"])
        if total != C.GOODS_TOTAL[g]:
            errors.append(f"{g} not conserved: {total}")
    # technology tiles
    tech = data["supply"]["technology"] + data["removed"]["technology"]
    tech += sum(len(p["technology"]) + p["technology_pending"] for p in data["players"])
    if tech != C.TECHNOLOGY_TILES:
        errors.append(f"technology tiles not conserved: {tech}")
    # trading stations
    stations = data["removed"]["stations"] + sum(len(v) for v in data["stations"].values())
    stations += sum(p["stations_left"] for p in data["players"])
    if stations != C.TRADING_STATIONS * n:
        errors.append(f"trading stations not conserved: {stations}")
    # citizens
    citizens = len(data["citizens"]) + sum(p["citizens"] for p in data["players"])
    if citizens != C.CITIZENS_TOTAL:
        errors.append(f"citizens not conserved: {citizens}")
    # place tiles
    places = sum(len(v) for v in data["place_tiles"]["display"].values())
    places += sum(len(v) for v in data["place_tiles"]["stack"].values())
    places += len(data["removed"]["places"]) + sum(len(p["places"]) for p in data["players"])
    if data["options"]["place_tile_market"] != "normal" and places != len(C.PLACE_TILES):
        errors.append(f"place tiles not conserved: {places}")
    # non-negative counts
    counts = [data["supply"]["technology"]] + list(data["supply"]["goods"].values())
    counts += list(data["supply"]["followers"].values())
    for p in data["players"]:
        counts += [p["coins"], p["stations_left"], p["technology_pending"], p["development"]]
        counts += list(p["goods"].values()) + list(p["bag"].values())
        if len(p["market"]) > 10:
            errors.append(f"seat {p['seat']} market over capacity")
    if any(c < 0 for c in counts):
        errors.append("negative count")
    return errors


def check_view(data: dict, state) -> list[str]:
    """No seat's view shows another seat's hidden information or the hidden stacks."""
    errors = []
    n = len(data["players"])
    for viewer in list(range(n)) + [None]:
        v = view(state, viewer)
        text = json.dumps(v)
        if '"seed"' in text or '"rng"' in text or '"hourglass"' in text or '"stack"' in text:
            errors.append(f"view of {viewer} shows the seed or a hidden stack")
        for p in v["players"]:
            if p["seat"] == viewer:
                continue
            if p["bag"] is not None or p["plan"] is not None:
                errors.append(f"view of {viewer} shows seat {p['seat']}'s bag or plan")
            if data["phase"] == "planning" and p["market"] is not None:
                errors.append(f"view of {viewer} shows seat {p['seat']}'s market while planning")
            if p["prompt"] is not None and set(p["prompt"]) != {"kind"}:
                errors.append(f"view of {viewer} shows seat {p['seat']}'s prompt details")
    return errors


def play_game(options: GameOptions, seed: int, check: bool = True, timings: list | None = None) -> dict:
    """Play one random game; return ``{"actions", "violations", "scores", "log", "state"}``.

    With ``check``, after every action: the invariants, the JSON round-trip, the views, and
    a replica rebuilt only from the JSON-encoded log (as the site stores it) must equal the
    live state; at the end a full :func:`replay` must too.
    """
    rng = random.Random(seed ^ 0x5EED)
    state = new_game(options, seed)
    replica = state
    log, violations, actions = [], [], 0
    while state.data["phase"] != "over":
        if state.data["barrier"]:
            state, _ = resolve(state)
            log.append((None, None))
            if check:
                replica, _ = resolve(replica)
        else:
            awaited = awaiting_state(state)
            seat = pick(rng, sorted(awaited))
            legal = legal_actions(state, seat)
            action = choose(rng, awaited[seat], legal, state.data, seat)
            if timings is None:
                state, _ = apply(state, seat, action)
            else:
                t0 = time.perf_counter()
                state, _ = apply(state, seat, action)
                timings.append(time.perf_counter() - t0)
            log.append((seat, action))
            actions += 1
            if check:
                replica, _ = apply(replica, seat, json.loads(json.dumps(action)))
        if check:
            violations += check_invariants(state.data)
            again = from_json(json.loads(json.dumps(to_json(state))))
            if again != state:
                violations.append("JSON round-trip differs")
            if replica != state:
                violations.append(f"replay of the logged actions differs after action {actions}")
                replica = state
            violations += check_view(state.data, state)
        if actions > 20000:
            violations.append("game did not end")
            break
    if check and replay(options, seed, log) != state:
        violations.append("replay differs from the live state")
    result = outcome(state)
    return {"actions": actions, "violations": violations, "scores": [s["total"] for s in result["scores"]] if result else [],
            "log": log, "state": state}


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The command-line options of a game shared by the engine's tools: ``--players``,
    ``--games``, ``--seed``, ``--event-strength``, ``--market``, ``--hourglass``,
    ``--sequential-followers`` (read back with :func:`options_from_arguments`)."""
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--event-strength", default="phased", choices=["phased", "constant"])
    parser.add_argument("--market", default="normal", choices=["normal", "market3", "market5", "all"])
    parser.add_argument("--hourglass", default="abc", choices=["abc", "classic_shuffle"])
    parser.add_argument("--sequential-followers", action="store_true")


def options_from_arguments(args: argparse.Namespace) -> GameOptions:
    """The :class:`GameOptions` of parsed :func:`add_game_arguments`; raises ``InvalidOptions``."""
    return GameOptions(players=args.players, event_strength=args.event_strength, place_tile_market=args.market,
                       hourglass_order=args.hourglass, simultaneous_followers=not args.sequential_followers)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_arguments(parser)
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed only)")
    args = parser.parse_args(argv)
    options = options_from_arguments(args)
    timings: list = []
    scores, violations, actions = [], [], 0
    t0 = time.perf_counter()
    for g in range(args.games):
        result = play_game(options, args.seed + g, check=not args.no_check, timings=timings)
        actions += result["actions"]
        scores += result["scores"]
        violations += [f"game {args.seed + g}: {v}" for v in result["violations"]]
    elapsed = time.perf_counter() - t0
    line = {
        "games": args.games,
        "players": args.players,
        "options": options.to_dict(),
        "actions": actions,
        "violations": len(violations),
        "mean_score": round(statistics.mean(scores), 1) if scores else None,
        "max_score": max(scores) if scores else None,
        "games_per_second": round(args.games / elapsed, 2),
        "median_apply_us": round(statistics.median(timings) * 1e6, 1) if timings else None,
    }
    print(json.dumps(line))
    for v in violations[:20]:
        print(v, file=sys.stderr)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
