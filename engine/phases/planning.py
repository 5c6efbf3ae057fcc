"""Phase 4, planning (RULES §8.4, §8.5, §14.8).

Simultaneous and hidden: each seat's placements this round are kept in its ``plan`` until
every seat has submitted, then revealed onto the action spaces. Before submitting a seat
may place (``place``) and take back (``unplace``) freely; ``submit_plan`` locks the plan.
"""

from __future__ import annotations

from functools import lru_cache

from .. import steps as S
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


@lru_cache(maxsize=65536)
def _fitting(circles: tuple, current: tuple, tiles: tuple, subs: tuple) -> tuple:
    """The tiles of ``tiles`` that can join ``current`` on a space with ``circles``."""
    if len(current) >= len(circles):
        return ()
    return tuple(t for t in tiles if fits(circles, tuple(sorted(current + (t,))), subs))


def legal(s: dict, seat: int) -> list[dict]:
    """Single placements, take-backs of this round's placements, and ``submit_plan`` (RULES §8.4)."""
    p = s["players"][seat]
    out = []
    subs = S.substitutes(p)
    tiles = tuple(sorted(set(p["market"])))
    for place_id in S.action_places(p):
        current = tuple(sorted(_planned_on(p, place_id)))
        for tile in _fitting(S.free_circles(p, place_id), current, tiles, subs):
            if place_id == "town_hall" and not town_hall_allows(tile):
                continue
            out.append({"type": "place", "follower": tile, "space": place_id})
    out.sort(key=lambda a: a["follower"])
    for sp, tile in sorted({(sp, t) for sp, t in p["plan"]}):
        out.append({"type": "unplace", "follower": tile, "space": sp})
    out.append({"type": "submit_plan"})
    return out


def is_legal_place(s: dict, seat: int, action: dict) -> bool:
    """Fast check of one ``place`` action (same answer as membership in :func:`legal`)."""
    p = s["players"][seat]
    return (action["follower"] in p["market"] and action["space"] in S.action_places(p)
            and can_place(p, action["follower"], action["space"]))


def place(s: dict, seat: int, action: dict, ev: list) -> None:
    """Move one follower from the market to a circle of an action space, hidden until the reveal (RULES §8.4)."""
    p = s["players"][seat]
    p["market"].remove(action["follower"])
    p["plan"].append([action["space"], action["follower"]])
    p["plan"].sort()


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
            if tile not in p["market"] or place_id not in S.action_places(p) or not can_place(p, tile, place_id):
                raise _bad_placement(s, seat, i, tile, place_id)
            place(s, seat, {"follower": tile, "space": place_id}, ev)
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
