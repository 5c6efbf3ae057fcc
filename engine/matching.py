"""Which follower tiles may fill which circles (RULES §8.4, §8.5, §11 Herb Garden / School).

A space's tiles are kept as a multiset, not pinned to circles: a set of tiles fits a space
when each tile can be given its own circle (a bipartite matching). That makes monks and the
Herb Garden / School substitutes exact without asking players which circle a wild tile took.
Spaces have at most four circles, so a small cached search is enough.
"""

from __future__ import annotations

from functools import lru_cache

from .content import follower_type, is_starting


def can_fill(tile: str, circle: str, substitutes: tuple) -> bool:
    """True if follower ``tile`` may stand on a circle of type ``circle`` (RULES §8.4, §8.5).

    ``circle`` is a follower type or ``"any"``. Monks fill any non-monk circle; a monk circle
    takes only a monk. ``substitutes`` holds ``(type, acts_as_types)`` pairs from the
    owner's permanent place tiles (Herb Garden, School; RULES §11).
    """
    kind = follower_type(tile)
    if circle == "any" or circle == kind:
        return True
    if circle == "monk":
        return False
    if kind == "monk":
        return True
    return any(kind == sub and circle in acts for sub, acts in substitutes)


@lru_cache(maxsize=65536)
def fits(circles: tuple, tiles: tuple, substitutes: tuple) -> bool:
    """True if every tile in ``tiles`` can take a distinct circle of ``circles`` (RULES §8.4, §8.5).

    ``circles`` are the free circle types of one space (technology-covered circles removed);
    ``tiles`` should be sorted so the cache is effective.
    """
    if len(tiles) > len(circles):
        return False
    if not tiles:
        return True
    first, rest = tiles[0], tiles[1:]
    tried = set()
    for i, circle in enumerate(circles):
        if circle in tried or not can_fill(first, circle, substitutes):
            continue
        tried.add(circle)
        if fits(circles[:i] + circles[i + 1 :], rest, substitutes):
            return True
    return False


def town_hall_allows(tile: str) -> bool:
    """Starting followers may never be put on the Town Hall (RULES §7.2, §14.8)."""
    return not is_starting(tile)
