"""Phase 4, planning (RULES §8.4, §8.5, §14.8).

Simultaneous and hidden: each seat's placements this round are kept in its ``plan`` until
every seat has submitted, then revealed onto the action spaces. Before submitting a seat
may place (``place``) and take back (``unplace``) freely; ``submit_plan`` locks the plan.
"""

from __future__ import annotations

from functools import lru_cache

from .. import steps as S
from ..content import ALL_FOLLOWER_TILES
from ..errors import IllegalAction
from ..matching import fits, town_hall_allows
from ..messages import message


def _planned_on(p: dict, place_id: str) -> list[str]:
    return p["spaces"].get(place_id, []) + [t for sp, t in p["plan"] if sp == place_id]


def can_place(p: dict, tile: str, place_id: str) -> bool:
    """True if ``tile`` from the market may go on ``place_id`` now (RULES §8.4, §8.5)."""
    if place_id == "town_hall" and not town_hall_allows(tile):
        return False
    return S.space_fits(p, place_id, _planned_on(p, place_id) + [tile])


_KNOWN_TILES = frozenset(ALL_FOLLOWER_TILES)


def _joins(circles: tuple, current: tuple, tile: str, subs: tuple) -> bool:
    return fits(circles, tuple(sorted(current + (tile,))), subs)


@lru_cache(maxsize=65536)
def _joining(circles: tuple, current: tuple, subs: tuple) -> frozenset:
    """Every follower tile that can join ``current`` on a space with ``circles`` (cached
    without the market, so a changed market still hits the cache)."""
    return frozenset(t for t in ALL_FOLLOWER_TILES if _joins(circles, current, t, subs))


@lru_cache(maxsize=65536)
def _open_space(place_id: str, covered: str | None, current: tuple, subs: tuple) -> tuple | None:
    """``(place_id, free circles, current, the known tiles that may join)`` of a space with
    the tiles ``current`` that is not full yet, else None; the Town Hall's set leaves out
    the starting followers (RULES §14.8). One cached call per space for :func:`legal`."""
    circles = S.circles_left(place_id, covered)
    if len(current) >= len(circles):
        return None
    joining = _joining(circles, current, subs)
    if place_id == "town_hall":
        joining = frozenset(t for t in joining if town_hall_allows(t))
    return place_id, circles, current, joining


#: substitutions -> {place: :func:`_open_space` of the place with no tile and no technology
#: tile}: most places of a board stand empty, and looking them up here is cheaper than
#: hashing the cache key of each (bounded: one entry per set of substitutions).
_EMPTY_SPACES: dict = {}
_UNSEEN = object()


def legal(s: dict, seat: int, only: dict | None = None) -> list[dict]:
    """Single placements, take-backs of this round's placements, and ``submit_plan`` (RULES §8.4).

    ``only`` (a normalised action): list just the entries that could equal it, by the same
    steps (``apply`` validates with ``only in legal(s, seat, only)``, which equals
    membership in the full list: tests/engine/test_validation_equals_the_legal_list.py).
    """
    p = s["players"][seat]
    kind = None if only is None else only["type"]
    out = []
    if kind is None or kind == "place":
        places = S.action_place_ids(p)
        if kind is None:
            tiles = sorted(set(p["market"]))
        else:  # the same loops over at most one space and one tile
            tiles = (only["follower"],) if only["follower"] in p["market"] else ()
            places = [only["space"]] if only["space"] in places else []
        if tiles:
            subs = S.substitutes(p)
            spaces, tech = p["spaces"], p["technology"]
            extra = _plan_by_place(p["plan"]) if p["plan"] else {}
            open_places = []  # (place, its free circles, its tiles, the tiles that may join them)
            empty = _EMPTY_SPACES.get(subs)  # the spaces with no tile and no technology, by place
            if empty is None:
                empty = _EMPTY_SPACES[subs] = {}
            busy = spaces.keys() | tech.keys() | extra.keys()  # the places with a tile, planned or not, or a technology tile
            for place_id in places:
                if place_id in busy:
                    here = spaces.get(place_id)  # committed tiles, then this round's planned ones
                    current = (*here, *extra.get(place_id, ())) if here else extra.get(place_id, ())
                    space = _open_space(place_id, tech.get(place_id), current, subs)
                else:
                    space = empty.get(place_id, _UNSEEN)
                    if space is _UNSEEN:
                        space = empty[place_id] = _open_space(place_id, None, (), subs)
                if space is not None:
                    open_places.append(space)
            for tile in tiles:  # by follower, then in the places' order
                if tile in _KNOWN_TILES:
                    for space in open_places:  # a plain loop: cheaper than a comprehension here
                        if tile in space[3]:
                            out.append({"type": "place", "follower": tile, "space": space[0]})
                else:  # a tile the content does not know: checked directly, never on the Town Hall
                    starting = not town_hall_allows(tile)
                    out += [{"type": "place", "follower": tile, "space": place_id}
                            for place_id, circles, current, _known in open_places
                            if _joins(circles, current, tile, subs) and not (starting and place_id == "town_hall")]
    if kind is None or kind == "unplace":
        for sp, tile in sorted(set(map(tuple, p["plan"]))):
            if kind is None or (sp == only["space"] and tile == only["follower"]):
                out.append({"type": "unplace", "follower": tile, "space": sp})
    if kind is None or kind == "submit_plan":
        out.append({"type": "submit_plan"})
    return out


def _plan_by_place(plan: list) -> dict:
    """``{place: tuple of this round's tiles planned there}`` (in the plan's order). Not
    sorted with the committed tiles: both lists are kept sorted, and :func:`_joining` sorts
    what it checks, so the order only shapes its cache key."""
    extra: dict = {}
    for sp, tile in plan:
        extra[sp] = (*extra.get(sp, ()), tile)
    return extra


def place(s: dict, seat: int, action: dict, ev: list) -> None:
    """Move one follower from the market to a circle of an action space, hidden until the reveal (RULES §8.4)."""
    p = s["players"][seat]
    p["market"].remove(action["follower"])
    p["plan"][:] = with_placement(p["plan"], action["space"], action["follower"])  # the same list: apply copied it


def with_placement(plan: list, space: str, follower: str) -> list:
    """``plan`` (``[[space, follower], ...]``, sorted) with one more follower placed on
    ``space``, as a new sorted list: the plan a placement makes (RULES §8.4)."""
    return sorted([*plan, [space, follower]])


def unplace(s: dict, seat: int, action: dict, ev: list) -> None:
    """Take back a follower placed this round, before submitting (RULES §8.4: plans are free until locked)."""
    p = s["players"][seat]
    p["plan"].remove([action["space"], action["follower"]])
    p["market"].append(action["follower"])
    p["market"].sort()


def submit(s: dict, seat: int, action: dict, ev: list) -> None:
    """Lock the plan (RULES §8.4). With ``placements`` the whole plan is replaced by that list first.

    ``placements`` is a list of ``{"follower", "space"}``; each is checked in order as a
    ``place`` would be. Raises :class:`IllegalAction` naming the first bad placement.
    """
    p = s["players"][seat]
    if action.get("placements") is not None:
        for _space, tile in p["plan"]:
            p["market"].append(tile)
        p["plan"] = []
        p["market"].sort()
        for i, item in enumerate(action["placements"]):
            tile, place_id = item["follower"], item["space"]
            single = {"type": "place", "follower": tile, "space": place_id}
            if single not in legal(s, seat, single):
                raise _bad_placement(s, seat, i, tile, place_id)
            place(s, seat, single, ev)
    p["stage"] = "ready"
    S.event(ev, "plan", seat, "event.planned")


def _bad_placement(s: dict, seat: int, i: int, tile: str, place_id: str) -> IllegalAction:
    """The refusal of placement ``i`` (0-based) of a whole plan, with the reason's code."""
    from ..refusals import reason

    code, params = reason(s, seat, {"type": "place", "follower": tile, "space": place_id}, [])
    text = (f"placement {i + 1}: no {tile} left in your market" if code == "not_in_market"
            else f"placement {i + 1}: a {tile} cannot go on {place_id}")
    return IllegalAction(text, code=code, params={**params, "placement": i + 1})


def reveal(s: dict, ev: list) -> None:
    """All plans are in: put every planned follower on its space (RULES §8.4)."""
    for p in s["players"]:
        for place_id, tile in p["plan"]:
            S.put_on_space(p, place_id, tile)
        if p["plan"]:
            S.event(ev, "reveal", p["seat"], "event.reveal",
                    {"plan": [message("part.reveal", follower=t, place=sp) for sp, t in p["plan"]]},
                    plan=[list(x) for x in p["plan"]])
        p["plan"] = []
        p["stage"] = None
