"""engine.bench.games_per_second: each game's median over spaced passes, so a slow spell of
the machine over part of the run does not set the figure (timed on fake clocks)."""
import pytest

from engine import GameOptions, bench


class FakeClock:
    """A clock the fake games advance by their cost."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clocks(monkeypatch):
    cpu, wall = FakeClock(), FakeClock()
    monkeypatch.setattr(bench.time, "process_time", cpu)
    monkeypatch.setattr(bench.time, "perf_counter", wall)
    return cpu, wall


def player(clocks, cost, slow):
    """A fake ``play``: game ``seed`` (1, 2, ...) costs ``cost(seed)`` seconds of CPU time,
    1.7x as much while ``slow(pass, seed)``; its wall time is twice its CPU time."""
    cpu, wall = clocks
    played = []

    def play(options, seed):
        games = played.count(1)  # how many passes have played game 1 so far
        seconds = cost(seed) * (1.7 if slow(games - (seed != 1), seed) else 1.0)
        played.append(seed)
        cpu.now += seconds
        wall.now += 2 * seconds

    return play, played


def test_a_slow_spell_moving_across_the_passes_leaves_each_games_time(clocks):
    # four of the five passes are partly slow (games 1-2 in passes 0 and 2, games 3-4 in
    # passes 1 and 3), but each game only in two of its five
    slow = {(0, 1), (0, 2), (1, 3), (1, 4), (2, 1), (2, 2), (3, 3), (3, 4)}
    play, played = player(clocks, lambda seed: 0.010 + 0.002 * (seed - 1), lambda p, seed: (p, seed) in slow)
    speed = bench.games_per_second(play, GameOptions(players=4), games=4, seed=1, passes=5)
    assert played == [1, 2, 3, 4] * 5  # every game once a pass, in seed order
    assert speed.cpu == pytest.approx(4 / 0.052)  # each game's median: its fast time
    assert speed.wall == pytest.approx(4 / 0.104)  # the wall clock's own figure
    # four passes took a spell: the median of the passes' rates reads it
    fast_and_slow = (4 / (0.010 * 1.7 + 0.012 * 1.7 + 0.014 + 0.016), 4 / (0.010 + 0.012 + 0.014 * 1.7 + 0.016 * 1.7))
    assert speed.cpu_passes == pytest.approx((fast_and_slow[0], fast_and_slow[1], fast_and_slow[0],
                                              fast_and_slow[1], 4 / 0.052))
    assert speed.cpu_rounds == pytest.approx(fast_and_slow[0])  # the middle of b, b, a, a, fast


def test_a_spell_over_most_passes_is_the_rate(clocks):
    play, _played = player(clocks, lambda seed: 0.020, lambda p, seed: p != 4)  # only the last pass is fast
    speed = bench.games_per_second(play, GameOptions(players=4), games=2, seed=1, passes=5)
    assert speed.cpu == pytest.approx(2 / 0.068)
    assert speed.cpu_rounds == pytest.approx(2 / 0.068)
