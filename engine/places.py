"""What each action space and place tile does in the action phase (RULES §5, §6, §11).

Each place has two functions in the ``PLACE_RULES`` registry:

- ``choices(s, seat) -> list[dict]``: every legal way to use the (ready) place now, each a
  dict of the extra fields of an ``activate`` action (``{}`` when there is nothing to
  choose). An empty list means the place cannot be used now (a supply ran out, a track is
  at its end, ...; RULES §6.1 running out).
- ``perform(s, seat, choice, ev)``: carries the effect out on the mutable state.

Place tiles are data (``content.PLACE_TILES``): a simple tile's effect record is read by
:func:`_tile_choices` / :func:`_tile_perform`, built from the shared steps in ``steps``, so
a new simple tile needs no code.
"""

from __future__ import annotations

from . import content as C
from . import steps as S

# --- board spaces (RULES §5) -------------------------------------------------------------


def _track_open(p: dict, track: str) -> bool:
    return p["tracks"][track] < C.TRACK_LENGTH[track]


def _advance(s: dict, seat: int, track: str, ev: list) -> int:
    p = s["players"][seat]
    p["tracks"][track] += 1
    step = p["tracks"][track]
    S.event(ev, "track", seat, f"{{player}} advances to step {step} of the {track} track", track=track, step=step)
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
    S.gain_good(s, seat, C.FARMER_TRACK_GOODS[step - 1], ev, "Farmer track")


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
    S.event(ev, "place_tile", seat, f"{{player}} takes the place tile {C.PLACE_TILES[tile].name}", place=tile)


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
        S.gain_coins(s, seat, C.BOATMAN_TRACK_COINS[step - 1], ev, "Boatman track")
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
    S.develop(s, seat, C.SCHOLAR_TRACK_STEPS[step - 1], ev, "University")


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
    S.develop(s, seat, 1, ev, "Scriptorium")


def _deed_choices(s, seat, tiles):
    p = s["players"][seat]
    return [{"deeds": a} for a in S.deed_assignments(s, p, tiles)]


def _town_hall_choices(s, seat):
    """Town Hall (RULES §7.2, §14.8): every tile that can go must go to a deed of its type."""
    return _deed_choices(s, seat, s["players"][seat]["spaces"].get("town_hall", []))


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
        p = s["players"][seat]
        if "gainGood" in effect and s["supply"]["goods"][effect["gainGood"]] <= 0:
            return []
        if "technologyTiles" in effect and s["supply"]["technology"] <= 0:
            return []
        only_development = "development" in effect and set(effect) == {"development"}
        if only_development and S.development_room(p) <= 0:
            return []  # RULES §14.4
        if "payCoins" in effect:
            top = min(effect["payCoins"]["max"], p["coins"], S.development_room(p))
            return [{"coins": n} for n in range(effect["payCoins"]["min"], top + 1)]
        return [{}]  # the Bathhouse too: with a short or empty bag it draws what is there (RULES §11)

    return choices


def _tile_perform(place_id):
    tile = C.PLACE_TILES[place_id]
    effect = tile.effect

    def perform(s, seat, choice, ev):
        p = s["players"][seat]
        if "gainGood" in effect:
            S.gain_good(s, seat, effect["gainGood"], ev, tile.name)
        if "coins" in effect:
            S.gain_coins(s, seat, effect["coins"], ev, tile.name)
        if "coinsPerDevelopmentLevel" in effect:
            level = C.development_level(p["development"])
            S.gain_coins(s, seat, effect["coinsPerDevelopmentLevel"] * level, ev, tile.name)
        if "coinsPerTradingStation" in effect:
            S.gain_coins(s, seat, effect["coinsPerTradingStation"] * S.stations_built(s, seat), ev, tile.name)
        if "development" in effect:
            S.develop(s, seat, effect["development"], ev, tile.name)
        if "payCoins" in effect:
            p["coins"] -= choice["coins"]
            S.event(ev, "coins", seat, f"{{player}} pays {choice['coins']} coins ({tile.name})", coins=-choice["coins"])
            S.develop(s, seat, choice["coins"] * effect["developmentPerCoin"], ev, tile.name)
        if "technologyTiles" in effect:
            S.take_technology(s, seat, ev)

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


def _gunpowder(s, seat, choice, ev):
    s["players"][seat]["tower_used"] = True
    _send_deeds(s, seat, choice, ev, "market")


def _bathhouse(s, seat, choice, ev):
    """Bathhouse (RULES §11): draw 3; keep up to 2 and place them now (a prompt follows)."""
    from .rng import rng_for

    p = s["players"][seat]
    rng = rng_for(s, seat)
    drawn = []
    for _ in range(3):
        tile = S.draw_from_bag(s, seat, rng)
        if tile is not None:
            drawn.append(tile)
    S.event(ev, "bathhouse", seat, f"{{player}} draws {len(drawn)} followers at the Bathhouse")
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
    "horse_wagon": (_move_choices("land"), _move),
    "gunpowder_tower": (_gunpowder_choices, _gunpowder),
    "bathhouse": (_tile_choices("bathhouse"), _bathhouse),
}
for _pid, _tile in C.PLACE_TILES.items():
    if _pid not in PLACE_RULES and _tile.circles and _pid not in C.EVENT_PHASE_PLACES:
        PLACE_RULES[_pid] = (_tile_choices(_pid), _tile_perform(_pid))


def usable_places(p: dict) -> list[str]:
    """Places ``p`` could activate if ready: full board spaces and own action tiles, and
    the Gunpowder Tower (no circles; RULES §11)."""
    out = [pl for pl in S.action_places(p) if pl in PLACE_RULES and pl != "town_hall" and S.is_full(p, pl)]
    if p["spaces"].get("town_hall"):
        out.append("town_hall")  # RULES §14.8: one or two tiles are enough
    if "gunpowder_tower" in p["places"]:
        out.append("gunpowder_tower")
    return out
