"""Small shared steps that actions, place tiles and events are built from.

Every step works on the mutable copy of the state tree that ``apply`` builds, appends the
public events it causes to ``ev`` and enforces the limited supplies (RULES §6.1 "running
out"): a step that would hand out something the supply does not hold is refused by the
caller's legality check, so the steps here assume availability was checked.
"""

from __future__ import annotations

from functools import lru_cache

from . import content as C
from .matching import can_fill, fits
from .messages import english


def event(ev: list, kind: str, seat: int | None, msg: str, params: dict | None = None, **extra) -> None:
    """Append a public event: ``{"kind", "seat", "text", "msg", "params", **extra}``.

    ``msg`` is a message id of ``engine.messages.CATALOG`` and ``params`` its parameters
    (engine ids and amounts, JSON-safe); ``text`` is the English sentence rendered from
    them, with ``{player}`` left for the seat's display name. Raises ``KeyError`` for an
    unknown id or a missing parameter.
    """
    params = dict(params) if params else {}
    item = {"kind": kind, "seat": seat, "text": event_text(msg, params), "msg": msg, "params": params}
    if extra:
        item.update(extra)
    ev.append(item)


#: Event texts come from :func:`engine.messages.english`'s memo (events are public).
event_text = english


# --- followers ---------------------------------------------------------------------------
def add_tile(counts: dict, tile: str, n: int = 1) -> None:
    """Add ``n`` of ``tile`` to a counts dict (a bag or a supply)."""
    counts[tile] = counts.get(tile, 0) + n


def remove_tile(counts: dict, tile: str) -> None:
    """Remove one ``tile`` from a counts dict; the caller checked it is there."""
    left = counts[tile] - 1
    if left:
        counts[tile] = left
    else:
        del counts[tile]


def bag_list(bag: dict) -> list[str]:
    """The bag's tiles in canonical order (the order random draws index into)."""
    return [t for t in sorted(bag) for _ in range(bag[t])]


def draw_from_bag(s: dict, seat: int, rng, tiles: list | None = None) -> str | None:
    """Draw one tile uniformly at random from ``seat``'s bag; ``None`` if empty (RULES §8.3).

    ``tiles``: the bag's :func:`bag_list`, kept equal to it here (the drawn tile leaves it),
    so several draws in a row list the bag once."""
    bag = s["players"][seat]["bag"]
    if tiles is None:
        tiles = bag_list(bag)
    if not tiles:
        return None
    tile = tiles.pop(rng.randrange(len(tiles)))  # the list stays sorted: it is the new bag's
    remove_tile(bag, tile)
    return tile


def return_to_supply_or_bag(s: dict, seat: int, tile: str) -> None:
    """Put a follower that leaves play back: starting followers to the bag, others to supply (RULES §9.3 Plague)."""
    if C.is_starting(tile):
        add_tile(s["players"][seat]["bag"], tile)
    else:
        add_tile(s["supply"]["followers"], tile)


def recruit(s: dict, seat: int, kind: str, ev: list) -> None:
    """Take one follower of ``kind`` from the general supply into the bag (RULES §5)."""
    remove_tile(s["supply"]["followers"], kind)
    add_tile(s["players"][seat]["bag"], kind)
    event(ev, "recruit", seat, "event.recruit", {"follower": kind}, follower=kind)


def supply_has(s: dict, kind: str) -> bool:
    """True if the general supply holds a follower of ``kind`` (RULES §6 supply limit)."""
    return s["supply"]["followers"].get(kind, 0) > 0


# --- coins, goods, citizens ----------------------------------------------------------------
def gain_coins(s: dict, seat: int, coins: int, ev: list, why: dict) -> None:
    """Give ``coins`` coins (the bank is unlimited, RULES §14.9); ``why`` is the event's
    reason (``{"place": "ship"}``, see ``engine.messages``)."""
    if coins:
        s["players"][seat]["coins"] += coins
        event(ev, "coins", seat, "event.gain_coins", {"coins": coins, "reason": why}, coins=coins)


def gain_good(s: dict, seat: int, good: str, ev: list, why: dict) -> None:
    """Move one ``good`` from the goods market to the player (RULES §6.1, §11); ``why``:
    the event's reason."""
    s["supply"]["goods"][good] -= 1
    s["players"][seat]["goods"][good] += 1
    event(ev, "good", seat, "event.take_good", {"good": good, "reason": why}, good=good)


def take_citizen(s: dict, seat: int, spot: str, ev: list) -> bool:
    """Give the citizen of ``spot`` if it is still there (RULES §7.3); returns True if taken."""
    if spot not in s["citizens"]:
        return False
    s["citizens"].remove(spot)
    s["players"][seat]["citizens"] += 1
    event(ev, "citizen", seat, "event.citizen", {"spot": spot}, spot=spot)
    return True


# --- development track (RULES §7.1) -----------------------------------------------------------
def develop(s: dict, seat: int, steps: int, ev: list, why: dict) -> None:
    """Move the development marker ``steps`` spaces forward, at most to 30 (RULES §7.1).

    Collects the coins of each coin space reached or passed, once per player per game
    (RULES §14.3), and the citizen of each citizen space if still there. Steps beyond 30 are
    lost (RULES §14.4).
    """
    p = s["players"][seat]
    old = p["development"]
    new = min(C.DEVELOPMENT_END, old + steps)
    if new == old:
        return
    p["development"] = new
    event(ev, "development", seat, "event.develop", {"steps": new - old, "position": new, "reason": why},
          steps=new - old, position=new)
    for space in range(old + 1, new + 1):
        if space in C.DEVELOPMENT_COINS and space not in p["development_coins"]:
            p["development_coins"].append(space)
            gain_coins(s, seat, C.DEVELOPMENT_COINS[space], ev, {"development_space": space})
        if space in C.DEVELOPMENT_CITIZEN_SPACES:
            take_citizen(s, seat, f"development_{space}", ev)


def development_room(p: dict) -> int:
    """Spaces left to the end of the development track (RULES §14.4)."""
    return C.DEVELOPMENT_END - p["development"]


# --- player board ------------------------------------------------------------------------
def substitutes(p: dict) -> tuple:
    """The player's permanent substitutions (Herb Garden, School; RULES §11)."""
    return _substitutes(tuple(p["places"]))


@lru_cache(maxsize=4096)
def _substitutes(places: tuple) -> tuple:
    return tuple(C.SUBSTITUTES[pl] for pl in sorted(places) if pl in C.SUBSTITUTES)


def market_capacity(p: dict) -> int:
    """Market spaces: 8, plus 2 with the Gunpowder Tower (RULES §8.3, §14.5)."""
    return C.MARKET_SPACES + (C.GUNPOWDER_TOWER_SPACES if "gunpowder_tower" in p["places"] else 0)


def action_places(p: dict) -> list[str]:
    """Ids of the player's places that have circles: the ten board spaces and own tiles (RULES §5, §11).
    A new list each call (callers may shuffle it)."""
    return list(_action_places(tuple(p["places"])))


def action_place_ids(p: dict) -> tuple:
    """:func:`action_places` as a shared tuple, for callers that only read it."""
    return _action_places(tuple(p["places"]))


@lru_cache(maxsize=4096)
def _action_places(places: tuple) -> tuple:
    return tuple(C.BOARD_SPACES) + tuple(pl for pl in places if C.PLACE_TILES[pl].circles)


def free_circles(p: dict, place_id: str) -> tuple:
    """Circle types of ``place_id`` not covered by a technology tile (RULES §8.6)."""
    return circles_left(place_id, p["technology"].get(place_id))


@lru_cache(maxsize=1024)
def circles_left(place_id: str, covered: str | None) -> tuple:
    """Circle types of ``place_id`` once a technology tile covers ``covered`` (None: none
    covered; RULES §8.6). Cached: the ready check runs it for every place on each view."""
    circles = list(C.PLACES[place_id].circles)
    if covered is not None:
        circles.remove(covered)
    return tuple(circles)


def space_fits(p: dict, place_id: str, tiles: list) -> bool:
    """True if ``tiles`` can all stand on ``place_id`` at once (RULES §8.4, §8.5)."""
    return fits(free_circles(p, place_id), tuple(sorted(tiles)), substitutes(p))


def is_full(p: dict, place_id: str) -> bool:
    """True if the committed tiles and technology fill every circle (RULES §8.7 ready)."""
    tiles = p["spaces"].get(place_id, [])
    circles = free_circles(p, place_id)
    return len(tiles) == len(circles) and fits(circles, tuple(tiles), substitutes(p))


def put_on_space(p: dict, place_id: str, tile: str) -> None:
    """Commit ``tile`` to ``place_id`` (kept sorted, canonical)."""
    tiles = p["spaces"].setdefault(place_id, [])
    tiles.append(tile)
    tiles.sort()


def take_from_space(p: dict, place_id: str, tile: str) -> None:
    """Remove ``tile`` from ``place_id``; the caller checked it is there."""
    tiles = p["spaces"][place_id]
    tiles.remove(tile)
    if not tiles:
        del p["spaces"][place_id]


def repair_spaces(p: dict) -> None:
    """After a substitution ability is lost, move tiles that no longer fit to the market.

    Used when torture removes a Herb Garden or School (RULES §10.1); tiles are taken off
    in canonical order until the rest fits.
    """
    for place_id in list(p["spaces"]):
        while place_id in p["spaces"] and not space_fits(p, place_id, p["spaces"][place_id]):
            bump_to_market(p, place_id, sorted(p["spaces"][place_id], reverse=True))


def bump_to_market(p: dict, place_id: str, candidates) -> str:
    """Move one follower of ``place_id`` back to the market and return it: the first of
    ``candidates`` whose removal lets the others fit (else the last candidate)."""
    tiles = p["spaces"][place_id]
    for tile in candidates:
        rest = list(tiles)
        rest.remove(tile)
        if space_fits(p, place_id, rest):
            break
    take_from_space(p, place_id, tile)
    p["market"].append(tile)
    p["market"].sort()
    return tile


def empty_spaces_to_bag(p: dict, place_id: str) -> list[str]:
    """Return every follower on ``place_id`` to the bag (after an action, RULES §8.7)."""
    tiles = p["spaces"].pop(place_id, [])
    for t in tiles:
        add_tile(p["bag"], t)
    return tiles


# --- trading stations (RULES §4.4) ----------------------------------------------------------
def stations_built(s: dict, seat: int) -> int:
    """Trading stations ``seat`` has on the map (RULES §14.6: built ones only)."""
    return sum(seats.count(seat) for seats in s["stations"].values())


def can_build_station(s: dict, seat: int) -> bool:
    """Guildhall: a station left and the merchant's town free for this player (RULES §4.4)."""
    p = s["players"][seat]
    if p["stations_left"] <= 0:
        return False
    town = p["merchant"]
    here = s["stations"].get(town, [])
    if town in C.MULTI_STATION_TOWNS:
        return seat not in here
    return not here


def build_station(s: dict, seat: int, ev: list) -> None:
    """Build one station where the merchant stands (RULES §4.4)."""
    p = s["players"][seat]
    town = p["merchant"]
    p["stations_left"] -= 1
    s["stations"].setdefault(town, []).append(seat)
    event(ev, "station", seat, "event.station", {"town": town}, town=town)


# --- merchant (RULES §4.3) ----------------------------------------------------------------
def routes_for(p: dict, kind: str) -> list:
    """Routes of ``kind`` ("land"/"water") leaving the merchant's town (RULES §4.2, §5 Ship/Wagon)."""
    return [r for r in C.ROUTES_FROM[p["merchant"]] if r.kind == kind]


def move_merchant(s: dict, seat: int, route_id: str, good: str | None, ev: list) -> None:
    """Move along ``route_id`` and take ``good`` from it if given (RULES §4.3: one good)."""
    p = s["players"][seat]
    route = C.ROUTES[route_id]
    p["merchant"] = route.other(p["merchant"])
    event(ev, "move", seat, "event.move_merchant", {"town": p["merchant"], "route": route_id},
          route=route_id, town=p["merchant"])
    if good is not None:
        s["routes"][route_id].remove(good)
        p["goods"][good] += 1
        event(ev, "good", seat, "event.route_good", {"good": good}, good=good)


# --- technology tiles (RULES §8.6, §14.2) ---------------------------------------------------
def take_technology(s: dict, seat: int, ev: list) -> None:
    """Take a technology tile; it is placed when its owner passes (RULES §14.2)."""
    s["supply"]["technology"] -= 1
    s["players"][seat]["technology_pending"] += 1
    event(ev, "technology", seat, "event.take_technology")


def technology_targets(p: dict) -> list[tuple[str, str]]:
    """Legal (place, circle type) pairs for a new technology tile (RULES §8.6, §14.2).

    Not on a monk or "any" circle, not on a one-circle place, at most one per place, not on
    the Town Hall; the first one ever placed must cover a Farmer circle.
    """
    out = []
    for place_id in action_places(p):
        place = C.PLACES[place_id]
        if place_id == "town_hall" or len(place.circles) < 2 or place_id in p["technology"]:
            continue
        for circle in sorted(set(place.circles)):
            if circle in ("monk", "any"):
                continue
            if not p["technology_placed_ever"] and circle != "farmer":
                continue
            out.append((place_id, circle))
    return out


def place_technology(s: dict, seat: int, place_id: str, circle: str, ev: list) -> None:
    """Put a pending technology tile on ``circle`` of ``place_id`` (RULES §8.6, §14.2).

    If the followers there no longer fit, the one standing on the covered circle goes back
    to the market (RULES §14.2): a tile of exactly that type if one can go, else another.
    """
    p = s["players"][seat]
    p["technology_pending"] -= 1
    p["technology"][place_id] = circle
    p["technology_placed_ever"] = True
    event(ev, "technology", seat, "event.place_technology", {"circle": circle, "place": place_id},
          place=place_id, circle=circle)
    tiles = p["spaces"].get(place_id, [])
    if tiles and not space_fits(p, place_id, tiles):
        subs = substitutes(p)
        # only a tile that could stand on the covered circle, one of exactly that type first
        candidates = sorted((t for t in set(tiles) if can_fill(t, circle, subs)),
                            key=lambda t: (C.follower_type(t) != circle, t))
        tile = bump_to_market(p, place_id, candidates)
        event(ev, "technology", seat, "event.technology_bump", {"follower": tile})


# --- beneficial deeds (RULES §7.2) ----------------------------------------------------------
def deed_free_spaces(s: dict, deed_ids=None) -> dict:
    """``{deed: {follower type: free spaces}}`` for every deed, in one pass (RULES §7.2);
    with ``deed_ids`` (deeds of ``C.DEEDS``) for just those."""
    deeds = s["deeds"]
    if deed_ids is None:
        free = {d: spaces.copy() for d, spaces in _DEED_SPACES}
        filled_deeds = deeds.items()
    else:
        free = {d: _SPACES_OF[d].copy() for d in deed_ids}
        filled_deeds = [(d, deeds.get(d)) for d in deed_ids]
    types = _TYPE_OF
    for deed_id, filled in filled_deeds:
        if filled:
            room = free[deed_id]
            for tile, _seat in filled:
                room[types.get(tile) or C.follower_type(tile)] -= 1
    return free


_DEED_SPACES = tuple((d, dict(deed.spaces)) for d, deed in C.DEEDS.items())
_SPACES_OF = dict(_DEED_SPACES)
#: A follower tile's type (C.follower_type) for the tiles the content knows.
_TYPE_OF = {tile: C.follower_type(tile) for tile in C.ALL_FOLLOWER_TILES}
#: Follower type -> ``(deed, offers development)`` of the deeds with spaces of that type, in
#: ``C.DEEDS`` order: the only deeds a tile of the type can ever go to (RULES §7.2).
_DEEDS_FOR = {kind: tuple((d, deed.development_choice) for d, deed in C.DEEDS.items() if deed.spaces.get(kind, 0) > 0)
              for kind in {k for deed in C.DEEDS.values() for k in deed.spaces}}


def _deed_options(tile: str) -> tuple | None:
    """``(type, deeds it may go to)`` for a follower tile; None for a starting follower,
    which never goes to a deed (RULES §7.2)."""
    if C.is_starting(tile):
        return None
    kind = C.follower_type(tile)
    return kind, _DEEDS_FOR.get(kind, ())


#: :func:`_deed_options` of the tiles the content knows.
_DEED_OPTIONS = {tile: _deed_options(tile) for tile in C.ALL_FOLLOWER_TILES}


def _options_of(tiles) -> list:
    """:func:`_deed_options` of each of ``tiles``."""
    known, out = _DEED_OPTIONS, []
    for tile in tiles:  # plain loops: cheaper than comprehensions for a few tiles
        out.append(known[tile] if tile in known else _deed_options(tile))
    return out


def _deeds_of(options: list) -> list:
    """The deeds the tiles with these :func:`_deed_options` may go to, without repeats."""
    out = []
    for option in options:
        if option is not None:
            for deed_id, _choice in option[1]:
                if deed_id not in out:
                    out.append(deed_id)
    return out


def deeds_take_any(s: dict, tiles) -> bool:
    """True if some tile of ``tiles`` can go to a free deed space of its type now, that
    is if :func:`deed_assignments` of ``tiles`` is not empty (RULES §7.2); cheaper."""
    options = [option for option in _options_of(tiles) if option is not None and option[1]]
    if not options:
        return False
    free = deed_free_spaces(s, _deeds_of(options))  # the deeds these tiles may go to
    for kind, deeds in options:
        for deed_id, _choice in deeds:
            if free[deed_id].get(kind, 0) > 0:
                return True
    return False


def send_to_deed(s: dict, seat: int, tile: str, deed_id: str, reward: str, ev: list) -> None:
    """Put ``tile`` on a free space of its type; take the reward, and the citizen if last.

    ``reward`` is ``"coins"`` or, on Canalisation, ``"development"`` (RULES §7.2).
    """
    deed = C.DEEDS[deed_id]
    s["deeds"][deed_id].append([tile, seat])
    s["deeds"][deed_id].sort()
    event(ev, "deed", seat, "event.deed", {"follower": tile, "deed": deed_id}, deed=deed_id, follower=tile)
    if reward == "development":
        develop(s, seat, 1, ev, {"deed": deed_id})
    else:
        gain_coins(s, seat, deed.coins, ev, {"deed": deed_id})
    if len(s["deeds"][deed_id]) == deed.total:
        take_citizen(s, seat, f"deed_{deed_id}", ev)


def deed_assignments(s: dict, p: dict, tiles: list[str], exact_count: int | None = None) -> list[list[dict]]:
    """Every way to send ``tiles`` to free deed spaces of their exact type (RULES §7.2, §14.8).

    Returns lists of ``{"follower", "deed", "reward"}`` dicts (sorted, canonical). With
    ``exact_count`` None, only assignments sending as many tiles as possible are returned.
    Canalisation offers the reward "development" only while a step is left to 30, counting
    the steps the same action already takes (RULES §14.4).
    """
    results: set = set()
    options = _options_of(tiles)
    free = deed_free_spaces(s, _deeds_of(options))  # the walk reads the deeds these tiles may go to
    end = len(tiles)

    def walk(i: int, chosen: tuple, room: int):
        if i == end:
            results.add(tuple(sorted(chosen)))
            return
        walk(i + 1, chosen, room)  # this tile stays where it is
        if options[i] is None:
            return
        tile, (kind, deeds) = tiles[i], options[i]
        for deed_id, development_choice in deeds:
            spaces = free[deed_id]
            if spaces.get(kind, 0) > 0:
                spaces[kind] -= 1
                walk(i + 1, chosen + ((tile, deed_id, "coins"),), room)
                if development_choice and room > 0:
                    walk(i + 1, chosen + ((tile, deed_id, "development"),), room - 1)
                spaces[kind] += 1

    walk(0, (), development_room(p))
    if not results:
        return []
    best = max(len(r) for r in results) if exact_count is None else exact_count
    out = []
    for combo in sorted(results):  # plain loops: cheaper than comprehensions for these few
        if len(combo) == best and combo:
            assignment = []
            for t, d, r in combo:
                assignment.append({"follower": t, "deed": d, "reward": r})
            out.append(assignment)
    return out
