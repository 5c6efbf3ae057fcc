"""Static game data, loaded once from ``engine/data/components.json``.

This module holds no rules, only the numbers of the game as named constants, so that a
corrected number is a one-line change in the JSON file. ``components.json`` is the
machine-readable twin of RULES.md (§2–§12); the section each constant comes from is noted
beside it.

Where RULES.md marks a value UNCERTAIN, the chosen value comes from the JSON file and the
alternative is one switch away in the constants marked ``# UNCERTAIN`` below.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

_DATA = json.loads((Path(__file__).parent / "data" / "components.json").read_text(encoding="utf-8"))

# --- characters (followers) -------------------------------------------------------------
#: Follower types in board order (RULES §0.3).
FOLLOWER_TYPES: tuple[str, ...] = tuple(c["id"] for c in _DATA["characterTypes"])
#: Types each player owns a starting follower of (RULES §0.3, §3.1 step 9).
STARTING_TYPES: tuple[str, ...] = tuple(_DATA["startingCharacters"]["perPlayer"])
#: Prefix that marks a starting follower: ``"start_farmer"`` acts as a farmer (RULES §0.3).
STARTING_PREFIX = "start_"
FOLLOWER_NAMES = {c["id"]: c["name"] for c in _DATA["characterTypes"]}


def follower_type(tile: str) -> str:
    """Type a follower tile acts as: ``"start_farmer"`` -> ``"farmer"`` (RULES §0.3)."""
    return tile[len(STARTING_PREFIX):] if tile.startswith(STARTING_PREFIX) else tile


def is_starting(tile: str) -> bool:
    """True for one of a player's four starting followers (RULES §0.3)."""
    return tile.startswith(STARTING_PREFIX)


ALL_FOLLOWER_TILES: tuple[str, ...] = FOLLOWER_TYPES + tuple(STARTING_PREFIX + t for t in STARTING_TYPES)

#: Neutral followers in the general supply by player count (RULES §2.2).
NEUTRAL_FOLLOWERS: dict[int, dict[str, int]] = {
    int(n): dict(v["neutralCharacters"]) for n, v in _DATA["setupByPlayerCount"].items()
}

# --- goods (RULES §2.3) -----------------------------------------------------------------
GOODS: tuple[str, ...] = tuple(g["id"] for g in _DATA["goodsTypes"])
GOODS_TOTAL: dict[str, int] = {g["id"]: g["total"] for g in _DATA["goodsTypes"]}
GOODS_VP: dict[str, int] = {g["id"]: g["vp"] for g in _DATA["goodsTypes"]}
FOOD: tuple[str, ...] = tuple(g["id"] for g in _DATA["goodsTypes"] if g["food"])
#: Goods removed at random before seeding the map, by player count (RULES §2.3, §3.3).
GOODS_REMOVED: dict[int, int] = {int(n): v["goodsRemovedAtRandom"] for n, v in _DATA["setupByPlayerCount"].items()}

# --- per player (RULES §3.1 step 9) -----------------------------------------------------
STARTING_COINS: int = _DATA["perPlayerComponents"]["startingCoins"]
TRADING_STATIONS: int = _DATA["perPlayerComponents"]["tradingStations"]
MERCHANT_START: str = _DATA["perPlayerComponents"]["merchantStartTown"]
MARKET_SPACES: int = _DATA["perPlayerComponents"]["marketSpaces"]

# --- general supply (RULES §2.1) --------------------------------------------------------
TECHNOLOGY_TILES: int = _DATA["generalSupply"]["technologyTiles"]
CITIZENS_TOTAL: int = _DATA["citizens"]["total"]


# --- map (RULES §4) ---------------------------------------------------------------------
@dataclass(frozen=True)
class Route:
    """A road (``kind="land"``) or waterway (``kind="water"``) between towns ``a`` and ``b``.

    ``goods_spaces`` lists the minimum player count of each goods space on it (RULES §4.2).
    """

    id: str
    a: str
    b: str
    kind: str
    goods_spaces: tuple[int, ...]

    def other(self, town: str) -> str:
        """The town at the other end from ``town``."""
        return self.b if town == self.a else self.a


TOWNS: dict[str, str] = {t["id"]: t["name"] for t in _DATA["map"]["towns"]}
#: Towns where every player may build a trading station (RULES §4.4: Orléans).
MULTI_STATION_TOWNS = frozenset(t["id"] for t in _DATA["map"]["towns"] if t.get("multipleTradingStations"))
ROUTES: dict[str, Route] = {
    e["id"]: Route(e["id"], e["a"], e["b"], e["kind"], tuple(g["minPlayers"] for g in e["goodsSpaces"]))
    for e in _DATA["map"]["edges"]
}
ROUTES_FROM: dict[str, tuple[Route, ...]] = {
    town: tuple(r for r in ROUTES.values() if town in (r.a, r.b)) for town in TOWNS
}

# --- character tracks (RULES §6) --------------------------------------------------------
_TRACKS = _DATA["characterTracks"]
TRACK_LENGTH: dict[str, int] = {t: _TRACKS[t]["steps"] for t in ("farmer", "boatman", "craftsman", "trader", "scholar", "knight")}
#: Good gained on reaching each Farmer-track step 1..8 (RULES §6.1).
FARMER_TRACK_GOODS: tuple[str, ...] = tuple(r["good"] for r in _TRACKS["farmer"]["rewards"])
#: Coins on reaching each Boatman-track step 1..5 (RULES §6.2, §14.11).
BOATMAN_TRACK_COINS: tuple[int, ...] = tuple(r["coins"] for r in _TRACKS["boatman"]["rewards"])
#: Development steps on reaching each Scholar-track step 1..5 (RULES §6.5).
SCHOLAR_TRACK_STEPS: tuple[int, ...] = tuple(r["development"] for r in _TRACKS["scholar"]["rewards"])
#: Followers drawn per round by Knight-track position 0..5 (RULES §6.6).
KNIGHT_DRAW_COUNT: tuple[int, ...] = tuple(_TRACKS["knight"]["drawCountByPosition"])
#: Knight-track step whose first arrival takes a citizen (RULES §6.6).
KNIGHT_CITIZEN_STEP = 1 + next(i for i, r in enumerate(_TRACKS["knight"]["rewards"]) if r.get("citizenFirstToReach"))
#: Boatman-track step whose first arrival takes a citizen instead of coins (RULES §6.2).
BOATMAN_CITIZEN_STEP = 1 + next(i for i, r in enumerate(_TRACKS["boatman"]["rewards"]) if r.get("citizenFirstToReach"))

# --- development track (RULES §7.1) -----------------------------------------------------
_DEV = _DATA["developmentTrack"]
DEVELOPMENT_END: int = _DEV["end"]
DEVELOPMENT_COINS: dict[int, int] = {c["space"]: c["coins"] for c in _DEV["coinSpaces"]}
#: UNCERTAIN (RULES §7.1): {3, 18, 28} chosen; the alternative is {4, 19, 29}.
DEVELOPMENT_CITIZEN_SPACES: tuple[int, ...] = tuple(_DEV["citizenSpaces"])
_LEVELS = [(lv["from"], lv["to"], lv["level"]) for lv in _DEV["levels"]]
DEVELOPMENT_LEVEL: tuple[int, ...] = tuple(
    next(level for lo, hi, level in _LEVELS if lo <= pos <= hi) for pos in range(DEVELOPMENT_END + 1)
)


# --- beneficial deeds (RULES §7.2) ------------------------------------------------------
@dataclass(frozen=True)
class Deed:
    """A beneficial deed: free spaces by follower type and the reward per tile placed.

    ``coins`` is the reward per placement in coins; ``development_choice`` is True for
    Canalisation, where each tile earns 1 coin or 1 development step (RULES §7.2).
    """

    id: str
    name: str
    spaces: dict
    coins: int
    development_choice: bool

    @property
    def total(self) -> int:
        """Number of spaces on the deed."""
        return sum(self.spaces.values())


def _deed(d: dict) -> Deed:
    reward = d["rewardPerPlacement"]
    if "choice" in reward:
        coins = next(c["coins"] for c in reward["choice"] if "coins" in c)
        return Deed(d["id"], d["name"], dict(d["spaces"]), coins, True)
    return Deed(d["id"], d["name"], dict(d["spaces"]), reward["coins"], False)


DEEDS: dict[str, Deed] = {d["id"]: _deed(d) for d in _DATA["beneficialDeeds"]}

# --- citizens (RULES §7.3) --------------------------------------------------------------
CITIZEN_SPOTS: tuple[str, ...] = (
    tuple(f"development_{s}" for s in DEVELOPMENT_CITIZEN_SPACES)
    + ("knight_track", "boatman_track")
    + tuple(f"deed_{d}" for d in DEEDS)
    + ("trading_station_majority",)
)
assert len(CITIZEN_SPOTS) == CITIZENS_TOTAL

# --- hourglass (RULES §9) ---------------------------------------------------------------
EVENTS: tuple[str, ...] = tuple(t["event"] for t in _DATA["hourglass"]["tiles"])
EVENT_COUNT: dict[str, int] = {t["event"]: t["count"] for t in _DATA["hourglass"]["tiles"]}
ROUNDS: int = _DATA["round"]["rounds"]
#: Phase letter of each round 1..18 (RULES §9.2, §14.1).
ROUND_PHASE: dict[int, str] = {
    r: letter for letter, rounds in _DATA["hourglass"]["orderings"]["abc"]["phaseOfRound"].items() for r in rounds
}
EVENT_EFFECTS: dict[str, dict] = {k: _DATA["hourglass"]["effects"][k] for k in ("phased", "constant")}
#: Events a monk on the Sacristy protects against (RULES §11, §14.7).
NEGATIVE_EVENTS = frozenset(
    next(p for p in _DATA["placeTiles"]["base"] if p["id"] == "sacristy")["effect"]["exemptFromNegativeEvents"]
)
HARVEST_COINS_PER_FOOD: int = EVENT_EFFECTS["phased"]["harvest"]["coinsIfNoFood"]


def event_amount(strength: str, event: str, key: str, letter: str) -> int:
    """An event's number under ``strength`` ("phased"/"constant") in phase ``letter`` (A/B/C):
    e.g. ``event_amount("phased", "income", "coinsPerDevelopmentLevel", "B") == 2`` (RULES §9.3)."""
    value = EVENT_EFFECTS[strength][event][key]
    return value[letter] if isinstance(value, dict) else value

# --- census (RULES §8.2) ----------------------------------------------------------------
CENSUS = _DATA["round"]["census"]


# --- action spaces and place tiles (RULES §5, §11) --------------------------------------
#: UNCERTAIN (RULES §11 Bathhouse): the one circle's type is unknown; "any" is chosen so the
#: tile can be used; the alternative candidate is "boatman" ([orleans-gen]).
UNKNOWN_CIRCLE_AS = "any"


@dataclass(frozen=True)
class Place:
    """An action space of the player board or a place tile (RULES §5, §11).

    ``circles`` has one entry per circle: a follower type or ``"any"``; an empty tuple is a
    permanent ability without circles. ``stack`` is ``"I"``/``"II"`` for place tiles and
    ``None`` for the ten board spaces. ``effect`` is the component data's effect record.
    """

    id: str
    name: str
    circles: tuple[str, ...]
    stack: str | None
    effect: dict

    @property
    def is_board_space(self) -> bool:
        """True for the ten action spaces printed on every player board."""
        return self.stack is None


BOARD_SPACES: dict[str, Place] = {
    a["id"]: Place(a["id"], a["name"], tuple(a["requires"]), None, {"text": a["effect"]}) for a in _DATA["actionSpaces"]
}
PLACE_TILES: dict[str, Place] = {
    p["id"]: Place(
        p["id"],
        p["name"],
        tuple(UNKNOWN_CIRCLE_AS if c == "unknown" else c for c in p["requires"]),
        p["stack"],
        dict(p["effect"]),
    )
    for p in _DATA["placeTiles"]["base"]
}
PLACES: dict[str, Place] = {**BOARD_SPACES, **PLACE_TILES}
#: Place tiles whose circles are never an action in phase 5 (RULES §11 Sacristy).
EVENT_PHASE_PLACES = frozenset({"sacristy"})
#: Permanent abilities: follower type -> circle types it may also fill (RULES §11).
SUBSTITUTES: dict[str, tuple[str, tuple[str, ...]]] = {
    p["id"]: (p["effect"]["substitute"]["character"], tuple(p["effect"]["substitute"]["mayActAs"]))
    for p in _DATA["placeTiles"]["base"]
    if "substitute" in p["effect"]
}
#: Extra market spaces from the Gunpowder Tower (RULES §11, §14.5).
GUNPOWDER_TOWER_SPACES: int = PLACE_TILES["gunpowder_tower"].effect["extraMarketSpaces"]
PLACE_MARKET_FACE_UP = {"market3": 3, "market5": 5}
PLACE_MARKET_DRAWN_PER_STACK: int = _DATA["options"]["availablePlaceTiles"]["normal"]["drawnPerStack"]


def development_level(position: int) -> int:
    """Development level (1–6) of a development-track position 0–30 (RULES §7.1)."""
    return DEVELOPMENT_LEVEL[position]
