"""Setting up a new game (RULES §2–§4, §9.2, §12.3)."""

from __future__ import annotations

from . import content as C
from .config import GameOptions
from .errors import InvalidOptions
from .rng import rng_for
from .state import SCHEMA_VERSION


def new_player(seat: int) -> dict:
    """A player's starting position (RULES §3.1 step 5 and 9).

    5 coins, 10 trading stations, merchant in Orléans, markers on the first space of every
    track, and the four starting followers on the market (RULES §3.1 step 9: the market).
    """
    return {
        "seat": seat,
        "coins": C.STARTING_COINS,
        "goods": {g: 0 for g in C.GOODS},
        "tracks": {t: 0 for t in C.TRACK_LENGTH},
        "development": 0,
        "development_coins": [],
        "citizens": 0,
        "stations_left": C.TRADING_STATIONS,
        "merchant": C.MERCHANT_START,
        "bag": {},
        "market": sorted(C.STARTING_PREFIX + t for t in C.STARTING_TYPES),
        "spaces": {},
        "technology": {},
        "technology_pending": 0,
        "technology_placed_ever": False,
        "places": [],
        "plan": [],
        "stage": None,
        "pulled": 0,
        "drawn": [],
        "passed": False,
        "tower_used": False,
        "prompts": [],
    }


def _hourglass_order(options: GameOptions, s: dict) -> list[str]:
    """The 18 hourglass tiles, light Pilgrimage first (RULES §9.2)."""
    rng = rng_for(s, "setup")
    if options.hourglass_order == "abc":
        order = ["pilgrimage"]
        for letter in "ABC":
            stack = [e for e in C.EVENTS if not (letter == "A" and e == "pilgrimage")]
            rng.shuffle(stack)
            order += stack
        return order
    rest = [e for e in C.EVENTS for _ in range(C.EVENT_COUNT[e])]
    rest.remove("pilgrimage")
    rng.shuffle(rest)
    return ["pilgrimage"] + rest


def _place_tiles(options: GameOptions, s: dict) -> dict:
    """Place-tile stacks and the tiles open for choice (RULES §12.3).

    Normal: shuffle each stack and use 13 of each (the base game has 12 and 8, so all);
    Market 3/5: that many face up per stack, refilled from the hidden stack; All: all.
    """
    rng = rng_for(s, "setup")
    display, stack = {}, {}
    for letter in ("I", "II"):
        tiles = sorted(p.id for p in C.PLACE_TILES.values() if p.stack == letter)
        rng.shuffle(tiles)
        if options.place_tile_market == "normal":
            tiles = tiles[: C.PLACE_MARKET_DRAWN_PER_STACK]
        face_up = C.PLACE_MARKET_FACE_UP.get(options.place_tile_market, len(tiles))
        display[letter] = sorted(tiles[:face_up])
        stack[letter] = tiles[face_up:]
    return {"display": display, "stack": stack}


def new_game_data(options: GameOptions | dict, seed: int) -> dict:
    """The state tree of a new game, ready for round 1 (RULES §3).

    ``seed`` is any int; every random choice of the game derives from it (engine.rng).
    Raises :class:`InvalidOptions` for bad options or a non-int seed.
    """
    options = GameOptions.from_dict(options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidOptions("seed must be an integer")
    n = options.players
    s: dict = {
        "schema": SCHEMA_VERSION,
        "options": options.to_dict(),
        "seed": seed,
        "rng": {},
        "round": 0,
        "phase": "setup",
        "barrier": False,
        "event_waited": False,
        "start_player": 0,
        "turn": None,
        "event": None,
        "hourglass": [],
        "supply": {
            "followers": dict(C.NEUTRAL_FOLLOWERS[n]),
            "goods": dict(C.GOODS_TOTAL),
            "technology": C.TECHNOLOGY_TILES,
        },
        "removed": {
            "followers": {},
            "goods": {g: 0 for g in C.GOODS},
            "technology": 0,
            "stations": 0,
            "places": [],
        },
        "routes": {},
        "stations": {},
        "deeds": {d: [] for d in C.DEEDS},
        "citizens": list(C.CITIZEN_SPOTS),
        "place_tiles": {},
        "players": [new_player(i) for i in range(n)],
    }
    # §2.3 / §3.3: remove goods at random, then one good per goods space in use (§4.2).
    rng = rng_for(s, "setup")
    pool = [g for g in C.GOODS for _ in range(C.GOODS_TOTAL[g])]
    rng.shuffle(pool)
    for _ in range(C.GOODS_REMOVED[n]):
        g = pool.pop()
        s["supply"]["goods"][g] -= 1
        s["removed"]["goods"][g] += 1
    for route in C.ROUTES.values():
        placed = [pool.pop() for min_players in route.goods_spaces if min_players <= n]
        for g in placed:
            s["supply"]["goods"][g] -= 1
        s["routes"][route.id] = sorted(placed)
    s["hourglass"] = _hourglass_order(options, s)
    s["place_tiles"] = _place_tiles(options, s)
    return s
