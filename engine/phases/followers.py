"""Phase 3, followers (RULES §8.3, §14.5).

A seat draws between 0 and its draw count (Knight track, RULES §6.6); each draw not taken
may pull one tile from an action space back to the market. Pulled and drawn tiles together
never exceed the market's capacity (8, or 10 with the Gunpowder Tower). Pull-backs are
single ``pull_back`` actions; ``draw`` ends the seat's followers phase.
"""

from __future__ import annotations

from .. import content as C
from .. import steps as S
from ..rng import rng_for


def draw_count(p: dict) -> int:
    """Followers drawn per round by Knight-track position (RULES §6.6)."""
    return C.KNIGHT_DRAW_COUNT[p["tracks"]["knight"]]


def _room(p: dict) -> int:
    return min(draw_count(p) - p["pulled"], S.market_capacity(p) - len(p["market"]))


def legal(s: dict, seat: int, only: dict | None = None) -> list[dict]:
    """``pull_back`` for each distinct (place, follower) on a committed space while room
    remains, and ``draw`` for each count from 0 to what fits (RULES §8.3, §14.5).

    ``only`` (a normalised action): list just the entries of its type (see ``planning.legal``).
    """
    p = s["players"][seat]
    room = _room(p)
    out = []
    if room > 0 and (only is None or only["type"] == "pull_back"):
        for place_id in sorted(p["spaces"]):
            for tile in sorted(set(p["spaces"][place_id])):
                out.append({"type": "pull_back", "space": place_id, "follower": tile})
    if only is None or only["type"] == "draw":
        bag_size = sum(p["bag"].values())
        out += [{"type": "draw", "count": n} for n in range(0, max(0, min(room, bag_size)) + 1)]
    return out


def has_choice(p: dict) -> bool:
    """True if :func:`legal` lists more than one action for the player ``p`` (cheaper):
    with room, a draw of 1 or a pull-back joins the draw of 0 (RULES §8.3, §14.5: draws
    plus pull-backs within the draw count)."""
    return _room(p) > 0 and (any(p["bag"].values()) or any(p["spaces"].values()))


def pull_back(s: dict, seat: int, action: dict, ev: list) -> None:
    """Move one follower from an action space back to the market instead of a draw (RULES §8.3, §14.5)."""
    p = s["players"][seat]
    S.take_from_space(p, action["space"], action["follower"])
    p["market"].append(action["follower"])
    p["market"].sort()
    p["pulled"] += 1
    S.event(ev, "pull_back", seat, "event.pull_back", {"follower": action["follower"], "place": action["space"]},
            space=action["space"], follower=action["follower"])


def draw(s: dict, seat: int, action: dict, ev: list) -> None:
    """Draw ``count`` followers at random from the bag onto the market (RULES §8.3).

    The tiles drawn are kept in ``drawn`` for the round: with the sequential followers
    option the later seats see the earlier seats' results (RULES §8.3 best choice); the
    market itself and the plan stay hidden (engine.view).
    """
    p = s["players"][seat]
    rng = rng_for(s, seat)
    drawn = []
    tiles = S.bag_list(p["bag"])
    for _ in range(action["count"]):
        tile = S.draw_from_bag(s, seat, rng, tiles)
        if tile is None:
            break
        p["market"].append(tile)
        drawn.append(tile)
    p["market"].sort()
    p["drawn"] = sorted(drawn)
    p["stage"] = "plan"
    n = len(drawn)
    S.event(ev, "draw", seat, "event.draw", {"count": n}, count=n)
