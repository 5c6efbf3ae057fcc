"""The one interpreter of the place tiles' effect records (RULES §11).

A place tile's effect in ``components.json`` is a record of camelCase keys
(``{"gainGood": "wine"}``, ``{"coins": 2, "development": 1}``, ``{"payCoins": {"min": 1,
"max": 3}, "developmentPerCoin": 1}``, ...). This module is the only code that reads those
keys: ``places`` asks it whether a simple tile is blocked, which choices it offers and what it
does; ``describe`` asks it for the English line the board shows. A new simple tile is data;
a new kind of effect is one entry in each table here.
"""

from __future__ import annotations

from . import content as C
from . import steps as S
from .describe import followers_name, plural


# --- using a simple tile ----------------------------------------------------------------------


def blocked(s: dict, seat: int, effect: dict):
    """``(code, params)`` if the effect cannot be carried out now, else None (RULES §6.1
    running out, §14.4 development at its end)."""
    p = s["players"][seat]
    if "gainGood" in effect and s["supply"]["goods"][effect["gainGood"]] <= 0:
        return "good_unavailable", {"good": effect["gainGood"]}
    if "technologyTiles" in effect and s["supply"]["technology"] <= 0:
        return "technology_unavailable", {}
    if set(effect) == {"development"} and S.development_room(p) <= 0:
        return "development_end", {}  # RULES §14.4: a development-only action is not allowed on 30
    if "payCoins" in effect:
        if p["coins"] < effect["payCoins"]["min"]:
            return "not_enough_coins", {"coins": effect["payCoins"]["min"]}
        if S.development_room(p) < effect["payCoins"]["min"]:
            return "development_end", {}
    return None


def choices(s: dict, seat: int, effect: dict) -> list[dict]:
    """Every legal choice of a simple tile's ``activate`` (``[{}]`` when there is nothing to
    choose, ``[]`` when it is blocked). The Pharmacy pays 1–3 coins, at most what the player
    has and what the development track still takes (RULES §11, §14.4)."""
    if blocked(s, seat, effect) is not None:
        return []
    if "payCoins" in effect:
        p = s["players"][seat]
        top = min(effect["payCoins"]["max"], p["coins"], S.development_room(p))
        return [{"coins": n} for n in range(effect["payCoins"]["min"], top + 1)]
    return [{}]  # the Bathhouse too: with a short or empty bag it draws what is there (RULES §11)


def choice_reason(s: dict, seat: int, effect: dict, choice: dict):
    """``(code, params)`` naming why an in-range ``choice`` of a usable simple tile is not
    legal now, else None: the Pharmacy's coins beyond the player's coins
    (``not_enough_coins``) or beyond the development spaces left (``development_room``;
    RULES §11 Pharmacy, §14.4)."""
    if "payCoins" in effect and choice.get("coins") in choice_fields(effect).get("coins", ()):
        p = s["players"][seat]
        if choice["coins"] > p["coins"]:
            return "not_enough_coins", {"coins": choice["coins"]}
        if choice["coins"] > S.development_room(p):
            return "development_room", {"coins": choice["coins"], "room": S.development_room(p)}
    return None


def choice_move_kind(effect: dict) -> str | None:
    """The route kind (``"land"``/``"water"``) a moving tile travels, None for other tiles."""
    return effect.get("moveMerchant")


def choice_fields(effect: dict) -> dict[str, tuple]:
    """The choice fields a tile's ``activate`` may carry, each with every value the
    component data allows (``{"coins": (1, 2, 3)}`` for the Pharmacy)."""
    out: dict[str, tuple] = {}
    if "payCoins" in effect:
        out["coins"] = tuple(range(effect["payCoins"]["min"], effect["payCoins"]["max"] + 1))
    if "moveMerchant" in effect:
        out.update(move_fields(effect["moveMerchant"]))
    return out


def move_fields(kind: str) -> dict[str, tuple]:
    """The choice fields of a move along a ``kind`` (``"land"``/``"water"``) route: every
    route of that kind, and every good or None (RULES §4.2, §4.3)."""
    return {"route": tuple(r.id for r in C.ROUTES.values() if r.kind == kind), "good": C.GOODS + (None,)}


def perform(s: dict, seat: int, effect: dict, place_id: str, choice: dict, ev: list) -> None:
    """Carry out the effect of the simple tile ``place_id`` with the chosen fields (RULES §11)."""
    p = s["players"][seat]
    name = {"place": place_id}  # the events' reason
    if "gainGood" in effect:
        S.gain_good(s, seat, effect["gainGood"], ev, name)
    if "coins" in effect:
        S.gain_coins(s, seat, effect["coins"], ev, name)
    if "coinsPerDevelopmentLevel" in effect:
        level = C.development_level(p["development"])
        S.gain_coins(s, seat, effect["coinsPerDevelopmentLevel"] * level, ev, name)
    if "coinsPerTradingStation" in effect:
        S.gain_coins(s, seat, effect["coinsPerTradingStation"] * S.stations_built(s, seat), ev, name)
    if "development" in effect:
        S.develop(s, seat, effect["development"], ev, name)
    if "payCoins" in effect:
        p["coins"] -= choice["coins"]
        S.event(ev, "coins", seat, "event.pay_for_steps", {"coins": choice["coins"], "reason": name},
                coins=-choice["coins"])
        S.develop(s, seat, choice["coins"] * effect["developmentPerCoin"], ev, name)
    if "technologyTiles" in effect:
        S.take_technology(s, seat, ev)


# --- describing any place ---------------------------------------------------------------------


def _names(ids) -> str:
    """``"Farmer, Craftsman and Trader"``: the follower types as circle names (singular)."""
    names = [C.FOLLOWER_NAMES.get(i, str(i)) for i in ids]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


#: Effect keys whose presence alone decides the line, first match wins (RULES §11).
_WHOLE_LINES = (
    ("gainGood", lambda e: f"Take 1 {e['gainGood']}"),
    ("substitute", lambda e: f"Permanent: your {followers_name(e['substitute']['character'])} may fill "
                             f"{_names(e['substitute']['mayActAs'])} circles (not on beneficial deeds)"),
    ("exemptFromNegativeEvents", lambda e: "Event phase: a Monk here shields you from the next Harvest, "
                                           "Taxes or Plague"),
    ("drawFromBag", lambda e: f"Draw {e['drawFromBag']} from your bag, keep {e['keep']} and put them at once "
                              "on your action spaces"),
    ("extraMarketSpaces", lambda e: f"+{e['extraMarketSpaces']} market spaces; action: send the followers "
                                    "there to beneficial deeds"),
    ("payCoins", lambda e: f"Pay {e['payCoins']['min']}–{e['payCoins']['max']} coins: 1 development step "
                           "per coin"),
    ("moveMerchant", lambda e: "Move your merchant along one road and take 1 good from it"),
    ("technologyTiles", lambda e: "Take 1 technology tile (no track step); it may cover the Laboratory"),
)
#: Gains joined with "and" after "Gain " (RULES §11).
_GAINS = (
    ("coins", lambda n: plural(n, "coin")),
    ("development", lambda n: plural(n, "development step")),
    ("coinsPerDevelopmentLevel", lambda n: f"{plural(n, 'coin')} per development level"),
    ("coinsPerTradingStation", lambda n: f"{plural(n, 'coin')} per trading station built"),
)


def describe(place: C.Place) -> str:
    """A short English line for what ``place`` does, as the board shows it (RULES §5, §11)."""
    e = place.effect
    if "text" in e:  # the board spaces carry their rule text
        return str(e["text"])[:1].upper() + str(e["text"])[1:]
    for key, line in _WHOLE_LINES:
        if key in e:
            return line(e)
    parts = [word(e[key]) for key, word in _GAINS if key in e]
    return "Gain " + " and ".join(parts) if parts else place.name
