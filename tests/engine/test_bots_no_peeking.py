"""Bots decide from the seat's view only: states that differ only in hidden information get
the same decision for the same rng (issue #10)."""

import random

import pytest

import engine
from engine.bots import LEVELS, get_bot
from engine.bots.strong import StrongBot
from engine.state import GameState, clone

from .bot_positions import positions


def _hide_differently(state: engine.GameState, seat: int) -> engine.GameState:
    """The same position with other hidden information: another seed (future draws), the
    hourglass stack reversed within each phase stack, and every other seat's bag and
    hidden market swapped tile for tile where their types differ."""
    s = clone(state.data)
    s["seed"] = s["seed"] + 12345
    head = 6 - s["round"] % 6 if s["round"] % 6 else 0
    stack = s["hourglass"]
    s["hourglass"] = stack[:head][::-1] + stack[head:head + 6][::-1] + stack[head + 6:][::-1]
    if s["phase"] == "planning":
        for p in s["players"]:
            if p["seat"] == seat or not p["bag"] or not p["market"]:
                continue
            out = next((t for t in p["market"] if any(b != t for b in p["bag"])), None)
            if out is None:
                continue
            into = next(b for b in sorted(p["bag"]) if b != out)
            p["market"].remove(out)
            p["market"].append(into)
            p["market"].sort()
            p["bag"][into] -= 1
            if not p["bag"][into]:
                del p["bag"][into]
            p["bag"][out] = p["bag"].get(out, 0) + 1
    return GameState(s)


def _bot(level: str):
    return StrongBot(max_iterations=1) if level == "strong" else get_bot(level)


CONFIGS = [dict(players=4), dict(players=3, simultaneous_followers=False, place_tile_market="market3")]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_every_level_decides_the_same_when_only_hidden_information_differs(config):
    compared = 0
    for state, seat in positions(engine.GameOptions(**config), seed=17, every=37):
        other = _hide_differently(state, seat)
        assert other.data != state.data
        seen = engine.view(state, seat)
        assert engine.view(other, seat) == seen
        legal = engine.legal_actions(state, seat)
        assert engine.legal_actions(other, seat) == legal
        for level in LEVELS:
            a = _bot(level).choose(seen, legal, random.Random(5), 5.0)
            b = _bot(level).choose(engine.view(other, seat), engine.legal_actions(other, seat), random.Random(5), 5.0)
            assert a == b, (level, state.round, state.phase)
        compared += 1
    assert compared >= 8
