"""Presentation of the board: map geometry and display-ready structures built from a view.

Only presentation lives here (coordinates, names, colours); every fact comes from the
engine's view of the viewing seat (``engine.view``), never from the raw state.
"""

from __future__ import annotations

from engine import content as C

# Approximate latitude / longitude of the towns (public geography), projected onto the SVG.
TOWN_LAT_LON: dict[str, tuple[float, float]] = {
    "orleans": (47.90, 1.90),
    "chartres": (48.45, 1.49),
    "etampes": (48.43, 2.16),
    "le_mans": (48.00, 0.20),
    "chateaudun": (48.07, 1.34),
    "vendome": (47.79, 1.07),
    "montargis": (48.00, 2.73),
    "blois": (47.59, 1.33),
    "briare": (47.64, 2.74),
    "tours": (47.39, 0.69),
    "chinon": (47.17, 0.24),
    "montrichard": (47.34, 1.18),
    "vierzon": (47.22, 2.07),
    "loches": (47.13, 1.00),
    "bourges": (47.08, 2.40),
    "sancerre": (47.33, 2.84),
    "chatellerault": (46.82, 0.55),
    "le_blanc": (46.63, 1.06),
    "chateauroux": (46.81, 1.69),
    "nevers": (46.99, 3.16),
    "argenton_sur_creuse": (46.59, 1.52),
    "la_chatre": (46.58, 1.99),
    "saint_amand_montrond": (46.72, 2.51),
}

MAP_WIDTH, MAP_HEIGHT, MAP_MARGIN = 640, 560, 40
SEAT_COLOURS = ("#c0392b", "#2e86c1", "#27ae60", "#d4ac0d")
GOOD_COLOURS = {"grain": "#e9d98b", "cheese": "#f5b041", "wine": "#8e44ad", "wool": "#f0f3f4", "brocade": "#1abc9c"}
FOLLOWER_COLOURS = {
    "farmer": "#f4f6f7", "boatman": "#3498db", "craftsman": "#a0522d", "trader": "#2c3e50",
    "scholar": "#95a5a6", "knight": "#c0392b", "monk": "#f1c40f", "any": "#ffffff",
}


def _project(town: str) -> tuple[float, float]:
    lats = [v[0] for v in TOWN_LAT_LON.values()]
    lons = [v[1] for v in TOWN_LAT_LON.values()]
    lat, lon = TOWN_LAT_LON[town]
    x = MAP_MARGIN + (lon - min(lons)) / (max(lons) - min(lons)) * (MAP_WIDTH - 2 * MAP_MARGIN)
    y = MAP_MARGIN + (max(lats) - lat) / (max(lats) - min(lats)) * (MAP_HEIGHT - 2 * MAP_MARGIN)
    return round(x, 1), round(y, 1)


TOWN_XY: dict[str, tuple[float, float]] = {t: _project(t) for t in C.TOWNS}


def _route_geometry(route) -> dict:
    (x1, y1), (x2, y2) = TOWN_XY[route.a], TOWN_XY[route.b]
    # Chinon–Châtellerault has a road and a waterway: bend the waterway a little.
    twin = sum(1 for r in C.ROUTES.values() if {r.a, r.b} == {route.a, route.b}) > 1
    bend = 14 if (twin and route.kind == "water") else 0
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1)
    cx, cy = mx - dy / length * bend, my + dx / length * bend
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "cx": round(cx, 1), "cy": round(cy, 1),
            "path": f"M{x1},{y1} Q{round(cx, 1)},{round(cy, 1)} {x2},{y2}"}


ROUTE_GEOMETRY = {rid: _route_geometry(r) for rid, r in C.ROUTES.items()}


def seat_colour(order: int) -> str:
    """Display colour of a seat (by seat order)."""
    return SEAT_COLOURS[order % len(SEAT_COLOURS)]


def map_context(view: dict) -> dict:
    """Towns, routes with their goods, merchants and trading stations for the SVG map.

    ``view`` is ``engine.view(state, seat)``. Coordinates are SVG user units.
    """
    routes = []
    for rid, route in C.ROUTES.items():
        g = ROUTE_GEOMETRY[rid]
        goods = view["routes"].get(rid, [])
        spots = []
        for i, good in enumerate(goods):
            offset = (i - (len(goods) - 1) / 2) * 12
            spots.append({"good": good, "colour": GOOD_COLOURS[good],
                          "x": round(g["cx"] * 0.5 + (g["x1"] + g["x2"]) * 0.25 + offset, 1),
                          "y": round(g["cy"] * 0.5 + (g["y1"] + g["y2"]) * 0.25, 1)})
        routes.append({"id": rid, "kind": route.kind, "path": g["path"], "goods": spots,
                       "title": f"{C.TOWNS[route.a]} – {C.TOWNS[route.b]} ({'waterway' if route.kind == 'water' else 'road'})"})
    merchants: dict[str, list] = {}
    for p in view["players"]:
        merchants.setdefault(p["merchant"], []).append(p["seat"])
    towns = []
    for town, name in C.TOWNS.items():
        x, y = TOWN_XY[town]
        stations = [{"seat": s, "colour": seat_colour(s), "x": round(x - 12 + 8 * i, 1), "y": round(y + 12, 1)}
                    for i, s in enumerate(view["stations"].get(town, []))]
        tokens = [{"seat": s, "colour": seat_colour(s), "x": round(x - 10 + 7 * i, 1), "y": round(y - 16, 1)}
                  for i, s in enumerate(merchants.get(town, []))]
        towns.append({"id": town, "name": name, "x": x, "y": y, "stations": stations, "merchants": tokens,
                      "is_orleans": town in C.MULTI_STATION_TOWNS})
    return {"width": MAP_WIDTH, "height": MAP_HEIGHT, "routes": routes, "towns": towns}


def development_context(view: dict) -> list[dict]:
    """The development track 0–30: per space its coins, citizen, level and the markers on it."""
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


def tracks_context(view: dict) -> list[dict]:
    """The six character tracks: each step's reward and the markers on it."""
    rewards = {
        "farmer": [f"{g}" for g in C.FARMER_TRACK_GOODS],
        "boatman": [f"{c} coins" for c in C.BOATMAN_TRACK_COINS[:-1]] + [f"citizen / {C.BOATMAN_TRACK_COINS[-1]} coins"],
        "craftsman": ["technology tile"] * C.TRACK_LENGTH["craftsman"],
        "trader": ["place tile"] * C.TRACK_LENGTH["trader"],
        "scholar": [f"+{n} development" for n in C.SCHOLAR_TRACK_STEPS],
        "knight": [f"draw {n}" + (" + citizen" if i + 1 == C.KNIGHT_CITIZEN_STEP else "")
                   for i, n in enumerate(C.KNIGHT_DRAW_COUNT[1:])],
    }
    out = []
    for track, steps in rewards.items():
        cells = []
        for pos in range(len(steps) + 1):
            cells.append({
                "position": pos,
                "reward": steps[pos - 1] if pos else "start",
                "markers": [{"seat": p["seat"], "colour": seat_colour(p["seat"])}
                            for p in view["players"] if p["tracks"][track] == pos],
            })
        out.append({"track": track, "name": C.FOLLOWER_NAMES[track], "colour": FOLLOWER_COLOURS[track],
                    "cells": cells, "supply": view["supply"]["followers"].get(track, 0)})
    return out


def deeds_context(view: dict) -> list[dict]:
    """Beneficial deeds: each space by type, filled by which seat, reward and citizen."""
    out = []
    for deed_id, deed in C.DEEDS.items():
        filled = view["deeds"][deed_id]
        spaces = []
        for kind, count in deed.spaces.items():
            on = [seat for tile, seat in filled if C.follower_type(tile) == kind]
            for i in range(count):
                seat = on[i] if i < len(on) else None
                spaces.append({"kind": kind, "colour": FOLLOWER_COLOURS[kind], "seat": seat,
                               "seat_colour": seat_colour(seat) if seat is not None else None})
        out.append({"id": deed_id, "name": deed.name, "spaces": spaces,
                    "reward": f"{deed.coins} coin{'s' if deed.coins != 1 else ''}"
                    + (" or 1 development step" if deed.development_choice else ""),
                    "citizen_left": f"deed_{deed_id}" in view["citizens_left"]})
    return out


def place_cards(player: dict) -> list[dict]:
    """A player's action spaces and place tiles with circles, tiles and technology."""
    cards = []
    ids = list(C.BOARD_SPACES) + list(player["places"])
    for place_id in ids:
        place = C.PLACES[place_id]
        tiles = player["spaces"].get(place_id, [])
        covered = player["technology"].get(place_id)
        cards.append({
            "id": place_id,
            "name": place.name,
            "circles": [{"kind": c, "colour": FOLLOWER_COLOURS.get(c, "#fff")} for c in place.circles],
            "tiles": [{"tile": t, "kind": C.follower_type(t), "starting": C.is_starting(t),
                       "colour": FOLLOWER_COLOURS[C.follower_type(t)]} for t in tiles],
            "technology": covered,
            "is_tile": not place.is_board_space,
            "permanent": not place.circles,
        })
    return cards
