"""Compulsory payments and torture (RULES §10.1, §14.3, §14.10).

A payment the player cannot make in full takes all their coins; each missing coin must be
paid with one item of their choice, any mix (RULES §10.1). The player answers the torture
decision either one item at a time (``torture``) or with the whole payment at once
(``pay_debt``, validated item by item with exactly the same rules, see :func:`pay_whole`).
Everything given up is removed from the game. With nothing left to give, the rest of the
debt is forgiven (RULES §10.1 UNCERTAIN, best choice).
"""

from __future__ import annotations

from .. import content as C
from .. import steps as S
from ..errors import IllegalAction
from ..messages import render
from ..rng import rng_for


def pay(s: dict, seat: int, coins: int, ev: list, why: dict) -> None:
    """Make a compulsory payment of ``coins``; queue a torture prompt for the shortfall (RULES §10.1).

    ``why`` is the events' reason (``{"event": "taxes"}``, see ``engine.messages``); the
    prompt keeps its English words, as stored games have them."""
    p = s["players"][seat]
    paid = min(p["coins"], coins)
    p["coins"] -= paid
    if paid:
        S.event(ev, "coins", seat, "event.pay", {"coins": paid, "reason": why}, coins=-paid)
    if coins > paid:
        S.event(ev, "torture", seat, "event.debt", {"debt": coins - paid, "reason": why}, debt=coins - paid)
        p["prompts"].append({"kind": "torture", "debt": coins - paid, "reason": render(f"reason.{next(iter(why))}", why)})


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


def _steps_back(p: dict) -> int:
    """How many development steps can be given in a row from the marker's position (RULES §14.3)."""
    pos, steps = p["development"], 0
    while pos > 0 and pos not in C.DEVELOPMENT_COINS and (pos - 1) not in C.DEVELOPMENT_COINS:
        pos -= 1
        steps += 1
    return steps


def payable(s: dict, seat: int) -> list[dict]:
    """What ``seat`` may pay its torture debt with, one entry per item of :func:`options`,
    with ``most``: how many of that item can be given (RULES §10.1, §14.3).

    Entries are the ``torture`` item fields plus ``most`` (int ≥ 1), in :func:`options`
    order, e.g. ``{"item": "good", "good": "wool", "most": 3}``. ``most`` counts that item
    alone from the current position (stations in the supply, non-starting followers in the
    bag, development steps before a coin space, goods of that type, pending technology
    tiles; 1 for a built station, a place tile or a placed technology tile). Items given
    together can lower each other's ``most`` (a place tile takes its technology tile with
    it), which :func:`pay_whole` checks item by item.
    """
    p = s["players"][seat]
    out = []
    for option in options(s, seat):
        item = {k: v for k, v in option.items() if k != "type"}
        kind = item["item"]
        if kind == "station":
            most = p["stations_left"] if item["town"] is None else 1
        elif kind == "follower":
            most = sum(n for t, n in p["bag"].items() if not C.is_starting(t))
        elif kind == "development":
            most = _steps_back(p)
        elif kind == "good":
            most = p["goods"][item["good"]]
        elif kind == "technology" and item["place"] is None:
            most = p["technology_pending"]
        else:
            most = 1
        out.append({**item, "most": most})
    return out


def owes(p: dict) -> bool:
    """True while the player's first prompt is a torture debt (RULES §10.1)."""
    return bool(p["prompts"]) and p["prompts"][0]["kind"] == "torture"


def pay_whole(s: dict, seat: int, action: dict, ev: list) -> None:
    """Pay the open torture debt with the whole list ``action["items"]`` (RULES §10.1).

    ``items`` are ``torture`` actions without their ``type`` (``{"item": "good", "good":
    "wool"}``, ...), one per missing coin, given in the order listed: each must be one of
    :func:`options` at its point, and is given by :func:`give`, exactly as if it were sent
    alone. After the last item the debt must be settled, or be left to what the engine
    does by itself after a single item too (one possible item left: it is given; nothing
    left: the rest is forgiven, RULES §10.1 UNCERTAIN best choice).

    Raises :class:`IllegalAction` with code ``payment_item`` (params ``index`` (1-based),
    ``why``, ``why_params``: the single item's own refusal), ``payment_too_many`` (the debt
    is paid before the list ends; params ``debt``) or ``payment_short`` (params ``debt``,
    ``remaining``). ``s`` is a working copy: the caller drops it on a refusal, so nothing
    changes.
    """
    from ..refusals import reason  # refusals imports the phases' helpers lazily too

    p = s["players"][seat]
    debt = p["prompts"][0]["debt"]
    for index, item in enumerate(action["items"], 1):
        if not owes(p):
            raise IllegalAction(f"pay_debt: {len(action['items'])} items for a debt of {debt}",
                                code="payment_too_many", params={"debt": debt})
        single = {"type": "torture", **item}
        legal = options(s, seat)
        if single not in legal:
            why, why_params = reason(s, seat, single, legal)
            raise IllegalAction(f"pay_debt: item {index} {item!r} cannot be given now ({why})",
                                code="payment_item", params={"index": index, "why": why, "why_params": why_params})
        give(s, seat, single, ev)
    if owes(p) and len(options(s, seat)) > 1:
        remaining = p["prompts"][0]["debt"]
        raise IllegalAction(f"pay_debt: {remaining} of {debt} coins still owed",
                            code="payment_short", params={"debt": debt, "remaining": remaining})


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
            msg, params = "event.give_up_supply_station", {}
        else:
            s["stations"][town].remove(seat)
            if not s["stations"][town]:
                del s["stations"][town]
            msg, params = "event.give_up_station", {"town": town}
        s["removed"]["stations"] += 1
    elif item == "follower":
        # A starting follower drawn is put back and another drawn (RULES §10.1): the same as
        # drawing uniformly among the others.
        rng = rng_for(s, seat)
        tiles = [t for t in S.bag_list(p["bag"]) if not C.is_starting(t)]
        tile = tiles[rng.randrange(len(tiles))]
        S.remove_tile(p["bag"], tile)
        S.add_tile(s["removed"]["followers"], tile)
        msg, params = "event.give_up_follower", {"follower": tile}
    elif item == "development":
        p["development"] -= 1
        msg, params = "event.give_up_development", {}
    elif item == "good":
        p["goods"][action["good"]] -= 1
        s["removed"]["goods"][action["good"]] += 1
        msg, params = "event.give_up_good", {"good": action["good"]}
    elif item == "place_tile":
        _lose_place_tile(s, seat, action["place"])
        msg, params = "event.give_up_place_tile", {"place": action["place"]}
    else:
        place = action["place"]
        if place is None:
            p["technology_pending"] -= 1
        else:
            del p["technology"][place]
        s["removed"]["technology"] += 1
        msg, params = "event.give_up_technology", {}
    S.event(ev, "torture", seat, msg, params, item=item)
    prompt = p["prompts"][0]
    prompt["debt"] -= 1
    if prompt["debt"] <= 0:
        p["prompts"].pop(0)


def forgive_if_nothing_left(s: dict, seat: int, ev: list) -> bool:
    """If the player has nothing left to give, drop the torture prompt: the debt is forgiven (RULES §10.1 UNCERTAIN, best choice)."""
    p = s["players"][seat]
    if p["prompts"] and p["prompts"][0]["kind"] == "torture" and not options(s, seat):
        debt = p["prompts"].pop(0)["debt"]
        S.event(ev, "torture", seat, "event.debt_forgiven", {"debt": debt})
        return True
    return False
