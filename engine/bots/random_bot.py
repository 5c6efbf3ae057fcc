"""The ``random`` bot: a uniformly random legal action (for tests and as a baseline)."""

from __future__ import annotations

import random


class RandomBot:
    """Plays a uniformly random element of ``legal_actions``; ignores the view and budget."""

    name = "random"

    def choose(self, view: dict, legal_actions: list[dict], rng: random.Random, budget: float) -> dict:
        """Return ``rng.choice(legal_actions)``. Raises ``IndexError`` if the list is empty."""
        return rng.choice(legal_actions)
