"""Display-ready board regions (map, tracks, development, deeds, supply, place tiles,
player boards) built from a view.

Only presentation lives here (names, colours; coordinates in ``map_geometry``); every fact
comes from the engine's view of the viewing seat (``engine.view``), never from the raw state.
Every function takes ``rules``, the game's engine (``games.rules.engine_for(game)``): its
component data (``rules.content``) and its descriptions; nothing imports the engine.
"""
from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from games import messages as M, vocabulary as V
from games.presenters.map_geometry import LABEL_PLACEMENT, MAP_HEIGHT, MAP_WIDTH, geometry

SEAT_COLOURS = ("#c0392b", "#2e86c1", "#27ae60", "#d4ac0d")
#: The seat colours' names, so that colour is never the only cue (legend, text descriptions).
SEAT_COLOUR_NAMES = ("red", "blue", "green", "yellow")
#: The same names in the active language (``colour_label``).
COLOUR_LABELS = {"red": pgettext_lazy("seat colour", "red"), "blue": pgettext_lazy("seat colour", "blue"),
                 "green": pgettext_lazy("seat colour", "green"), "yellow": pgettext_lazy("seat colour", "yellow")}
#: The initials printed on goods tiles (two letters: wine and wool share the first).
GOOD_INITIALS = {"grain": pgettext_lazy("initials of grain", "Gr"), "cheese": pgettext_lazy("initials of cheese", "Ch"),
                 "wine": pgettext_lazy("initials of wine", "Wi"), "wool": pgettext_lazy("initials of wool", "Wo"),
                 "brocade": pgettext_lazy("initials of brocade", "Br")}
GOOD_COLOURS = {"grain": "#e9d98b", "cheese": "#f5b041", "wine": "#8e44ad", "wool": "#f0f3f4", "brocade": "#1abc9c"}
FOLLOWER_COLOURS = {
    "farmer": "#f4f6f7", "boatman": "#3498db", "craftsman": "#a0522d", "trader": "#2c3e50",
    "scholar": "#95a5a6", "knight": "#c0392b", "monk": "#f1c40f", "any": "#ffffff",
}


def seat_colour(order: int) -> str:
    """Display colour of a seat (by seat order)."""
    return SEAT_COLOURS[order % len(SEAT_COLOURS)]


def colour_label(colour: str) -> str:
    """A seat colour's name (``"red"``, ``Seat.colour``) in the active language; an unknown
    colour as it is."""
    label = COLOUR_LABELS.get(colour)
    return str(label) if label is not None else str(colour)


def seat_colour_name(order: int) -> str:
    """The name of a seat's display colour ("red"), in the active language, for text alternatives."""
    return colour_label(SEAT_COLOUR_NAMES[order % len(SEAT_COLOUR_NAMES)])


def seat_label(seat: int) -> str:
    """A seat without a name: "Seat 1" for seat 0, in the active language."""
    return gettext("Seat %(number)s") % {"number": seat + 1}


def _route_title(a: str, b: str, kind: str) -> str:
    """"Orléans – Blois (waterway)": a route between towns ``a`` and ``b`` (names), ``kind``
    ``water`` or ``land``."""
    if kind == "water":
        return gettext("%(a)s – %(b)s (waterway)") % {"a": a, "b": b}
    return gettext("%(a)s – %(b)s (road)") % {"a": a, "b": b}


def map_context(rules, view: dict) -> dict:
    """Towns, routes with their goods, merchants and trading stations for the SVG map.

    ``view`` is ``rules.view(state, seat)``. Coordinates are SVG user units.
    """
    C = rules.content
    town_xy, route_geometry = geometry(C)
    routes = []
    for rid, route in C.ROUTES.items():
        g = route_geometry[rid]
        goods = view["routes"].get(rid, [])
        spots = []
        for i, good in enumerate(goods):
            offset = (i - (len(goods) - 1) / 2) * 12
            spots.append({"good": good, "colour": GOOD_COLOURS[good], "initials": str(GOOD_INITIALS[good]),
                          "x": round(g["cx"] * 0.5 + (g["x1"] + g["x2"]) * 0.25 + offset, 1),
                          "y": round(g["cy"] * 0.5 + (g["y1"] + g["y2"]) * 0.25, 1)})
        routes.append({"id": rid, "kind": route.kind, "path": g["path"], "goods": spots,
                       "title": _route_title(V.town_name(route.a, C.TOWNS[route.a]), V.town_name(route.b, C.TOWNS[route.b]),
                                             route.kind)})
    merchants: dict[str, list] = {}
    for p in view["players"]:
        merchants.setdefault(p["merchant"], []).append(p["seat"])
    towns = []
    for town, name in C.TOWNS.items():
        name = V.town_name(town, name)
        x, y = town_xy[town]
        stations = [{"seat": s, "colour": seat_colour(s), "x": round(x - 5.5 * len(view["stations"].get(town, [])) + 11 * i, 1),
                     "y": round(y + 9, 1)}
                    for i, s in enumerate(view["stations"].get(town, []))]
        tokens = [{"seat": s, "colour": seat_colour(s), "x": round(x - 6 * (len(merchants.get(town, [])) - 1) + 12 * i, 1),
                   "y": round(y - 20, 1)}
                  for i, s in enumerate(merchants.get(town, []))]
        anchor, dx, dy = LABEL_PLACEMENT.get(town, ("start", 10, -8))
        towns.append({"id": town, "name": name, "x": x, "y": y, "stations": stations, "merchants": tokens,
                      "label": {"x": round(x + dx, 1), "y": round(y + dy, 1), "anchor": anchor},
                      "is_orleans": town in C.MULTI_STATION_TOWNS})
    positions = []  # every player's position in words (the map's text alternative)
    for p in view["players"]:
        stations = [V.town_name(town, name) for town, name in C.TOWNS.items()
                    for s in view["stations"].get(town, []) if s == p["seat"]]
        positions.append({"seat": p["seat"], "colour": seat_colour(p["seat"]), "colour_name": seat_colour_name(p["seat"]),
                          "merchant": V.town_name(p["merchant"], C.TOWNS.get(p["merchant"])), "stations": stations})
    goods = [{"title": r["title"], "goods": [V.good_name(g["good"]) for g in r["goods"]]} for r in routes if r["goods"]]
    legend = [{"good": g, "colour": c, "initials": str(GOOD_INITIALS[g])} for g, c in GOOD_COLOURS.items()]
    return {"width": MAP_WIDTH, "height": MAP_HEIGHT, "routes": routes, "towns": towns, "positions": positions,
            "route_goods": goods, "goods_legend": legend}


def development_context(rules, view: dict) -> list[dict]:
    """The development track 0–30: per space its coins, citizen, level and the markers on it."""
    C = rules.content
    markers: dict[int, list] = {}
    for p in view["players"]:
        markers.setdefault(p["development"], []).append({"seat": p["seat"], "colour": seat_colour(p["seat"])})
    citizens_left = set(view["citizens_left"])
    out = []
    for pos in range(C.DEVELOPMENT_END + 1):
        citizen = pos in C.DEVELOPMENT_CITIZEN_SPACES
        out.append({
            "position": pos,
            "coins": C.DEVELOPMENT_COINS.get(pos),
            "citizen": citizen,
            "citizen_left": citizen and f"development_{pos}" in citizens_left,
            "level": C.development_level(pos),
            "level_starts": pos == 0 or C.development_level(pos) != C.development_level(pos - 1),
            "markers": markers.get(pos, []),
        })
    return out


def tracks_context(rules, view: dict) -> list[dict]:
    """The six character tracks: each step's reward (``games.messages.track_rewards``, RULES §6)
    and the markers on it; ``positions``: each seat's step and its reward (the one-line
    summary a phone shows), ``steps`` the track's length. ``rules`` is the game's engine
    (``games.rules.engine_for``)."""
    names = rules.content.FOLLOWER_NAMES
    start = pgettext("track step", "start")
    out = []
    for track, steps in M.track_rewards(rules).items():
        cells = []
        for pos in range(len(steps) + 1):
            cells.append({
                "position": pos,
                "reward": steps[pos - 1] if pos else start,
                "markers": [{"seat": p["seat"], "colour": seat_colour(p["seat"])}
                            for p in view["players"] if p["tracks"][track] == pos],
            })
        positions = [{"seat": p["seat"], "colour": seat_colour(p["seat"]), "colour_name": seat_colour_name(p["seat"]),
                      "position": p["tracks"][track],
                      "reward": steps[p["tracks"][track] - 1] if p["tracks"][track] else start}
                     for p in view["players"]]
        out.append({"track": track, "name": V.follower_type_name(track, names[track]), "colour": FOLLOWER_COLOURS[track],
                    "cells": cells, "supply": view["supply"]["followers"].get(track, 0), "positions": positions,
                    "steps": len(steps)})
    return out


def deed_space(deed_id: str, kind: str, index: int) -> str:
    """The name of a deed's ``index``-th space (from 0) of follower type ``kind``:
    ``"city_wall:knight:1"``. Spaces of one type fill in order (``deeds_context``)."""
    return f"{deed_id}:{kind}:{index}"


def _deed_reward(coins: int, development_choice: bool) -> str:
    """A deed's reward per follower: "3 coins", or "3 coins or 1 development step" (RULES §7)."""
    if development_choice:
        return ngettext("%(coins)s coin or 1 development step", "%(coins)s coins or 1 development step",
                        coins) % {"coins": coins}
    return ngettext("%(coins)s coin", "%(coins)s coins", coins) % {"coins": coins}


def deeds_context(rules, view: dict) -> list[dict]:
    """Beneficial deeds: each space by type, filled by which seat (``space``: its name,
    ``deed_space``), reward and citizen (RULES §7)."""
    C = rules.content
    out = []
    for deed_id, deed in C.DEEDS.items():
        filled = view["deeds"][deed_id]
        spaces = []
        for kind, count in deed.spaces.items():
            on = [seat for tile, seat in filled if C.follower_type(tile) == kind]
            for i in range(count):
                seat = on[i] if i < len(on) else None
                spaces.append({"kind": kind, "colour": FOLLOWER_COLOURS[kind], "seat": seat,
                               "seat_colour": seat_colour(seat) if seat is not None else None,
                               "space": deed_space(deed_id, kind, i)})
        out.append({"id": deed_id, "name": V.deed_name(deed_id, deed.name), "spaces": spaces,
                    "reward": _deed_reward(deed.coins, deed.development_choice),
                    "citizen_left": f"deed_{deed_id}" in view["citizens_left"]})
    return out


def _slot(kind: str, on) -> dict:
    """A circle of type ``kind`` and what the engine says stands on it: a public circle
    (``None | "technology" | tile``) or the viewer's (``{"tile", "planned", "technology"}``)."""
    if isinstance(on, dict):
        return {"kind": kind, "tile": on["tile"], "planned": on["planned"], "technology": on["technology"]}
    return {"kind": kind, "tile": None if on in (None, "technology") else on, "planned": False,
            "technology": on == "technology"}


def place_cards(rules, player: dict) -> list[dict]:
    """A player's action spaces and place tiles as the engine sees them (RULES §8.4–§8.7, §11).

    ``player`` is one ``players`` entry of the view; ``rules`` the game's engine. Each card's
    ``slots`` are its circles in component order with what stands on each, from the engine's
    matching: the viewer's own board with its plan (``plan_circles``, planned followers
    marked), any other seat's committed followers (``circles``). ``ready`` is the engine's
    readiness: ``ready_places`` (with the plan) for the viewer, ``usable_places`` otherwise,
    so the Town Hall with one follower and an unused Gunpowder Tower show ready.
    """
    C = rules.content
    own = player.get("plan_circles") is not None  # the engine gives it to the viewer only
    circles = player["plan_circles"] if own else player["circles"]
    ready = set(player["ready_places"] if own else player["usable_places"])
    cards = []
    for place_id in player["owned_places"]:  # the engine's board order: board spaces, then tiles
        place = C.PLACES[place_id]
        on = circles.get(place_id) or [None] * len(place.circles)
        cards.append({
            "id": place_id,
            "name": V.place_name(place_id, place.name),
            "effect": M.place_effect(rules, place_id),
            "slots": [_slot(kind, what) for kind, what in zip(place.circles, on, strict=True)],
            "ready": place_id in ready,
            "is_tile": not place.is_board_space,
            "permanent": not place.circles,
        })
    return cards


def event_context(rules, view: dict) -> dict:
    """The round's hourglass tile, phase letter, round number and the events left (counts);
    names and effects in the active language (``games.messages.event_effect``, RULES §9.3)."""
    C = rules.content
    strength = view["options"].get("event_strength", "phased")
    letter = view.get("event_phase") or ""
    event = view.get("event")
    return {
        "round": view["round"], "rounds": view["rounds"], "letter": letter,
        "event": event, "name": V.event_name(event) if event else "",
        "effect": M.event_effect(rules, event, letter, strength) if event else "",
        "left": [{"event": e, "name": V.event_name(e), "count": view["hourglass_left"].get(e, 0)}
                 for e in C.EVENTS],
        "strength": strength,
    }


def place_tiles_context(rules, view: dict) -> list[dict]:
    """The place tiles open for choice, per stack, with their circles and effects
    (``games.messages.place_effect``)."""
    C = rules.content
    stacks = []
    for stack, ids in view["place_tiles"]["display"].items():
        tiles = [{"id": pid, "name": V.place_name(pid, C.PLACES[pid].name), "effect": M.place_effect(rules, pid),
                  "circles": [{"kind": c, "colour": FOLLOWER_COLOURS.get(c, "#fff")}
                              for c in C.PLACES[pid].circles]}
                 for pid in ids]
        stacks.append({"stack": stack, "tiles": tiles,
                       "hidden": view["place_tiles"]["stack_counts"].get(stack, 0)})
    return stacks


def supply_context(rules, view: dict) -> dict:
    """The general supply: followers and goods with their colours, technology tiles."""
    return {
        "followers": [{"kind": k, "name": V.follower_type_name(k, rules.content.FOLLOWER_NAMES[k]), "colour": FOLLOWER_COLOURS[k], "count": n}
                      for k, n in view["supply"]["followers"].items()],
        "goods": [{"good": g, "colour": GOOD_COLOURS[g], "count": n}
                  for g, n in view["supply"]["goods"].items()],
        "technology": view["supply"]["technology"],
        "citizens": len(view["citizens_left"]),
    }


def counts_by_type(C, tiles) -> list[dict]:
    """``[{"tile", "count"}]`` of follower tiles, in the component order of their types
    (starting tiles first); ``C`` is the engine's component data (``rules.content``)."""
    counts: dict[str, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
    return [{"tile": t, "count": n} for t, n in sorted(counts.items(), key=lambda kv: _tile_order(C, kv[0]))]


def _tile_order(C, tile: str) -> tuple:
    """Followers in the component order of their types, starting tiles first."""
    return (C.FOLLOWER_TYPES.index(C.follower_type(tile)), not C.is_starting(tile))


#: (engine, language, a player's slice of the view, its name, whether it is the viewer, the
#: start player, the turn) -> that player's board (``_player_board``): a move changes one or
#: two players' slices, and every answer and page builds all of them. A board is a function
#: of its key (the viewer's own view of that player), so an entry tells no viewer anything
#: its own view does not. Emptied when full, and with the catalogues.
_PLAYER_BOARDS: dict = {}
_PLAYER_BOARDS_MAX = 4096
V.forget_with_catalogs(_PLAYER_BOARDS.clear)


def player_boards(rules, view: dict, names: dict[int, str], *,
                  fragment: Callable[[tuple, bool], str] | None = None) -> list[dict]:
    """Every player's public board from the view: the viewer first, then in seat order.
    ``rules`` is the game's engine; ``names`` seat -> player name.

    ``market`` and ``bag`` are lists only where the view shows them (the viewer's own; the
    others' market from the action phase on); otherwise ``None``. Each board is a new dict
    (its nested values are shared with the memo, ``_PLAYER_BOARDS``: read them only).
    ``fragment(inputs, is_viewer)``: each board's ``fragment`` key from ``inputs``, what
    the board is a function of besides the engine and this module's code (a JSON-able
    tuple: language, the player's slice of the view, name, flags); None: no key.
    """
    viewer = view.get("seat")
    language = V.language()
    boards = []
    for p in view["players"]:
        seat = p["seat"]
        flags = (seat == viewer, seat == view.get("start_player"), seat == view.get("turn"))
        inputs = (language, repr(p), names.get(seat), flags)
        key = (rules, *inputs)
        board = _PLAYER_BOARDS.get(key)
        if board is None:
            board = V.remember(_PLAYER_BOARDS, key, _player_board(rules, p, names.get(seat), flags),
                               _PLAYER_BOARDS_MAX)
        board = dict(board)
        if fragment is not None:
            board["fragment"] = fragment(inputs, flags[0])
        boards.append(board)
    boards.sort(key=lambda b: (not b["is_viewer"], b["seat"]))
    return boards


def _player_board(rules, p: dict, name: str | None, flags: tuple[bool, bool, bool]) -> dict:
    """One player's board (``player_boards``) from its slice ``p`` of the view, its name and
    ``flags``: (is the viewer, is the start player, has the turn)."""
    C = rules.content
    seat = p["seat"]
    bag = p.get("bag")
    market = p.get("market")
    is_viewer, is_start, is_turn = flags
    return {
        "seat": seat, "name": name or seat_label(seat), "colour": seat_colour(seat),
        "is_viewer": is_viewer, "is_start": is_start,
        "is_turn": is_turn, "awaiting": p.get("awaiting"), "passed": p["passed"],
        "coins": p["coins"], "citizens": p["citizens"], "development": p["development"],
        "level": p["level"], "merchant": V.town_name(p["merchant"], C.TOWNS.get(p["merchant"])),
        "goods": [{"good": g, "colour": GOOD_COLOURS[g], "count": n} for g, n in p["goods"].items()],
        "stations_built": p["stations_built"], "stations_left": p["stations_left"],
        "bag_size": p["bag_size"], "draw_count": p["draw_count"],
        "bag": None if bag is None else [{"tile": t, "count": n} for t, n in
                                         sorted(bag.items(), key=lambda kv: _tile_order(C, kv[0]))],
        "market": None if market is None else counts_by_type(C, market),
        "drawn": None if p.get("drawn") is None else counts_by_type(C, p["drawn"]),
        "market_size": p["market_size"], "market_capacity": p["market_capacity"],
        "plan_size": p["plan_size"], "technology_count": len(p["technology"]),
        "technology_pending": p["technology_pending"],
        "places": place_cards(rules, p),
    }


def _seats(view: dict, key: str) -> list:
    return [(p["seat"], p[key]) for p in view["players"]]


#: Shared region -> the slice of the view its presenter above reads (public information
#: only, the same for every viewer): the region's fingerprint is taken from it before the
#: presenter runs (``games.views.regions``), so an unchanged region costs no presenter.
#: Keep each in step with its presenter: a key the presenter reads and its slice lacks
#: would serve an outdated region (tests/games/test_presenters_board.py checks them).
VIEW_SLICES = {
    "map": lambda view: (view["routes"], view["stations"], _seats(view, "merchant")),
    "tracks": lambda view: (_seats(view, "tracks"), view["supply"]["followers"]),
    "development": lambda view: (_seats(view, "development"), view["citizens_left"]),
    "deeds": lambda view: (view["deeds"], view["citizens_left"]),
    "event": lambda view: (view["options"].get("event_strength", "phased"), view.get("event_phase"),
                           view.get("event"), view["round"], view["rounds"], view["hourglass_left"]),
    "place_tiles": lambda view: view["place_tiles"],
    "supply": lambda view: (view["supply"], len(view["citizens_left"])),
}
