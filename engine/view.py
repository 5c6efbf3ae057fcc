"""What one seat (or a spectator) may see (hidden information removed here, nowhere else).

Hidden from everyone: the seed and random counters, the order of the hourglass stack and of
hidden place-tile stacks. Hidden from other seats: a seat's bag contents (its size is
public), its market and this round's plan until the plans are revealed in the action
phase, and the details of its prompts (e.g. the Bathhouse's drawn tiles). With the
sequential followers option a seat's draw of the round (``drawn``) is public (RULES §8.3).

With ``reveal`` (a finished game's replay, ``engine.view(state, seat, reveal=True)``) every
seat's bag, market, draw, plan and prompt is shown as to its owner; the seed, the random
counters and the order of the stacks stay out (they are not part of any position).
"""

from __future__ import annotations

from . import content as C
from . import steps as S
from .flow import awaiting_data
from .matching import assign
from .places import owned_places, usable_places
from .phases.followers import draw_count
from .phases import torture
from .phases.planning import with_placement
from .phases.round import event_phase_letter
from .scoring import outcome_data
from .state import clone


# Board summary by repr of everything _compute_board reads (spaces, technology, places,
# tower_used, plan); a board changes rarely between views, and without it `make bench`
# view median is ~130 us instead of ~87. Cleared whole when full, so memory stays bounded.
_BOARDS: dict = {}
_BOARDS_MAX = 16384
_NOTHING: tuple = ((), {}, {})
_TOWER_ONLY: tuple = (("gunpowder_tower",), {}, {})


def _board(p: dict, plan: list) -> tuple:
    """``(ready places, public circles, circles with the plan)`` of a player's board, cached.

    Ready (RULES §8.7): every circle filled; the Town Hall with one or two followers; the
    Gunpowder Tower while not used this round (RULES §11); with ``plan`` (the viewer's own)
    put on the spaces first. Circles, per place where something stands, one entry per circle
    in component order, from the engine's matching (``matching.assign``): public ones are
    ``None | "technology" | tile``; with the plan ``(tile or None, planned, technology)``.
    """
    if not p["spaces"] and not p["technology"] and not plan:  # nothing on the board: no matching needed
        return _TOWER_ONLY if "gunpowder_tower" in p["places"] and not p["tower_used"] else _NOTHING
    key = repr((p["spaces"], p["technology"], p["places"], p["tower_used"], plan))
    hit = _BOARDS.get(key)
    if hit is None:
        if len(_BOARDS) >= _BOARDS_MAX:
            _BOARDS.clear()
        hit = _BOARDS[key] = _compute_board(p, plan)
    return hit


def _compute_board(p: dict, plan: list) -> tuple:
    spaces, tech = p["spaces"], p["technology"]
    planned: dict = {}
    for place_id, tile in plan:
        planned.setdefault(place_id, []).append(tile)
    board = p
    if planned:
        board = {"spaces": {k: list(v) for k, v in spaces.items()}, "technology": tech, "places": p["places"]}
        for place_id, tile in plan:
            S.put_on_space(board, place_id, tile)
    ready = usable_places(board)
    if p["tower_used"] and "gunpowder_tower" in ready:
        ready.remove("gunpowder_tower")
    public, own = {}, {}
    if spaces or tech or planned:
        subs = S.substitutes(p)
        for pl in S.action_places(p):
            if pl not in spaces and pl not in tech and pl not in planned:
                continue
            placed = tuple(spaces.get(pl, ()))
            tiles = placed + tuple(planned.get(pl, ()))
            circles = C.PLACES[pl].circles
            slots = assign(circles, tech.get(pl), tiles, subs) or (None,) * len(circles)
            own[pl] = _own_slots(slots, tiles, len(placed))
            if pl in spaces or pl in tech:
                base = slots if not planned.get(pl) else (
                    assign(circles, tech.get(pl), placed, subs) or (None,) * len(circles))
                public[pl] = tuple(placed[k] if isinstance(k, int) else k for k in base)
    return tuple(ready), public, own


def _own_circles(circles: dict) -> dict:
    """``{place_id: [{"tile", "planned", "technology"} per circle]}`` with the viewer's plan."""
    return {pl: [{"tile": tile, "planned": planned, "technology": tech} for tile, planned, tech in slots]
            for pl, slots in circles.items()}


def _own_prompt(s: dict, seat: int, prompt: dict) -> dict:
    """The seat's own first prompt; a torture debt also lists what may pay it (``payable``:
    :func:`engine.phases.torture.payable`, RULES §10.1), so a page can build the whole
    ``pay_debt`` payment without enumerating every combination."""
    out = clone(prompt)
    if prompt["kind"] == "torture":
        out["payable"] = torture.payable(s, seat)
    return out


def _player_view(s: dict, p: dict, viewer, awaited: dict, reveal: bool = False) -> dict:
    seat = p["seat"]
    own = reveal or viewer == seat
    open_market = own or s["phase"] in ("actions", "event", "over")
    prompt = p["prompts"][0] if p["prompts"] else None
    board = _board(p, [])
    planned = (_board(p, p["plan"]) if p["plan"] else board) if own else None
    return {
        "seat": seat,
        "coins": p["coins"],
        "goods": dict(p["goods"]),
        "tracks": dict(p["tracks"]),
        "development": p["development"],
        "level": C.development_level(p["development"]),
        "citizens": p["citizens"],
        "stations_left": p["stations_left"],
        "stations_built": S.stations_built(s, seat),
        "merchant": p["merchant"],
        "bag": dict(p["bag"]) if own else None,
        "bag_size": sum(p["bag"].values()),
        "market": list(p["market"]) if open_market else None,
        # this round's draw: public with the sequential followers option (RULES §8.3)
        "drawn": list(p.get("drawn", [])) if (own or open_market or not s["options"]["simultaneous_followers"])
        else None,
        "market_size": len(p["market"]),
        "market_capacity": S.market_capacity(p),
        "plan": [list(x) for x in p["plan"]] if own else None,
        "plan_size": len(p["plan"]),
        "spaces": {k: list(v) for k, v in p["spaces"].items()},
        "technology": dict(p["technology"]),
        "technology_pending": p["technology_pending"],
        "places": list(p["places"]),
        # the seat's whole player board in board order: the board spaces, then its tiles (RULES §5, §11)
        "owned_places": owned_places(p),
        "draw_count": draw_count(p),
        "stage": p["stage"],
        "passed": p["passed"],
        "awaiting": awaited.get(seat),
        "prompt": _own_prompt(s, seat, prompt) if (own and prompt) else ({"kind": prompt["kind"]} if prompt else None),
        "ready_places": list(planned[0]) if own else None,
        # public: what stands on the board now (plans are on the board only after the reveal)
        "usable_places": list(board[0]),
        "circles": {pl: list(slots) for pl, slots in board[1].items()},
        "plan_circles": _own_circles(planned[2]) if own else None,
    }


def plan_circles_data(s: dict, seat: int, place_id: str, placing: str | None = None) -> list[dict] | None:
    """The seat's own circles of ``place_id`` with its plan, which circle each tile stands on
    (RULES §8.4 one tile per circle of its type, §8.5 monks, §8.6 technology tiles):
    ``view_data(s, seat)["players"][seat]["plan_circles"].get(place_id)``, the same matching
    worked out for that one place (:func:`_place_circles`) instead of the whole view.
    ``placing``: a follower the plan also places there (``planning.with_placement``, as
    ``planning.place`` does), the matching of the plan with that placement made, without
    making it."""
    p = s["players"][seat]
    plan = p["plan"] if placing is None else with_placement(p["plan"], place_id, placing)
    slots = _place_circles(p, plan, place_id)
    return None if slots is None else _own_circles({place_id: slots})[place_id]


def _place_circles(p: dict, plan: list, place_id: str) -> tuple | None:
    """``_board(p, plan)[2].get(place_id)``, worked out for that one place (the same
    matching, ``matching.assign``, of the same tiles): a planning board asks it for every
    placement it offers, each with a plan no view has had."""
    spaces, tech = p["spaces"], p["technology"]
    planned = tuple(tile for pl, tile in plan if pl == place_id)
    if (place_id not in spaces and place_id not in tech and not planned) \
            or place_id not in S.action_place_ids(p):
        return None
    placed = tuple(spaces.get(place_id, ()))
    tiles = placed + planned
    circles = C.PLACES[place_id].circles
    slots = assign(circles, tech.get(place_id), tiles, S.substitutes(p)) or (None,) * len(circles)
    return _own_slots(slots, tiles, len(placed))


def _own_slots(slots: tuple, tiles: tuple, placed: int) -> tuple:
    """Per circle ``(tile or None, planned, technology)`` from the matching's ``slots`` of
    ``tiles`` (the first ``placed`` of them on the board, the rest planned)."""
    return tuple((tiles[k] if isinstance(k, int) else None, isinstance(k, int) and k >= placed,
                  k == "technology") for k in slots)


def view_data(s: dict, seat: int | None, reveal: bool = False) -> dict:
    """The JSON-safe view of ``s`` for ``seat`` (``None`` = spectator); with ``reveal``
    every seat's own information is shown (the caller checks it may be); see module doc."""
    awaited = awaiting_data(s)
    # counts in the fixed event order: the order of the keys must not follow the hidden stack
    hourglass_left = {e: s["hourglass"].count(e) for e in C.EVENTS if e in s["hourglass"]}
    return {
        "seat": seat,
        "options": dict(s["options"]),
        "round": s["round"],
        "rounds": C.ROUNDS,
        "phase": s["phase"],
        "event": s["event"],
        "event_phase": event_phase_letter(s) if s["round"] else None,
        "start_player": s["start_player"],
        "turn": s["turn"],
        "awaiting": sorted(awaited),
        "needs_resolution": s["barrier"],
        "hourglass_left": hourglass_left,
        "supply": clone(s["supply"]),
        "removed": {
            "followers": dict(s["removed"]["followers"]),
            "goods": dict(s["removed"]["goods"]),
            "technology": s["removed"]["technology"],
            "stations": s["removed"]["stations"],
            "places": list(s["removed"]["places"]),
        },
        "routes": {k: list(v) for k, v in s["routes"].items()},
        "stations": {k: list(v) for k, v in s["stations"].items()},
        "deeds": {k: [list(x) for x in v] for k, v in s["deeds"].items()},
        "citizens_left": list(s["citizens"]),
        "place_tiles": {
            "display": {k: list(v) for k, v in s["place_tiles"]["display"].items()},
            "stack_counts": {k: len(v) for k, v in s["place_tiles"]["stack"].items()},
        },
        "players": [_player_view(s, p, seat, awaited, reveal) for p in s["players"]],
        "revealed": reveal,
        "outcome": outcome_data(s),
    }
