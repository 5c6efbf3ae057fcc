"""``make bench``: engine speed figures (not a test; prints figures and ratios to targets).

- complete 4-player random games per second on one core (target ≥ 40, issue #14), by CPU
  time (``time.process_time``: what one core spends, so a busy machine slows it less) and by
  wall time: each game is played once per pass (:data:`ROUNDS` passes over the same seeds,
  one after another) and timed alone, and the rate is the games over the sum of each game's
  median time (:func:`games_per_second`); the median of the passes' rates (the figure of
  earlier runs) is printed beside it; then the baseline measured in the same run, the same
  games with the rules applied in place on one tree (no copy, no validation, no take-back
  record: what the public API's guarantees cost is the gap);
- median and 95th-percentile microseconds per ``apply`` (target median ≤ 200);
- median microseconds per ``legal_actions`` and per ``view``;
- the largest serialised 4-player state seen during a game, in KB (target ≤ 30);
- a short bot arena (issue #10): ``greedy`` against three ``random`` over a few seat-rotated
  4-player games: its win rate (target ≥ 0.9), mean score and p95 ms per decision (target ≤ 50).
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass

from . import GameOptions, legal_actions, to_json, view
from .simulate import choose, play_game

TARGET_GAMES_PER_SECOND = 40
#: Passes over the games: each game's time is the median of this many, a pass apart.
ROUNDS = 7
TARGET_MEDIAN_APPLY_US = 200
TARGET_STATE_KB = 30
TARGET_GREEDY_WIN_RATE = 0.9
TARGET_GREEDY_P95_MS = 50
BOT_GAMES = 4


def interpreter() -> str:
    """The interpreter the figures are measured on, e.g. ``"CPython 3.11.2 (/usr/bin/python3.11)"``:
    the executable a virtual environment was made from. Its build counts: Debian's CPython,
    built with profile-guided and link-time optimisation, plays these games about a sixth
    faster than a plain source build of the same version (docs/performance.md, 2026-12-07)."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return f"{platform.python_implementation()} {platform.python_version()} ({base})"


def _percentile(values: list, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def play_in_place(options: GameOptions, seed: int) -> dict:
    """The baseline: :func:`engine.simulate.play_game`'s game for ``seed`` (same policy, same
    random streams, so the same moves) with each action's step run in place on one tree by
    the engine's internals: no copy, no validation, no take-back record. Returns the tree."""
    from . import new_game
    from .flow import ACTIONS, _resolve_barrier, advance, awaiting_data, legal_data

    rng = random.Random(seed ^ 0x5EED)
    s = new_game(options, seed).data  # a fresh tree nobody else holds
    awaited = awaiting_data(s)
    while s["phase"] != "over":
        ev: list = []
        if s["barrier"]:
            _resolve_barrier(s, ev)
        else:
            seat = rng.choice(sorted(awaited))
            action = choose(rng, awaited[seat], legal_data(s, seat, awaited[seat]), s, seat)
            ACTIONS[action["type"]][1](s, seat, action, ev)
        awaited = advance(s, ev)  # it works the awaited seats out on the way
    return s


@dataclass(frozen=True)
class Speed:
    """Games per second of one player of games (:func:`games_per_second`).

    ``cpu``, ``wall``: the games over the sum of each game's median time (CPU time, wall
    time); ``cpu_rounds``: the median of the passes' own rates by CPU time (a pass's games
    over the sum of their times: what each of the 3 rounds measured before 2026-12-07);
    ``cpu_passes``: those rates in pass order."""

    cpu: float
    wall: float
    cpu_rounds: float
    cpu_passes: tuple[float, ...]


def games_per_second(play, options: GameOptions, games: int, seed: int, passes: int = ROUNDS) -> Speed:
    """Games per second of ``play(options, seed)`` for seeds ``seed``.. ``seed + games - 1``.

    Every game is played once in each of ``passes`` passes over the seeds and timed alone;
    its time is the median of its passes, a whole pass apart (``passes`` ≥ 1). The machine
    this runs on has slow spells, from a tenth of a second to two seconds at a time, when
    every instruction takes up to 1.7× as long (a CPU-bound loop timed every 11 ms for 30 s:
    docs/performance.md, 2026-12-07): a game's median over passes a pass apart is its time
    outside the spells while they take fewer than half of its passes, where a pass's own
    rate takes every spell it overlaps. A spell longer than half the run still sets it."""
    cpu = [[0.0] * passes for _ in range(games)]
    wall = [[0.0] * passes for _ in range(games)]
    for p in range(passes):
        for g in range(games):
            c0, t0 = time.process_time(), time.perf_counter()
            play(options, seed + g)
            cpu[g][p], wall[g][p] = time.process_time() - c0, time.perf_counter() - t0
    rounds = tuple(games / sum(times[p] for times in cpu) for p in range(passes))
    return Speed(cpu=games / sum(statistics.median(times) for times in cpu),
                 wall=games / sum(statistics.median(times) for times in wall),
                 cpu_rounds=statistics.median(rounds), cpu_passes=rounds)


def main(games: int = 20, seed: int = 1) -> dict:
    """Run the benchmark and print one line per figure plus a JSON summary line."""
    options = GameOptions(players=4)
    timings: list = []
    states = [play_game(options, seed + g, check=False, timings=timings) for g in range(games)]
    speed = games_per_second(lambda o, sd: play_game(o, sd, check=False), options, games, seed)
    cpu_rate, wall_rate = speed.cpu, speed.wall
    in_place = games_per_second(play_in_place, options, games, seed).cpu

    # legal_actions / view / state size over the log of one game
    from . import new_game, apply, resolve

    state = new_game(options, seed)
    legal_t, view_t, sizes = [], [], []
    for seat, action in states[0]["log"]:
        t0 = time.perf_counter()
        if seat is None:
            state = resolve(state)[0]
            continue
        legal_actions(state, seat)
        legal_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        view(state, seat)
        view_t.append(time.perf_counter() - t0)
        state = apply(state, seat, action)[0]
        sizes.append(len(json.dumps(to_json(state), separators=(",", ":"))))
    summary = {
        "games": games,
        "games_per_second": round(cpu_rate, 2),
        "engine_games_per_s": round(cpu_rate, 2),
        "games_per_second_wall": round(wall_rate, 2),
        "games_per_second_rounds": round(speed.cpu_rounds, 2),
        "in_place_games_per_second": round(in_place, 2),
        "apply_median_us": round(statistics.median(timings) * 1e6, 1),
        "apply_p95_us": round(_percentile(timings, 0.95) * 1e6, 1),
        "legal_actions_median_us": round(statistics.median(legal_t) * 1e6, 1),
        "view_median_us": round(statistics.median(view_t) * 1e6, 1),
        "state_max_kb": round(max(sizes) / 1024, 1),
        "actions_per_game": round(len(timings) / games, 1),
    }
    print(f"interpreter: {interpreter()}")
    print(f"4-player random games per second (one core, CPU time, each game's median of {ROUNDS} passes): "
          f"{summary['games_per_second']:>8}  target >= {TARGET_GAMES_PER_SECOND}  "
          f"ratio {cpu_rate / TARGET_GAMES_PER_SECOND:.2f}")
    print(f"  the same by wall time:                    {summary['games_per_second_wall']:>8}")
    print(f"  the median of the passes' own rates:      {summary['games_per_second_rounds']:>8}  "
          f"(passes: {', '.join(f'{rate:.1f}' for rate in speed.cpu_passes)})")
    print(f"  baseline, the rules in place (no copy, no validation): {summary['in_place_games_per_second']:>8}  "
          f"product/baseline {cpu_rate / in_place:.2f}")
    print(f"apply median / p95 (us):                    {summary['apply_median_us']:>8} / {summary['apply_p95_us']}  "
          f"target median <= {TARGET_MEDIAN_APPLY_US}  ratio {summary['apply_median_us'] / TARGET_MEDIAN_APPLY_US:.2f}")
    print(f"legal_actions median (us):                  {summary['legal_actions_median_us']:>8}")
    print(f"view median (us):                           {summary['view_median_us']:>8}")
    print(f"largest serialised 4-player state (KB):     {summary['state_max_kb']:>8}  "
          f"target <= {TARGET_STATE_KB}  ratio {summary['state_max_kb'] / TARGET_STATE_KB:.2f}")
    summary.update(_bot_arena(seed))
    print(json.dumps(summary))
    return summary


def _bot_arena(seed: int) -> dict:
    """Greedy against three random bots: a few seat-rotated games (engine.arena)."""
    from .arena import run

    result = run(GameOptions(players=4), ["greedy", "random", "random", "random"], BOT_GAMES, seed)
    greedy, randoms = result["bots"][0], result["bots"][1:]
    out = {
        "bot_games": BOT_GAMES,
        "greedy_win_rate": greedy["win_rate"],
        "greedy_mean_score": greedy["mean_score"],
        "random_mean_score": round(sum(b["mean_score"] for b in randoms) / len(randoms), 1),
        "greedy_p95_ms": greedy["p95_ms"],
        "bot_illegal_actions": sum(b["illegal"] for b in result["bots"]),
    }
    print(f"greedy vs 3 random, win rate ({BOT_GAMES} games):  {out['greedy_win_rate']:>8}  "
          f"target >= {TARGET_GREEDY_WIN_RATE}  mean score {out['greedy_mean_score']} vs {out['random_mean_score']}")
    print(f"greedy p95 per decision (ms):               {out['greedy_p95_ms']:>8}  "
          f"target <= {TARGET_GREEDY_P95_MS}  ratio {out['greedy_p95_ms'] / TARGET_GREEDY_P95_MS:.2f}")
    return out


if __name__ == "__main__":
    main()
