"""The game state: one JSON-safe tree of dicts, lists, strings, ints and bools.

:class:`GameState` wraps that tree. The engine never changes a state it has returned: every
``apply`` works on a copy (:func:`clone`) and wraps the result in a new ``GameState``. The
tree holds only JSON types with string keys, so serialisation is exact (``engine.serialize``).
"""

from __future__ import annotations

import marshal

SCHEMA_VERSION = 1


def clone(data: dict) -> dict:
    """Deep copy of a JSON-safe state tree (marshal is the fastest exact copy in the stdlib)."""
    return marshal.loads(marshal.dumps(data))


class GameState:
    """An immutable-by-convention game state.

    ``data`` is the JSON-safe tree described in ``docs/engine.md``. Read it through the
    engine's functions (``awaiting``, ``view``, ``outcome``); do not modify it.
    """

    __slots__ = ("data", "revealable")

    def __init__(self, data: dict):
        self.data = data
        # set by history.replay_steps(reveal=True) on the steps of a log that ends the game:
        # such a state may be viewed with full information (engine.view(..., reveal=True))
        self.revealable = False

    def __eq__(self, other):
        return isinstance(other, GameState) and self.data == other.data

    def __hash__(self):  # pragma: no cover - states are not meant as dict keys
        raise TypeError("GameState is not hashable")

    def __repr__(self):
        d = self.data
        return f"<GameState round={d['round']} phase={d['phase']} players={len(d['players'])}>"

    @property
    def round(self) -> int:
        """Current round, 1–18 (0 before the first hourglass reveal)."""
        return self.data["round"]

    @property
    def phase(self) -> str:
        """``"planning"`` (followers and planning), ``"actions"``, ``"event"`` or ``"over"``."""
        return self.data["phase"]

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.data["players"])
