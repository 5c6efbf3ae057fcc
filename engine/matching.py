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


@lru_cache(maxsize=65536)
def assign(circles: tuple, covered: str | None, tiles: tuple, substitutes: tuple) -> tuple | None:
    """Which circle each tile stands on: a tuple with one entry per circle of ``circles``
    (the place's circles in component order): ``"technology"`` for the circle a technology
    tile of type ``covered`` covers (the first of its type, RULES §8.6), the index into
    ``tiles`` of the follower standing there, or None for a free circle. ``None`` if the
    tiles do not fit (RULES §8.4, §8.5).

    The same matching as :func:`fits`; among the valid assignments it prefers, tile by tile
    in the given order, a circle of the tile's own type, then the first circle it may fill,
    so the picture is stable and a wild tile (Monk, substitute) takes a wild spot last.
    """
    slots: list = [None] * len(circles)
    if covered is not None:
        slots[circles.index(covered)] = "technology"

    def walk(i: int) -> bool:
        if i == len(tiles):
            return True
        kind = follower_type(tiles[i])
        free = [k for k, slot in enumerate(slots) if slot is None and can_fill(tiles[i], circles[k], substitutes)]
        for k in sorted(free, key=lambda k: circles[k] != kind):
            slots[k] = i
            if walk(i + 1):
                return True
            slots[k] = None
        return False

    return tuple(slots) if walk(0) else None
