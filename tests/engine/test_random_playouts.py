"""Seeded random playouts with every invariant of engine.simulate checked after each action."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine.simulate import play_game

CONFIGS = [
    dict(players=2),
    dict(players=3, event_strength="constant"),
    dict(players=4, place_tile_market="market3"),
    dict(players=3, place_tile_market="market5", simultaneous_followers=False),
    dict(players=2, place_tile_market="all", hourglass_order="classic_shuffle"),
    dict(players=4, simultaneous_followers=False, event_strength="constant"),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_random_games_keep_every_invariant(config):
    result = play_game(engine.GameOptions(**config), seed=100 + len(config), check=True)
    assert result["violations"] == []
    assert engine.is_over(result["state"])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    players=st.sampled_from([2, 3, 4]),
    market=st.sampled_from(["normal", "market3", "market5", "all"]),
    strength=st.sampled_from(["phased", "constant"]),
    simultaneous=st.booleans(),
)
def test_property_any_seed_and_options_play_to_the_end(seed, players, market, strength, simultaneous):
    options = engine.GameOptions(players=players, place_tile_market=market, event_strength=strength,
                                 simultaneous_followers=simultaneous)
    result = play_game(options, seed, check=True)
    assert result["violations"] == []


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), size=st.integers(min_value=0, max_value=80))
def test_the_policys_shuffle_draws_and_orders_as_random_shuffle(seed, size):
    """engine.simulate.shuffle is Random.shuffle inline: the same order and the same stream after."""
    import random

    from engine.simulate import shuffle

    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b and ours.getstate() == theirs.getstate()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), size=st.integers(min_value=1, max_value=80))
def test_the_policys_pick_draws_and_chooses_as_random_choice(seed, size):
    """engine.simulate.pick is Random.choice inline: the same item and the same stream after."""
    import random

    from engine.simulate import pick

    ours, theirs = random.Random(seed), random.Random(seed)
    items = list(range(size))
    for _ in range(5):
        assert pick(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()
