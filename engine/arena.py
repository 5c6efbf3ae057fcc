"""Bot arena (issue #10): seat-rotated games between bot levels, one JSON line of results.

``python -m engine.arena --players 4 --bots strong,greedy,greedy,greedy --games 200 --seed 1
[--budget 0.5] [--event-strength constant] [--market market3] [--hourglass classic_shuffle]
[--sequential-followers] [--progress]``

Game ``g`` uses engine seed ``seed + g`` and puts bot ``i`` of ``--bots`` on seat
``(i + g) % players``, so every bot sits in every seat equally often. Each bot is asked
through :func:`engine.bots.choose` with ``engine.view`` of its seat and the seat's legal
actions only. An action that is not legal is counted and replaced by a random legal one.

Per bot (by its position in ``--bots``): ``wins`` (ties split), ``win_rate``,
``mean_score``, ``max_score``, ``breakdown`` (mean of each part of the score, RULES §10.3),
``decisions``, ``p50_ms`` / ``p95_ms`` per decision (wall clock), ``p95_cpu_ms`` (this
process's CPU time: the same figure without the load of other processes), ``illegal``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from . import GameOptions, apply, legal_actions, new_game, outcome, resolve, view
from .bots import DEFAULT_BUDGET, LEVELS, choose
from .flow import awaiting_data
from .simulate import add_game_arguments, options_from_arguments

_BREAKDOWN = ("coins", "goods_total", "stations", "citizens", "level", "development", "stations_and_citizens")


def _percentile(values: list, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def play(options: GameOptions, seed: int, levels: list[str], budget: float | None = None,
         stats: list | None = None) -> dict:
    """Play one game with ``levels[seat]`` on each seat; return the engine's outcome.

    ``stats`` (one dict per seat, optional) collects ``times`` and ``cpu`` (wall-clock and
    CPU seconds per decision) and ``illegal`` (count). ``budget`` overrides every searching bot's thinking time (seconds)."""
    state = new_game(options, seed)
    rngs = [random.Random(seed * 7919 + seat) for seat in range(len(levels))]
    order_rng = random.Random(seed ^ 0xA5E7A)
    while state.data["phase"] != "over":
        if state.data["barrier"]:
            state, _ = resolve(state)
            continue
        awaited = sorted(awaiting_data(state.data))
        seat = order_rng.choice(awaited)
        legal = legal_actions(state, seat)
        level = levels[seat]
        b = DEFAULT_BUDGET.get(level, 0.0) if budget is None else budget
        t0, c0 = time.perf_counter(), time.process_time()
        action = choose(level, view(state, seat), legal, rngs[seat], b)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        if action not in legal:
            action = rngs[seat].choice(legal)
            if stats is not None:
                stats[seat]["illegal"] += 1
        if stats is not None:
            stats[seat]["times"].append(elapsed)
            stats[seat].setdefault("cpu", []).append(cpu)
        state, _ = apply(state, seat, action)
    return outcome(state)


def run(options: GameOptions, bots: list[str], games: int, seed: int, budget: float | None = None,
        progress=None) -> dict:
    """Play ``games`` seat-rotated games; return the JSON-safe summary (see module doc).

    ``progress`` (a text file, optional) gets one line per finished game: its seed and the
    total score of each bot by position (long runs can be followed and are not lost)."""
    n = options.players
    if len(bots) != n:
        raise ValueError(f"--bots names {len(bots)} bots for {n} players")
    for b in bots:
        if b not in LEVELS:
            raise ValueError(f"unknown bot level {b!r}; levels: {', '.join(LEVELS)}")
    per = [{"wins": 0.0, "scores": [], "parts": {k: 0.0 for k in _BREAKDOWN}, "times": [], "cpu": [], "illegal": 0}
           for _ in bots]
    start = time.perf_counter()
    for g in range(games):
        seat_of = [(i + g) % n for i in range(n)]
        levels = [None] * n
        for i, s in enumerate(seat_of):
            levels[s] = bots[i]
        stats = [{"times": [], "cpu": [], "illegal": 0} for _ in range(n)]
        result = play(options, seed + g, levels, budget, stats)
        winners = result["winners"]
        for i, s in enumerate(seat_of):
            b = result["scores"][s]
            per[i]["scores"].append(b["total"])
            for k in _BREAKDOWN:
                per[i]["parts"][k] += b[k]
            if s in winners:
                per[i]["wins"] += 1 / len(winners)
            per[i]["times"] += stats[s]["times"]
            per[i]["cpu"] += stats[s]["cpu"]
            per[i]["illegal"] += stats[s]["illegal"]
        if progress is not None:
            totals = [result["scores"][s]["total"] for s in seat_of]
            print(f"game seed {seed + g}: scores by position {totals}", file=progress, flush=True)
    out = []
    for i, name in enumerate(bots):
        d = per[i]
        out.append({
            "position": i, "name": name, "wins": round(d["wins"], 2), "win_rate": round(d["wins"] / games, 3),
            "mean_score": round(statistics.mean(d["scores"]), 1), "max_score": max(d["scores"]),
            "breakdown": {k: round(v / games, 1) for k, v in d["parts"].items()},
            "decisions": len(d["times"]), "p50_ms": round(_percentile(d["times"], 0.5) * 1e3, 2),
            "p95_ms": round(_percentile(d["times"], 0.95) * 1e3, 2),
            "p95_cpu_ms": round(_percentile(d["cpu"], 0.95) * 1e3, 2), "illegal": d["illegal"],
        })
    return {"players": n, "games": games, "seed": seed, "budget": budget, "options": options.to_dict(),
            "seconds": round(time.perf_counter() - start, 1), "bots": out}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_arguments(parser)
    parser.add_argument("--bots", default="greedy,random,random,random", help="comma-separated levels, one per seat")
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision for searching bots")
    parser.add_argument("--progress", action="store_true", help="one line per finished game on stderr")
    args = parser.parse_args(argv)
    options = options_from_arguments(args)
    try:
        summary = run(options, [b.strip() for b in args.bots.split(",")], args.games, args.seed, args.budget,
                      sys.stderr if args.progress else None)
    except ValueError as err:
        print(f"arena: {err}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
