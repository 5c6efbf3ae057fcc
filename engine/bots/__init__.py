"""Computer players (issue #10): pure Python, decide from one seat's view only.

A bot is any object with ``choose(view, legal_actions, rng, budget) -> action``:

- ``view``: ``engine.view(state, seat)`` for the seat the bot plays (the only thing it
  may know about the game: never the state, the seed, another bag or the hourglass order);
- ``legal_actions``: ``engine.legal_actions(state, seat)``, non-empty;
- ``rng``: a ``random.Random`` owned by the caller (the bot's only source of chance);
- ``budget``: seconds of thinking time the bot may use (a float; bots that do not search
  ignore it).

It returns one element of ``legal_actions`` (the same dict, not a copy).

Levels are looked up by name with :func:`get_bot`; :data:`LEVELS` lists them weakest
first. The site stores the level name on a bot seat.

- ``random`` (:mod:`.random_bot`): a uniformly random legal action;
- ``greedy`` (:mod:`.greedy`): one step ahead with a hand-written value function, on a state
  sampled from the view (:mod:`.sample`);
- ``strong`` (:mod:`.strong`): determinised Monte Carlo over greedy playouts, within
  ``budget`` (default 1 s: measured p95 0.72 s at 0.5 s and 1.18 s at 1 s on this machine).
"""

from __future__ import annotations

import random
from typing import Protocol

from .greedy import GreedyBot
from .random_bot import RandomBot
from .strong import StrongBot

#: Default thinking time per decision, seconds, per level (the site passes these). Strong's
#: 1 s keeps its p95 under 2 s on this 2-core machine even under load (the first search
#: iteration always completes; see engine.bots.strong).
DEFAULT_BUDGET = {"random": 0.0, "greedy": 0.0, "strong": 1.0}


class Bot(Protocol):
    """The bot protocol: see the module docstring."""

    name: str

    def choose(self, view: dict, legal_actions: list[dict], rng: random.Random, budget: float) -> dict:
        """Return one element of ``legal_actions`` decided from ``view`` alone."""
        ...


_REGISTRY: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}

#: Level names, weakest first.
LEVELS: tuple[str, ...] = tuple(_REGISTRY)


def get_bot(level: str) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`). Raises ``KeyError`` for an unknown level."""
    return _REGISTRY[level]()


def choose(level: str, view: dict, legal_actions: list[dict], rng: random.Random,
           budget: float | None = None) -> dict:
    """Ask a bot of ``level`` for one of ``legal_actions`` (``budget`` in seconds; ``None``:
    the level's default). Raises ``KeyError`` for an unknown level, ``ValueError`` when
    ``legal_actions`` is empty."""
    if not legal_actions:
        raise ValueError("a bot was asked to choose with no legal action")
    if budget is None:
        budget = DEFAULT_BUDGET.get(level, 0.0)
    return get_bot(level).choose(view, legal_actions, rng, budget)


__all__ = ["Bot", "LEVELS", "DEFAULT_BUDGET", "get_bot", "choose", "RandomBot", "GreedyBot", "StrongBot"]
