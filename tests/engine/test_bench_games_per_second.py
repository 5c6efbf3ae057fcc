"""engine.bench.games_per_second: each game's median over spaced passes, so a slow spell of
the machine over part of the run does not set the figure (timed on a fake clock)."""
import pytest

from engine import GameOptions, bench


class FakeClock:
    """process_time and perf_counter both: ``play`` advances it by the game's cost."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(bench.time, "process_time", fake)
    monkeypatch.setattr(bench.time, "perf_counter", fake)
    return fake


def test_a_slow_spell_over_two_of_five_passes_leaves_the_rate(clock):
    played = []

    def play(options, seed):
        spell = len(played) // 4 in (0, 3)  # the first and fourth passes run 1.7x slower
        played.append(seed)
        clock.now += (0.010 + 0.002 * (seed - 1)) * (1.7 if spell else 1.0)

    speed = bench.games_per_second(play, GameOptions(players=4), games=4, seed=1, passes=5)
    assert played == [1, 2, 3, 4] * 5  # every game once a pass, in seed order
    assert speed.cpu == pytest.approx(4 / (0.010 + 0.012 + 0.014 + 0.016))
    assert speed.wall == pytest.approx(speed.cpu)
    assert speed.cpu_passes == pytest.approx((4 / 0.052 / 1.7, 4 / 0.052, 4 / 0.052, 4 / 0.052 / 1.7, 4 / 0.052))
    assert speed.cpu_rounds == pytest.approx(4 / 0.052)


def test_a_spell_over_most_passes_is_the_rate(clock):
    played = []

    def play(options, seed):
        spell = len(played) // 2 != 4  # only the last of five passes is fast
        played.append(seed)
        clock.now += 0.020 * (1.5 if spell else 1.0)

    speed = bench.games_per_second(play, GameOptions(players=4), games=2, seed=1, passes=5)
    assert speed.cpu == pytest.approx(2 / 0.060)
    assert speed.cpu_rounds == pytest.approx(2 / 0.060)
