"""Phase 6, the hourglass event (RULES §8.8, §9.3, §14.7, §14.12).

Every seat's event is resolved on its own, in turn order from the start player; a seat that
must choose (which food to return, what to give up under torture) gets a prompt, and the
seats with prompts answer independently. Random draws use each seat's own stream, so the
result does not depend on who answers first.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .. import content as C
from .. import steps as S
from ..rng import rng_for
from . import torture
from .round import event_phase_letter, turn_order


def _strength(s: dict, event: str, key: str) -> int:
    return C.event_amount(s["options"]["event_strength"], event, key, event_phase_letter(s))


def start(s: dict, ev: list) -> None:
    """Resolve the round's event for every seat (RULES §8.8)."""
    s["phase"] = "event"
    s["turn"] = None
    event = s["event"]
    S.event(ev, "phase", None, "event.event_phase", {"event": event})
    for seat in turn_order(s):
        p = s["players"][seat]
        if event in C.NEGATIVE_EVENTS and "monk" in [C.follower_type(t) for t in p["spaces"].get("sacristy", [])]:
            # RULES §14.7: the Sacristy's monk protects its owner and goes back to the bag.
            S.empty_spaces_to_bag(p, "sacristy")
            S.event(ev, "sacristy", seat, "event.sacristy")
            continue
        RESOLVERS[event](s, seat, ev)
    s["event_waited"] = any(p["prompts"] for p in s["players"])


def _pilgrimage(s, seat, ev):
    """Pilgrimage acts in the action phase only (RULES §9.3)."""


def _income(s, seat, ev):
    """Income (RULES §9.3): coins per development level (phased 3/2/1, constant 1)."""
    level = C.development_level(s["players"][seat]["development"])
    S.gain_coins(s, seat, level * _strength(s, "income", "coinsPerDevelopmentLevel"), ev, {"event": "income"})


def _trading_day(s, seat, ev):
    """Trading Day (RULES §9.3): coins per built trading station (phased 3/2/1, constant 1)."""
    built = S.stations_built(s, seat)
    S.gain_coins(s, seat, built * _strength(s, "trading_day", "coinsPerTradingStation"), ev, {"event": "trading_day"})


def _taxes(s, seat, ev):
    """Taxes (RULES §9.3): 1 coin per full N goods (phased N = 1/2/3, constant 3)."""
    goods = sum(s["players"][seat]["goods"].values())
    due = goods // _strength(s, "taxes", "goodsPerCoin")
    if due:
        torture.pay(s, seat, due, ev, {"event": "taxes"})


def _plague(s, seat, ev):
    """Plague (RULES §9.3): one random tile from the bag; a starting follower goes back,
    any other returns to the general supply. Empty bag: nothing happens."""
    tile = S.draw_from_bag(s, seat, rng_for(s, seat))
    if tile is None:
        return
    S.return_to_supply_or_bag(s, seat, tile)
    if C.is_starting(tile):
        S.event(ev, "plague", seat, "event.plague_no_loss")
    else:
        S.event(ev, "plague", seat, "event.plague", {"follower": tile}, follower=tile)


def food_held(p: dict) -> int:
    """Food tiles (grain, cheese, wine) the player owns (RULES §9.3)."""
    return sum(p["goods"][g] for g in C.FOOD)


def _harvest(s, seat, ev):
    """Harvest (RULES §9.3): return N food (phased 1/2/3, constant 1); 5 coins for each
    missing food; torture for the coins that are missing."""
    p = s["players"][seat]
    need = _strength(s, "harvest", "foodToReturn")
    if food_held(p) >= need:
        p["prompts"].append({"kind": "harvest", "food": need})
        return
    missing = need - food_held(p)
    for g in C.FOOD:
        while p["goods"][g]:
            _return_food(s, seat, g, ev)
    torture.pay(s, seat, missing * C.HARVEST_COINS_PER_FOOD, ev, {"event": "harvest"})


def _return_food(s: dict, seat: int, good: str, ev: list) -> None:
    s["players"][seat]["goods"][good] -= 1
    s["supply"]["goods"][good] += 1
    S.event(ev, "harvest", seat, "event.return_food", {"good": good}, good=good)


def harvest_legal(s: dict, seat: int) -> list[dict]:
    """Each distinct choice of food to return (RULES §9.3: the player picks)."""
    p = s["players"][seat]
    need = p["prompts"][0]["food"]
    held = [g for g in C.FOOD if p["goods"][g] > 0]
    out = []
    for combo in combinations_with_replacement(held, need):
        if all(combo.count(g) <= p["goods"][g] for g in set(combo)):
            out.append({"type": "return_food", "food": list(combo)})
    return out


def return_food(s: dict, seat: int, action: dict, ev: list) -> None:
    """Return the chosen food to the goods market (RULES §9.3 Harvest)."""
    p = s["players"][seat]
    p["prompts"].pop(0)
    for g in action["food"]:
        _return_food(s, seat, g, ev)


#: Events whose resolution changes nothing but players' scalars (their coins): Pilgrimage
#: acts in the action phase only, Income and Trading Day pay coins (RULES §9.3); none is
#: negative, so no Sacristy monk goes back to a bag (§14.7). engine.flow.advance copies
#: just each player's top level before them.
SCALAR_EVENTS = frozenset({"pilgrimage", "income", "trading_day"})
assert not SCALAR_EVENTS & C.NEGATIVE_EVENTS

RESOLVERS = {
    "pilgrimage": _pilgrimage,
    "income": _income,
    "trading_day": _trading_day,
    "taxes": _taxes,
    "plague": _plague,
    "harvest": _harvest,
}
