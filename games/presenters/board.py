"""Display-ready board regions (map, tracks, development, deeds, supply, place tiles,
player boards) built from a view.

Only presentation lives here (names, colours; coordinates in ``map_geometry``); every fact
comes from the engine's view of the viewing seat (``engine.view``), never from the raw state.
"""
from __future__ import annotations

from engine import content as C
from games.presenters.map_geometry import LABEL_PLACEMENT, MAP_HEIGHT, MAP_WIDTH, ROUTE_GEOMETRY, TOWN_XY

SEAT_COLOURS = ("#c0392b", "#2e86c1", "#27ae60", "#d4ac0d")
GOOD_COLOURS = {"grain": "#e9d98b", "cheese": "#f5b041", "wine": "#8e44ad", "wool": "#f0f3f4", "brocade": "#1abc9c"}
FOLLOWER_COLOURS = {
    "farmer": "#f4f6f7", "boatman": "#3498db", "craftsman": "#a0522d", "trader": "#2c3e50",
    "scholar": "#95a5a6", "knight": "#c0392b", "monk": "#f1c40f", "any": "#ffffff",
}


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
        tokens = [{"seat": s, "colour": seat_colour(s), "x": round(x - 6 * (len(merchants.get(town, [])) - 1) + 12 * i, 1),
                   "y": round(y - 20, 1)}
                  for i, s in enumerate(merchants.get(town, []))]
        anchor, dx, dy = LABEL_PLACEMENT.get(town, ("start", 10, -8))
        towns.append({"id": town, "name": name, "x": x, "y": y, "stations": stations, "merchants": tokens,
                      "label": {"x": round(x + dx, 1), "y": round(y + dy, 1), "anchor": anchor},
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


def place_cards_with_plan(player: dict) -> list[dict]:
    """``place_cards`` plus, for the viewing seat, the followers planned this round.

    The engine gives ``plan`` (a list of ``[space, follower]``) to the viewing seat only;
    for every other seat it is ``None`` and nothing is added.
    """
    cards = place_cards(player)
    planned: dict[str, list] = {}
    for space, tile in player.get("plan") or []:
        planned.setdefault(space, []).append(tile)
    for card in cards:
        card["planned"] = [{"tile": t, "kind": C.follower_type(t), "starting": C.is_starting(t)}
                           for t in planned.get(card["id"], [])]
        card["effect"] = place_effect(card["id"])
        card["slots"] = _slots(card)
        card["ready"] = bool(card["slots"]) and all(s["tile"] or s["technology"] for s in card["slots"])
    return cards


def _slots(card: dict) -> list[dict]:
    """The card's circles with what stands on each: a technology tile covers the first circle
    of its type; followers (placed, then planned) take a circle of their own type first, then
    any free one (monks and substitutes are wild)."""
    slots = [{"kind": c["kind"], "tile": None, "planned": False, "technology": False} for c in card["circles"]]
    if card["technology"]:
        for slot in slots:
            if slot["kind"] == card["technology"]:
                slot["technology"] = True
                break
    tiles = [(t, False) for t in card["tiles"]] + [(t, True) for t in card["planned"]]
    for tile, planned in tiles:
        free = [s for s in slots if s["tile"] is None and not s["technology"]]
        slot = next((s for s in free if s["kind"] == tile["kind"]), free[0] if free else None)
        if slot is not None:
            slot.update(tile=tile["tile"], planned=planned)
    return slots


def _names(ids) -> str:
    names = [C.FOLLOWER_NAMES.get(i, str(i)) + "s" for i in ids]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def place_effect(place_id: str) -> str:
    """A short English description of what a board space or place tile does (RULES §5, §11)."""
    place = C.PLACES[place_id]
    e = place.effect
    if "text" in e:
        return str(e["text"])[:1].upper() + str(e["text"])[1:]
    if "gainGood" in e:
        return f"Take 1 {e['gainGood']}"
    if "substitute" in e:
        sub = e["substitute"]
        return (f"Permanent: your {_names([sub['character']])} may fill {_names(sub['mayActAs'])} circles "
                "(not on beneficial deeds)")
    if "exemptFromNegativeEvents" in e:
        return "Event phase: a Monk here shields you from the next Harvest, Taxes or Plague"
    if "drawFromBag" in e:
        return (f"Draw {e['drawFromBag']} from your bag, keep {e['keep']} and put them at once on "
                "your action spaces")
    if "extraMarketSpaces" in e:
        return (f"+{e['extraMarketSpaces']} market spaces; action: send the followers there to "
                "beneficial deeds")
    if "payCoins" in e:
        return f"Pay {e['payCoins']['min']}–{e['payCoins']['max']} coins: 1 development step per coin"
    if "moveMerchant" in e:
        return "Move your merchant along one road and take 1 good from it"
    if "technologyTiles" in e:
        return "Take 1 technology tile (no track step); it may cover the Laboratory"
    parts = []
    if "coins" in e:
        parts.append(_plural(e["coins"], "coin"))
    if "development" in e:
        parts.append(_plural(e["development"], "development step"))
    if "coinsPerDevelopmentLevel" in e:
        parts.append(f"{_plural(e['coinsPerDevelopmentLevel'], 'coin')} per development level")
    if "coinsPerTradingStation" in e:
        parts.append(f"{_plural(e['coinsPerTradingStation'], 'coin')} per trading station built")
    return "Gain " + " and ".join(parts) if parts else place.name


def event_effect(event: str, letter: str, strength: str) -> str:
    """What an hourglass event does in phase ``letter`` under the game's event strength (RULES §9.3)."""
    def amount(key: str) -> int:
        return C.event_amount(strength if strength in C.EVENT_EFFECTS else "phased", event, key, letter)

    if event == "pilgrimage":
        return "No Monastery action this round"
    if event == "plague":
        return "Each player loses a random follower from the bag (a starting one goes back)"
    if event == "income":
        return f"+{_plural(amount('coinsPerDevelopmentLevel'), 'coin')} per development level"
    if event == "trading_day":
        return f"+{_plural(amount('coinsPerTradingStation'), 'coin')} per trading station"
    if event == "taxes":
        n = amount("goodsPerCoin")
        return "Pay 1 coin per good" if n == 1 else f"Pay 1 coin per {n} goods"
    if event == "harvest":
        return (f"Return {amount('foodToReturn')} food (grain, cheese or wine), "
                f"or pay {C.HARVEST_COINS_PER_FOOD} coins per missing food")
    return ""


EVENT_NAMES = {e: e.replace("_", " ").capitalize() for e in C.EVENTS}


def event_context(view: dict) -> dict:
    """The round's hourglass tile, phase letter, round number and the events left (counts)."""
    strength = view["options"].get("event_strength", "phased")
    letter = view.get("event_phase") or ""
    return {
        "round": view["round"], "rounds": view["rounds"], "letter": letter,
        "event": view.get("event"), "name": EVENT_NAMES.get(view.get("event"), ""),
        "effect": event_effect(view.get("event"), letter, strength) if view.get("event") else "",
        "left": [{"event": e, "name": EVENT_NAMES[e], "count": view["hourglass_left"].get(e, 0)}
                 for e in C.EVENTS],
        "strength": strength,
    }


def place_tiles_context(view: dict) -> list[dict]:
    """The place tiles open for choice, per stack, with their circles and effects."""
    stacks = []
    for stack, ids in view["place_tiles"]["display"].items():
        tiles = [{"id": pid, "name": C.PLACES[pid].name, "effect": place_effect(pid),
                  "circles": [{"kind": c, "colour": FOLLOWER_COLOURS.get(c, "#fff")}
                              for c in C.PLACES[pid].circles]}
                 for pid in ids]
        stacks.append({"stack": stack, "tiles": tiles,
                       "hidden": view["place_tiles"]["stack_counts"].get(stack, 0)})
    return stacks


def supply_context(view: dict) -> dict:
    """The general supply: followers and goods with their colours, technology tiles."""
    return {
        "followers": [{"kind": k, "name": C.FOLLOWER_NAMES[k], "colour": FOLLOWER_COLOURS[k], "count": n}
                      for k, n in view["supply"]["followers"].items()],
        "goods": [{"good": g, "colour": GOOD_COLOURS[g], "count": n}
                  for g, n in view["supply"]["goods"].items()],
        "technology": view["supply"]["technology"],
        "citizens": len(view["citizens_left"]),
    }


def _counts_by_type(tiles) -> list[dict]:
    counts: dict[str, int] = {}
    for tile in tiles:
        counts[tile] = counts.get(tile, 0) + 1
    return [{"tile": t, "count": n} for t, n in sorted(counts.items(), key=lambda kv: _tile_order(kv[0]))]


def _tile_order(tile: str) -> tuple:
    return (C.FOLLOWER_TYPES.index(C.follower_type(tile)), not C.is_starting(tile))


def player_boards(view: dict, names: dict[int, str]) -> list[dict]:
    """Every player's public board from the view: the viewer first, then in seat order.

    ``market`` and ``bag`` are lists only where the view shows them (the viewer's own; the
    others' market from the action phase on); otherwise ``None``.
    """
    viewer = view.get("seat")
    boards = []
    for p in view["players"]:
        seat = p["seat"]
        bag = p.get("bag")
        market = p.get("market")
        boards.append({
            "seat": seat, "name": names.get(seat, f"Seat {seat + 1}"), "colour": seat_colour(seat),
            "is_viewer": seat == viewer, "is_start": seat == view.get("start_player"),
            "is_turn": seat == view.get("turn"), "awaiting": p.get("awaiting"), "passed": p["passed"],
            "coins": p["coins"], "citizens": p["citizens"], "development": p["development"],
            "level": p["level"], "merchant": C.TOWNS.get(p["merchant"], p["merchant"]),
            "goods": [{"good": g, "colour": GOOD_COLOURS[g], "count": n} for g, n in p["goods"].items()],
            "stations_built": p["stations_built"], "stations_left": p["stations_left"],
            "bag_size": p["bag_size"], "draw_count": p["draw_count"],
            "bag": None if bag is None else [{"tile": t, "count": n} for t, n in
                                             sorted(bag.items(), key=lambda kv: _tile_order(kv[0]))],
            "market": None if market is None else _counts_by_type(market),
            "drawn": None if p.get("drawn") is None else _counts_by_type(p["drawn"]),
            "market_size": p["market_size"], "market_capacity": p["market_capacity"],
            "plan_size": p["plan_size"], "technology_count": len(p["technology"]),
            "technology_pending": p["technology_pending"],
            "places": place_cards_with_plan(p),
        })
    boards.sort(key=lambda b: (not b["is_viewer"], b["seat"]))
    return boards
