"""Every bot level plays only legal actions through whole seeded games (issue #10)."""

import pytest

import engine
from engine import arena
from engine.bots import LEVELS

CONFIGS = [
    dict(players=2),
    dict(players=3, event_strength="constant", place_tile_market="market5"),
    dict(players=4, simultaneous_followers=False, hourglass_order="classic_shuffle", place_tile_market="market3"),
    dict(players=2, place_tile_market="all", simultaneous_followers=False),
]


def _play(config: dict, seed: int, levels: list[str], budget=None) -> tuple[dict, list[dict]]:
    stats = [{"times": [], "illegal": 0} for _ in levels]
    result = arena.play(engine.GameOptions(**config), seed, levels, budget, stats)
    return result, stats


def test_the_levels_are_random_greedy_strong_weakest_first():
    assert LEVELS == ("random", "greedy", "strong")


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_random_and_greedy_play_only_legal_actions_to_the_end(config):
    n = config["players"]
    levels = (["greedy", "random"] * 2)[:n]
    result, stats = _play(config, 11 + n, levels)
    assert result is not None and len(result["scores"]) == n
    assert [s["illegal"] for s in stats] == [0] * n
    assert all(s["times"] for s in stats)


def test_strong_plays_only_legal_actions_to_the_end_with_a_tiny_budget():
    # budget 1 ms: one search iteration per decision (it always makes one)
    result, stats = _play(dict(players=2, event_strength="constant"), 3, ["strong", "greedy"], budget=0.001)
    assert result is not None
    assert [s["illegal"] for s in stats] == [0, 0]
    assert len(stats[0]["times"]) > 50
