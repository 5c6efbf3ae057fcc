"""Static map geometry: where the towns and routes of the Orléans map are drawn.

Public geography projected onto the SVG (user units); no game state is read here. The
towns and routes are the engine's component data (``rules.content``), given by the caller.
"""
from __future__ import annotations

from functools import cache

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


def _project(town: str) -> tuple[float, float]:
    lats = [v[0] for v in TOWN_LAT_LON.values()]
    lons = [v[1] for v in TOWN_LAT_LON.values()]
    lat, lon = TOWN_LAT_LON[town]
    x = MAP_MARGIN + (lon - min(lons)) / (max(lons) - min(lons)) * (MAP_WIDTH - 2 * MAP_MARGIN)
    y = MAP_MARGIN + (max(lats) - lat) / (max(lats) - min(lats)) * (MAP_HEIGHT - 2 * MAP_MARGIN)
    return round(x, 1), round(y, 1)


def _route_geometry(route, routes, town_xy) -> dict:
    (x1, y1), (x2, y2) = town_xy[route.a], town_xy[route.b]
    # Chinon–Châtellerault has a road and a waterway: bend the waterway a little.
    twin = sum(1 for r in routes.values() if {r.a, r.b} == {route.a, route.b}) > 1
    bend = (20 if twin else 10) if route.kind == "water" else 0
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1)
    cx, cy = mx - dy / length * bend, my + dx / length * bend
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "cx": round(cx, 1), "cy": round(cy, 1),
            "path": f"M{x1},{y1} Q{round(cx, 1)},{round(cy, 1)} {x2},{y2}"}


#: Where a town's name goes (text-anchor, dx, dy) when the default (above right) would leave
#: the map or cover another name.
LABEL_PLACEMENT: dict[str, tuple[str, float, float]] = {
    "nevers": ("end", -10, -10),
    "argenton_sur_creuse": ("middle", 0, 22),  # under its node: left of it, a long name ran under Le Blanc's
    "la_chatre": ("start", 6, 20),
    "saint_amand_montrond": ("start", 10, 16),
    "le_blanc": ("end", -8, 18),
    "chatellerault": ("start", 10, 14),
    "chinon": ("end", -10, -8),
    "le_mans": ("start", 10, 16),
    "sancerre": ("start", 10, 4),
    "briare": ("start", 10, 4),
}


@cache
def geometry(content) -> tuple[dict, dict]:
    """``(town_xy, route_geometry)`` for the engine's ``content`` (its ``TOWNS`` and
    ``ROUTES``): ``{town: (x, y)}`` and ``{route: {x1, y1, x2, y2, cx, cy, path}}`` in SVG
    user units (computed once per content module)."""
    town_xy = {t: _project(t) for t in content.TOWNS}
    return town_xy, {rid: _route_geometry(r, content.ROUTES, town_xy) for rid, r in content.ROUTES.items()}
