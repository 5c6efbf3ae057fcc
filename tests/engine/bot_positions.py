"""Positions for the bot tests: seeded games played by the purposeful random policy."""

import random

import engine
from engine.flow import awaiting_data
from engine.simulate import choose


def positions(options: engine.GameOptions, seed: int, every: int = 1):
    """Yield ``(state, seat)`` for every ``every``-th decision of one random game."""
    rng = random.Random(seed)
    state = engine.new_game(options, seed)
    k = 0
    while not engine.is_over(state):
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
            continue
        awaited = awaiting_data(state.data)
        seat = rng.choice(sorted(awaited))
        legal = engine.legal_actions(state, seat)
        if k % every == 0:
            yield state, seat
        k += 1
        state, _ = engine.apply(state, seat, choose(rng, awaited[seat], legal, state.data, seat))


def position_where(options: engine.GameOptions, seed: int, test) -> tuple:
    """The first ``(state, seat)`` of the game for which ``test(state, seat)`` is true."""
    for state, seat in positions(options, seed):
        if test(state, seat):
            return state, seat
    raise AssertionError("no such position in the game")
