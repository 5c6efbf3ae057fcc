"""What each action space and place tile does in the action phase (RULES §5, §6, §11).

Each place has two functions in the ``PLACE_RULES`` registry:

- ``choices(s, seat) -> list[dict]``: every legal way to use the (ready) place now, each a
  dict of the extra fields of an ``activate`` action (``{}`` when there is nothing to
  choose). An empty list means the place cannot be used now (a supply ran out, a track is
  at its end, ...; RULES §6.1 running out).
- ``perform(s, seat, choice, ev)``: carries the effect out on the mutable state.

Place tiles are data (``content.PLACE_TILES``): a simple tile's effect record is read by
``engine.effects`` (the one interpreter of effect records), built from the shared steps in
``steps``, so a new simple tile needs no code.
"""

from __future__ import annotations

from . import content as C
from . import effects as E
from . import steps as S
from .matching import fits

# --- board spaces (RULES §5) -------------------------------------------------------------


def _track_open(p: dict, track: str) -> bool:
    return p["tracks"][track] < C.TRACK_LENGTH[track]


def _advance(s: dict, seat: int, track: str, ev: list) -> int:
    p = s["players"][seat]
    p["tracks"][track] += 1
    step = p["tracks"][track]
    S.event(ev, "track", seat, "event.track", {"track": track, "step": step}, track=track, step=step)
    return step


def _farmhouse_choices(s, seat):
    """Farmhouse (RULES §5, §6.1): blocked at the track end, without a Farmer in supply, or
    while the good of the next step is out of stock (§6.1 UNCERTAIN, best choice)."""
    p = s["players"][seat]
    if not _track_open(p, "farmer") or not S.supply_has(s, "farmer"):
        return []
    good = C.FARMER_TRACK_GOODS[p["tracks"]["farmer"]]
    return [{}] if s["supply"]["goods"][good] > 0 else []


def _farmhouse(s, seat, choice, ev):
    S.recruit(s, seat, "farmer", ev)
    step = _advance(s, seat, "farmer", ev)
    S.gain_good(s, seat, C.FARMER_TRACK_GOODS[step - 1], ev, {"track": "farmer"})


def _place_tile_choices(s, p) -> list[str]:
    """Place tiles ``p`` may take: the first ever must come from stack I (RULES §6.4, §12.3)."""
    stacks = ("I",) if not p["places"] and p["tracks"]["trader"] == 0 else ("I", "II")
    return [t for letter in stacks for t in s["place_tiles"]["display"][letter]]


def take_place_tile(s: dict, seat: int, tile: str, ev: list) -> None:
    """Take ``tile`` from the open place tiles; refill from its stack (RULES §6.4, §12.3)."""
    letter = C.PLACE_TILES[tile].stack
    display = s["place_tiles"]["display"][letter]
    display.remove(tile)
    stack = s["place_tiles"]["stack"][letter]
    if s["options"]["place_tile_market"] in C.PLACE_MARKET_FACE_UP and stack:
        display.append(stack.pop(0))
        display.sort()
    p = s["players"][seat]
    p["places"].append(tile)
    p["places"].sort()
    S.event(ev, "place_tile", seat, "event.place_tile", {"place": tile}, place=tile)


def _village_choices(s, seat):
    """Village (RULES §5, §6.2–§6.4): recruit a Boatman, a Craftsman or a Trader."""
    p = s["players"][seat]
    out = []
    if _track_open(p, "boatman") and S.supply_has(s, "boatman"):
        out.append({"recruit": "boatman"})
    if _track_open(p, "craftsman") and S.supply_has(s, "craftsman") and s["supply"]["technology"] > 0:
        out.append({"recruit": "craftsman"})
    if _track_open(p, "trader") and S.supply_has(s, "trader"):
        out += [{"recruit": "trader", "place_tile": t} for t in _place_tile_choices(s, p)]
    return out


def _village(s, seat, choice, ev):
    kind = choice["recruit"]
    S.recruit(s, seat, kind, ev)
    step = _advance(s, seat, kind, ev)
    if kind == "boatman":
        # RULES §6.2 / §14.11: the first to reach step 5 takes the citizen and no coins.
        if step == C.BOATMAN_CITIZEN_STEP and S.take_citizen(s, seat, "boatman_track", ev):
            return
        S.gain_coins(s, seat, C.BOATMAN_TRACK_COINS[step - 1], ev, {"track": "boatman"})
    elif kind == "craftsman":
        S.take_technology(s, seat, ev)
    else:
        take_place_tile(s, seat, choice["place_tile"], ev)


def _recruit_choices(kind):
    def choices(s, seat):
        p = s["players"][seat]
        return [{}] if _track_open(p, kind) and S.supply_has(s, kind) else []

    return choices


def _university(s, seat, choice, ev):
    """University (RULES §5, §6.5): Scholar, Scholar track, development steps by the step."""
    S.recruit(s, seat, "scholar", ev)
    step = _advance(s, seat, "scholar", ev)
    S.develop(s, seat, C.SCHOLAR_TRACK_STEPS[step - 1], ev, {"place": "university"})


def _castle(s, seat, choice, ev):
    """Castle (RULES §5, §6.6): Knight, Knight track; first to step 4 takes a citizen."""
    S.recruit(s, seat, "knight", ev)
    step = _advance(s, seat, "knight", ev)
    if step == C.KNIGHT_CITIZEN_STEP:
        S.take_citizen(s, seat, "knight_track", ev)


def _monastery_choices(s, seat):
    """Monastery (RULES §5, §8.7): not in a Pilgrimage round; needs a Monk in supply."""
    return [{}] if s["event"] != "pilgrimage" and S.supply_has(s, "monk") else []


def _monastery(s, seat, choice, ev):
    S.recruit(s, seat, "monk", ev)


def _develop_only_choices(steps):
    """Actions whose only effect is development: not allowed on 30 (RULES §14.4)."""

    def choices(s, seat):
        return [{}] if S.development_room(s["players"][seat]) > 0 else []

    return choices


def _scriptorium(s, seat, choice, ev):
    S.develop(s, seat, 1, ev, {"place": "scriptorium"})


def _deed_choices(s, seat, tiles):
    p = s["players"][seat]
    return [{"deeds": a} for a in S.deed_assignments(s, p, tiles)]


def _town_hall_choices(s, seat):
    """Town Hall (RULES §7.2, §14.8): every tile that can go must go to a deed of its type."""
    return _deed_choices(s, seat, s["players"][seat]["spaces"].get("town_hall", []))


def _town_hall_usable(s, seat):
    """``bool(_town_hall_choices(s, seat))``, cheaper: a tile there can go to a deed
    (RULES §7.2, §14.8: usable if at least one tile can be sent)."""
    return S.deeds_take_any(s, s["players"][seat]["spaces"].get("town_hall", []))


def _send_deeds(s, seat, choice, ev, source: str):
    p = s["players"][seat]
    for item in choice["deeds"]:
        tile = item["follower"]
        if source == "town_hall":
            S.take_from_space(p, "town_hall", tile)
        else:
            p["market"].remove(tile)
        S.send_to_deed(s, seat, tile, item["deed"], item["reward"], ev)


def _town_hall(s, seat, choice, ev):
    _send_deeds(s, seat, choice, ev, "town_hall")


def _move_choices(kind):
    """Ship / Wagon / Horse Wagon (RULES §4.3, §5, §11): a route of ``kind`` from the
    merchant's town; take one good lying on it, or none."""

    def choices(s, seat):
        p = s["players"][seat]
        out = []
        for route in S.routes_for(p, kind):
            out += [{"route": route.id, "good": g} for g in sorted(set(s["routes"][route.id]))]
            out.append({"route": route.id, "good": None})
        return out

    return choices


def _move(s, seat, choice, ev):
    S.move_merchant(s, seat, choice["route"], choice["good"], ev)


def _guildhall_choices(s, seat):
    """Guildhall (RULES §4.4, §5)."""
    return [{}] if S.can_build_station(s, seat) else []


def _guildhall(s, seat, choice, ev):
    S.build_station(s, seat, ev)


# --- place tiles (RULES §11): effects read from the component data -------------------------


def _tile_choices(place_id):
    effect = C.PLACE_TILES[place_id].effect

    def choices(s, seat):
        return E.choices(s, seat, effect)

    return choices


def _tile_perform(place_id):
    tile = C.PLACE_TILES[place_id]

    def perform(s, seat, choice, ev):
        E.perform(s, seat, tile.effect, place_id, choice, ev)

    return perform


def _gunpowder_choices(s, seat):
    """Gunpowder Tower action (RULES §11, §14.8): up to 2 market tiles to the deeds, once a
    round (the tower's two spaces)."""
    p = s["players"][seat]
    if p["tower_used"]:
        return []
    tiles = sorted(t for t in p["market"] if not C.is_starting(t))
    out, seen = [], set()
    for i in range(len(tiles)):
        for subset in [[tiles[i]]] + [[tiles[i], tiles[j]] for j in range(i + 1, len(tiles))]:
            key = tuple(subset)
            if key in seen:
                continue
            seen.add(key)
            out += [{"deeds": a} for a in S.deed_assignments(s, p, subset, exact_count=len(subset))]
    return out


def _gunpowder_usable(s, seat):
    """``bool(_gunpowder_choices(s, seat))``, cheaper: unused this round and a market tile
    can go to a deed (a tile alone is one of its subsets; RULES §11, §14.8)."""
    p = s["players"][seat]
    return not p["tower_used"] and S.deeds_take_any(s, p["market"])


def _gunpowder(s, seat, choice, ev):
    s["players"][seat]["tower_used"] = True
    _send_deeds(s, seat, choice, ev, "market")


def _bathhouse(s, seat, choice, ev):
    """Bathhouse (RULES §11): draw 3; keep up to 2 and place them now (a prompt follows)."""
    from .rng import rng_for

    p = s["players"][seat]
    rng = rng_for(s, seat)
    drawn = []
    tiles = S.bag_list(p["bag"])
    for _ in range(3):
        tile = S.draw_from_bag(s, seat, rng, tiles)
        if tile is not None:
            drawn.append(tile)
    S.event(ev, "bathhouse", seat, "event.bathhouse_draw", {"count": len(drawn)})
    p["prompts"].append({"kind": "bathhouse", "drawn": sorted(drawn), "kept": 0})


PLACE_RULES: dict = {
    "farmhouse": (_farmhouse_choices, _farmhouse),
    "village": (_village_choices, _village),
    "university": (_recruit_choices("scholar"), _university),
    "castle": (_recruit_choices("knight"), _castle),
    "monastery": (_monastery_choices, _monastery),
    "scriptorium": (_develop_only_choices(1), _scriptorium),
    "town_hall": (_town_hall_choices, _town_hall),
    "ship": (_move_choices("water"), _move),
    "wagon": (_move_choices("land"), _move),
    "guildhall": (_guildhall_choices, _guildhall),
    "horse_wagon": (_move_choices(E.choice_move_kind(C.PLACE_TILES["horse_wagon"].effect)), _move),
    "gunpowder_tower": (_gunpowder_choices, _gunpowder),
    "bathhouse": (_tile_choices("bathhouse"), _bathhouse),
}
for _pid, _tile in C.PLACE_TILES.items():
    if _pid not in PLACE_RULES and _tile.circles and _pid not in C.EVENT_PHASE_PLACES:
        PLACE_RULES[_pid] = (_tile_choices(_pid), _tile_perform(_pid))


#: Places whose ``choices`` are costly to list: ``usable(s, seat) == bool(choices(s, seat))``
#: (tests/engine/test_readiness_matches_legality.py), for asking only whether a seat can act.
PLACE_USABLE = {"town_hall": _town_hall_usable, "gunpowder_tower": _gunpowder_usable}


def usable_places(p: dict, only: str | None = None) -> list[str]:
    """Places ``p`` could activate if ready: full board spaces and own action tiles, and
    the Gunpowder Tower (no circles; RULES §11). With ``only`` (a place id): the same
    checks of that place alone (``[only]`` or ``[]``)."""
    out = []
    spaces = p["spaces"]
    if spaces:  # a place without followers is never full: a technology tile covers one circle of two+
        subs = None  # the substitutions, looked up once a space holds as many tiles as free circles
        tech = p["technology"]
        places = S.action_place_ids(p)
        if only is not None:
            places = [only] if only in places else []
        for pl in places:
            if pl not in spaces:  # most places stand empty: the cheapest test first
                continue
            tiles = spaces[pl]
            if not tiles or pl == "town_hall" or pl not in PLACE_RULES:
                continue
            circles = S.circles_left(pl, tech.get(pl))  # RULES §8.7 ready: every free circle filled
            if len(tiles) == len(circles):
                if subs is None:
                    subs = S.substitutes(p)
                if fits(circles, tuple(tiles), subs):
                    out.append(pl)
        if spaces.get("town_hall") and only in (None, "town_hall"):
            out.append("town_hall")  # RULES §14.8: one or two tiles are enough
    if "gunpowder_tower" in p["places"] and only in (None, "gunpowder_tower"):
        out.append("gunpowder_tower")
    return out


# --- why a place cannot be used (RULES §6.1 running out; the refusal codes of engine.refusals) ----


def _track_reason(s: dict, p: dict, kind: str):
    """Why a follower of ``kind`` cannot be recruited onto its track now, or None."""
    if not _track_open(p, kind):
        return "track_end", {"track": kind}
    if not S.supply_has(s, kind):
        return "character_supply_empty", {"follower": kind}
    return None


def recruit_reason(s: dict, seat: int, kind: str):
    """Why the Village cannot recruit ``kind`` now (RULES §6.2–§6.4), or None: the track's
    end, the supply, and for a Craftsman a technology tile, for a Trader a place tile."""
    p = s["players"][seat]
    why = _track_reason(s, p, kind)
    if why is None and kind == "craftsman" and s["supply"]["technology"] <= 0:
        why = "technology_unavailable", {}
    if why is None and kind == "trader" and not _place_tile_choices(s, p):
        why = "place_tile_unavailable", {}
    return why


def place_tile_reason(s: dict, seat: int, tile: str):
    """Why the Village's Trader cannot take place tile ``tile`` now, or None (RULES §6.4:
    the first place tile ever taken comes from stack I; §12.3 only open tiles are taken).
    A tile in a hidden stack and one already taken get the same answer (no stack leak)."""
    p = s["players"][seat]
    if tile in _place_tile_choices(s, p):
        return None
    if tile in s["place_tiles"]["display"]["II"]:
        return "first_place_tile", {}
    return "place_tile_taken", {"place_tile": tile}


#: The followers the Village recruits, in the order its choices are listed (RULES §5).
VILLAGE_RECRUITS: tuple[str, ...] = ("boatman", "craftsman", "trader")


def _village_reason(s, seat):
    reasons = {kind: recruit_reason(s, seat, kind) for kind in VILLAGE_RECRUITS}
    return "nothing_to_recruit", {"reasons": {k: v[0] for k, v in reasons.items() if v}}


def _farmhouse_reason(s, seat):
    p = s["players"][seat]
    why = _track_reason(s, p, "farmer")
    if why is None:
        why = "good_unavailable", {"good": C.FARMER_TRACK_GOODS[p["tracks"]["farmer"]]}
    return why


def _move_reason(kind):
    def reason(s, seat):
        return "no_route", {"route_kind": kind, "town": s["players"][seat]["merchant"]}

    return reason


#: The route kind each moving place travels (RULES §5 Ship / Wagon, §11 Horse Wagon).
MOVE_KINDS: dict[str, str] = {"ship": "water", "wagon": "land",
                              "horse_wagon": E.choice_move_kind(C.PLACE_TILES["horse_wagon"].effect)}


def route_reason(s: dict, seat: int, place_id: str, route_id: str, good):
    """Why a usable Ship / Wagon / Horse Wagon cannot move along ``route_id`` taking
    ``good`` (None: no good), or None (RULES §4.3: a route of the place's kind from the
    merchant's town; one good lying on that route)."""
    p = s["players"][seat]
    kind = MOVE_KINDS[place_id]
    if route_id not in {r.id for r in S.routes_for(p, kind)}:
        return "route_elsewhere", {"route_kind": kind, "town": p["merchant"]}
    if good is not None and good not in s["routes"][route_id]:
        return "good_not_on_route", {"good": good}
    return None


def _guildhall_reason(s, seat):
    p = s["players"][seat]
    if p["stations_left"] <= 0:
        return "no_stations_left", {}
    return "station_present", {"town": p["merchant"], "own": seat in s["stations"].get(p["merchant"], [])}


def _tile_reason(place_id):
    effect = C.PLACE_TILES[place_id].effect

    def reason(s, seat):
        return E.blocked(s, seat, effect) or ("development_end", {})

    return reason


def _gunpowder_reason(s, seat):
    """Used this round; else only starting followers (or none) in the market, which never go
    to the deeds (RULES §7.2, §14.8); else no free deed space of their types."""
    p = s["players"][seat]
    if p["tower_used"]:
        return "already_used", {}
    if not any(not C.is_starting(t) for t in p["market"]):
        return "no_deed_follower", {}
    return "no_deed_space", {}


BLOCKED_REASONS: dict = {
    "farmhouse": _farmhouse_reason,
    "village": _village_reason,
    "university": lambda s, seat: _track_reason(s, s["players"][seat], "scholar"),
    "castle": lambda s, seat: _track_reason(s, s["players"][seat], "knight"),
    "monastery": lambda s, seat: (("pilgrimage", {}) if s["event"] == "pilgrimage"
                                  else ("character_supply_empty", {"follower": "monk"})),
    "scriptorium": lambda s, seat: ("development_end", {}),
    "town_hall": lambda s, seat: ("no_deed_space", {}),
    "ship": _move_reason("water"),
    "wagon": _move_reason("land"),
    "horse_wagon": _move_reason("land"),
    "guildhall": _guildhall_reason,
    "gunpowder_tower": _gunpowder_reason,
}
for _pid in PLACE_RULES:
    if _pid not in BLOCKED_REASONS:
        BLOCKED_REASONS[_pid] = _tile_reason(_pid)


def unusable_reason(s: dict, seat: int, place_id: str):
    """``(code, params)`` saying why ``seat`` cannot use ``place_id`` now, or None if it can.

    ``place_id`` must be a known place. Codes: ``not_owned``, ``not_an_action`` (Sacristy,
    Herb Garden, School), ``not_ready`` (circles not all filled; RULES §8.7), then the
    place's own blocking condition (``already_used``: the Gunpowder Tower this round;
    ``BLOCKED_REASONS``; RULES §5, §6.1, §11). Params name ids; ``place`` is always set.
    """
    p = s["players"][seat]
    if place_id not in C.BOARD_SPACES and place_id not in p["places"]:
        code, params = "not_owned", {}
    elif place_id not in PLACE_RULES:
        code, params = "not_an_action", {}
    elif place_id not in usable_places(p):
        code, params = "not_ready", {}
    elif PLACE_RULES[place_id][0](s, seat):
        return None
    else:
        code, params = BLOCKED_REASONS[place_id](s, seat)
    return code, {"place": place_id, **params}


def owned_places(p: dict) -> list[str]:
    """The player's places in board order: the ten board spaces, then its place tiles in
    the order taken (sorted), with or without circles (RULES §5, §11)."""
    return list(C.BOARD_SPACES) + list(p["places"])


def activatable_places(p: dict) -> list[str]:
    """The player's places that are an action of the action phase when ready (RULES §8.7):
    :func:`owned_places` without the permanent abilities and the Sacristy (RULES §11)."""
    return [pl for pl in owned_places(p) if pl in PLACE_RULES]


#: Choice fields of the board spaces with scalar choices (RULES §5); place tiles' come from
#: their effect records (``effects.choice_fields``). Town Hall / Gunpowder Tower ``deeds``
#: lists are not listed: they depend on the position.
_SPACE_FIELDS: dict[str, dict[str, tuple]] = {
    "village": {"recruit": VILLAGE_RECRUITS, "place_tile": tuple(C.PLACE_TILES)},
    "ship": E.move_fields("water"),
    "wagon": E.move_fields("land"),
}


def choice_fields(place_id: str) -> dict[str, tuple]:
    """``{field: allowed values}`` of the scalar choice fields an ``activate`` of
    ``place_id`` may carry, from the component data (the Village's recruits, the Pharmacy's
    1–3 coins from its ``payCoins``, the routes of the Ship, Wagon and Horse Wagon with
    ``good`` a good or None). ``{}`` for a place without such a choice (RULES §5, §11)."""
    if place_id in _SPACE_FIELDS:
        return dict(_SPACE_FIELDS[place_id])
    if place_id in C.PLACE_TILES:
        return E.choice_fields(C.PLACE_TILES[place_id].effect)
    return {}


def all_choice_fields() -> dict[str, tuple]:
    """The union of :func:`choice_fields` over every place: ``{field: allowed values}``."""
    out: dict[str, tuple] = {}
    for place_id in C.PLACES:
        for key, values in choice_fields(place_id).items():
            out[key] = out.get(key, ()) + tuple(v for v in values if v not in out.get(key, ()))
    return out
