"""Deterministic randomness: every random choice is derived from (seed, stream, counter).

The module-level ``random`` functions are never used. The state keeps one counter per
stream: ``"setup"`` for the shuffles of setup and the place-tile market, and one stream per
seat for draws from that seat's bag, so one seat's draws do not depend on when the other
seats submit (RULES §14.12).
"""

from __future__ import annotations

import random

_STREAM_IDS = {"setup": 7}


def _stream_number(stream: str | int) -> int:
    if isinstance(stream, int):
        return 100 + stream
    return _STREAM_IDS[stream]


def rng_for(state_data: dict, stream: str | int) -> random.Random:
    """Return a ``random.Random`` for the next draw of ``stream`` and advance its counter.

    ``state_data`` is the mutable state dict being built by ``apply``; its ``"rng"`` dict
    maps stream keys to counters.
    """
    key = str(stream)
    counters = state_data["rng"]
    n = counters.get(key, 0)
    counters[key] = n + 1
    seed = state_data["seed"]
    return random.Random((seed << 40) ^ (_stream_number(stream) << 24) ^ n)
