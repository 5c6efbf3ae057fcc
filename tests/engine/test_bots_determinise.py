"""Determinisation: a full state sampled from one seat's view (engine.bots.sample, issue #10)."""

import random

import pytest

import engine
from engine.bots.sample import determinise
from engine.simulate import check_invariants
from engine.state import GameState

from .bot_positions import positions

CONFIGS = [
    dict(players=4),
    dict(players=2, simultaneous_followers=False, place_tile_market="market3", hourglass_order="classic_shuffle"),
    dict(players=3, place_tile_market="market5", event_strength="constant"),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_a_sampled_state_shows_the_seat_exactly_its_view_and_keeps_every_invariant(config):
    checked = 0
    for state, seat in positions(engine.GameOptions(**config), seed=21, every=3):
        seen = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        sample = determinise(seen, random.Random(checked), legal)
        assert check_invariants(sample) == []
        assert engine.view(GameState(sample), seat) == seen
        assert engine.legal_actions(GameState(sample), seat) == legal
        checked += 1
    assert checked > 50


def test_a_sampled_state_can_be_played_on_by_the_engine():
    for k, (state, seat) in enumerate(positions(engine.GameOptions(players=3), seed=4, every=25)):
        sample = GameState(determinise(engine.view(state, seat), random.Random(k)))
        for _ in range(30):
            if engine.is_over(sample):
                break
            if engine.needs_resolution(sample):
                sample, _ = engine.resolve(sample)
                continue
            who = min(engine.awaiting(sample))
            sample, _ = engine.apply(sample, who, engine.legal_actions(sample, who)[-1])
            assert check_invariants(sample.data) == []


def test_the_hidden_parts_are_sampled_not_copied():
    state, seat = next((s, t) for s, t in positions(engine.GameOptions(players=4), seed=8)
                       if s.round == 3 and s.phase == "planning")
    samples = [determinise(engine.view(state, seat), random.Random(k)) for k in range(8)]
    assert len({tuple(s["hourglass"]) for s in samples}) > 1
    other = (seat + 1) % 4
    assert len({repr(sorted(s["players"][other]["bag"].items())) for s in samples}) > 1
    assert all(s["seed"] != state.data["seed"] for s in samples)


def test_the_abc_hourglass_sample_keeps_each_later_stack_whole():
    state, seat = next((s, t) for s, t in positions(engine.GameOptions(players=2), seed=3) if s.round == 4)
    sample = determinise(engine.view(state, seat), random.Random(1))
    stack = sample["hourglass"]
    assert len(stack) == 14  # rounds 5..18
    assert sorted(stack[2:8]) == sorted(engine.content.EVENTS)  # phase B: rounds 7..12
    assert sorted(stack[8:]) == sorted(engine.content.EVENTS)  # phase C: rounds 13..18
