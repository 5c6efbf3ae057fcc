"""Compulsory payments and torture (RULES §10.1, §14.3, §14.10).

A payment the player cannot make in full takes all their coins; each missing coin becomes
one ``torture`` decision: give up one item of their choice. Everything given up is removed
from the game. With nothing left to give, the rest of the debt is forgiven (RULES §10.1
UNCERTAIN, best choice).
"""

from __future__ import annotations

from .. import content as C
from .. import steps as S
from ..rng import rng_for


def pay(s: dict, seat: int, coins: int, ev: list, why: str) -> None:
    """Make a compulsory payment of ``coins``; queue a torture prompt for the shortfall (RULES §10.1)."""
    p = s["players"][seat]
    paid = min(p["coins"], coins)
    p["coins"] -= paid
    if paid:
        S.event(ev, "coins", seat, f"{{player}} pays {paid} coin{'s' if paid != 1 else ''} ({why})", coins=-paid)
    if coins > paid:
        S.event(ev, "torture", seat, f"{{player}} is {coins - paid} coin{'s' if coins - paid != 1 else ''} short "
                f"and must give up items ({why})", debt=coins - paid)
        p["prompts"].append({"kind": "torture", "debt": coins - paid, "reason": why})


def development_step_allowed(p: dict) -> bool:
    """RULES §14.3: not from a coin space and not onto one (7, 12, 25), and not below 0."""
    pos = p["development"]
    return pos > 0 and pos not in C.DEVELOPMENT_COINS and (pos - 1) not in C.DEVELOPMENT_COINS


def options(s: dict, seat: int) -> list[dict]:
    """Every ``torture`` action ``seat`` may take now, one per item it can give (RULES §10.1)."""
    p = s["players"][seat]
    out = []
    if p["stations_left"] > 0:
        out.append({"type": "torture", "item": "station", "town": None})
    for town in sorted(t for t, seats in s["stations"].items() if seat in seats):
        out.append({"type": "torture", "item": "station", "town": town})
    if any(not C.is_starting(t) for t in p["bag"]):
        out.append({"type": "torture", "item": "follower"})
    if development_step_allowed(p):
        out.append({"type": "torture", "item": "development"})
    out += [{"type": "torture", "item": "good", "good": g} for g in C.GOODS if p["goods"][g] > 0]
    out += [{"type": "torture", "item": "place_tile", "place": pl} for pl in p["places"]]
    if p["technology_pending"]:
        out.append({"type": "torture", "item": "technology", "place": None})
    out += [{"type": "torture", "item": "technology", "place": pl} for pl in sorted(p["technology"])]
    return out


def _lose_place_tile(s: dict, seat: int, place_id: str) -> None:
    p = s["players"][seat]
    p["places"].remove(place_id)
    s["removed"]["places"].append(place_id)
    S.empty_spaces_to_bag(p, place_id)  # torture happens outside planning: no plan is open
    if place_id in p["technology"]:
        del p["technology"][place_id]
        s["removed"]["technology"] += 1
    if place_id == "gunpowder_tower":
        while len(p["market"]) > S.market_capacity(p):
            S.add_tile(p["bag"], p["market"].pop())
    S.repair_spaces(p)


def give(s: dict, seat: int, action: dict, ev: list) -> None:
    """Give up the item named by a legal ``torture`` action and lower the debt by one (RULES §10.1)."""
    p = s["players"][seat]
    item = action["item"]
    if item == "station":
        town = action["town"]
        if town is None:
            p["stations_left"] -= 1
            text = "a trading station from their supply"
        else:
            s["stations"][town].remove(seat)
            if not s["stations"][town]:
                del s["stations"][town]
            text = f"their trading station in {C.TOWNS[town]}"
        s["removed"]["stations"] += 1
    elif item == "follower":
        # A starting follower drawn is put back and another drawn (RULES §10.1): the same as
        # drawing uniformly among the others.
        rng = rng_for(s, seat)
        tiles = [t for t in S.bag_list(p["bag"]) if not C.is_starting(t)]
        tile = tiles[rng.randrange(len(tiles))]
        S.remove_tile(p["bag"], tile)
        S.add_tile(s["removed"]["followers"], tile)
        text = f"a {C.FOLLOWER_NAMES[tile]} drawn from their bag"
    elif item == "development":
        p["development"] -= 1
        text = "one development step"
    elif item == "good":
        p["goods"][action["good"]] -= 1
        s["removed"]["goods"][action["good"]] += 1
        text = f"1 {action['good']}"
    elif item == "place_tile":
        _lose_place_tile(s, seat, action["place"])
        text = f"the place tile {C.PLACE_TILES[action['place']].name}"
    else:
        place = action["place"]
        if place is None:
            p["technology_pending"] -= 1
        else:
            del p["technology"][place]
        s["removed"]["technology"] += 1
        text = "a technology tile"
    S.event(ev, "torture", seat, f"{{player}} gives up {text}", item=item)
    prompt = p["prompts"][0]
    prompt["debt"] -= 1
    if prompt["debt"] <= 0:
        p["prompts"].pop(0)


def forgive_if_nothing_left(s: dict, seat: int, ev: list) -> bool:
    """If the player has nothing left to give, drop the torture prompt: the debt is forgiven (RULES §10.1 UNCERTAIN, best choice)."""
    p = s["players"][seat]
    if p["prompts"] and p["prompts"][0]["kind"] == "torture" and not options(s, seat):
        debt = p["prompts"].pop(0)["debt"]
        S.event(ev, "torture", seat, f"{{player}} has nothing left to give; {debt} coin(s) of debt forgiven")
        return True
    return False
