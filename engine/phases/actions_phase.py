"""Phase 5, actions (RULES §8.7, §14.2).

From the start player clockwise, the seat whose turn it is either activates one ready
place (``activate``) or passes (``pass``) for the rest of the round. After an action its
followers go back to the bag (Town Hall / Gunpowder Tower tiles go to the deeds).
Technology tiles gained this round are placed when their owner passes (RULES §14.2).
"""

from __future__ import annotations

from .. import content as C
from .. import steps as S
from ..places import PLACE_RULES, PLACE_USABLE, usable_places
from .round import turn_order


def start(s: dict, ev: list) -> None:
    """Open the action phase at the start player (RULES §8.7)."""
    s["phase"] = "actions"
    s["turn"] = s["start_player"]
    S.event(ev, "phase", None, "event.action_phase")


def legal(s: dict, seat: int, only: dict | None = None) -> list[dict]:
    """Every ``activate`` with its choices, then ``pass`` (RULES §8.7).

    ``only`` (a normalised action): list just the entries that could equal it (the choices
    of its place only, or just ``pass``), by the same steps; see ``planning.legal``.
    """
    p = s["players"][seat]
    out = []
    if only is None:
        places = usable_places(p)
    else:  # the same checks of the one place it names
        places = usable_places(p, only["space"]) if only["type"] == "activate" else []
    for place_id in places:
        choices, _perform = PLACE_RULES[place_id]
        for choice in choices(s, seat):
            action = {"type": "activate", "space": place_id}
            action.update(choice)
            out.append(action)
    if only is None or only["type"] == "pass":
        out.append({"type": "pass"})
    return out


def has_activation(s: dict, seat: int) -> bool:
    """True if ``seat`` has at least one ``activate`` action (cheaper than :func:`legal`)."""
    for place_id in usable_places(s["players"][seat]):  # a plain loop: any() over a generator costs more
        usable = PLACE_USABLE.get(place_id)
        if (PLACE_RULES[place_id][0] if usable is None else usable)(s, seat):
            return True
    return False


def next_turn(s: dict) -> None:
    """Give the turn to the next seat clockwise that has not passed; None if all have (RULES §8.7)."""
    order = turn_order(s)
    n = len(order)
    i = order.index(s["turn"])
    for k in range(1, n + 1):
        seat = order[(i + k) % n]
        if not s["players"][seat]["passed"]:
            s["turn"] = seat
            return
    s["turn"] = None


def activate(s: dict, seat: int, action: dict, ev: list) -> None:
    """Carry out one ready place; its followers go back to the bag (RULES §8.7)."""
    p = s["players"][seat]
    place_id = action["space"]
    _choices, perform = PLACE_RULES[place_id]
    choice = {k: v for k, v in action.items() if k not in ("type", "space")}
    S.event(ev, "activate", seat, "event.activate", {"place": place_id}, space=place_id)
    perform(s, seat, choice, ev)
    if place_id != "town_hall":
        S.empty_spaces_to_bag(p, place_id)
    if not p["prompts"]:
        next_turn(s)


def do_pass(s: dict, seat: int, action: dict, ev: list) -> None:
    """Pass for the rest of the round; place pending technology tiles (RULES §14.2)."""
    p = s["players"][seat]
    p["passed"] = True
    S.event(ev, "pass", seat, "event.pass")
    if p["technology_pending"] and S.technology_targets(p):
        p["prompts"].append({"kind": "technology"})
    else:
        next_turn(s)


def technology_legal(s: dict, seat: int) -> list[dict]:
    """Where the pending technology tile may go (RULES §8.6)."""
    return [{"type": "place_technology", "space": pl, "circle": c} for pl, c in S.technology_targets(s["players"][seat])]


def place_technology(s: dict, seat: int, action: dict, ev: list) -> None:
    """Place one pending technology tile; ask again while more are pending and fit (RULES §8.6, §14.2)."""
    p = s["players"][seat]
    S.place_technology(s, seat, action["space"], action["circle"], ev)
    p["prompts"].pop(0)
    if p["technology_pending"] and S.technology_targets(p):
        p["prompts"].append({"kind": "technology"})
    else:
        next_turn(s)


def bathhouse_legal(s: dict, seat: int) -> list[dict]:
    """Bathhouse prompt (RULES §11): put a drawn tile on a matching empty circle of another
    action space, or stop; at most two are kept."""
    p = s["players"][seat]
    prompt = p["prompts"][0]
    out = []
    if prompt["kept"] < 2:
        for tile in sorted(set(prompt["drawn"])):
            for place_id in S.action_places(p):
                if place_id == "bathhouse":
                    continue
                if place_id == "town_hall" and C.is_starting(tile):
                    continue
                if S.space_fits(p, place_id, p["spaces"].get(place_id, []) + [tile]):
                    out.append({"type": "bathhouse_place", "follower": tile, "space": place_id})
    out.append({"type": "bathhouse_done"})
    return out


def bathhouse_place(s: dict, seat: int, action: dict, ev: list) -> None:
    """Keep one drawn tile by placing it now (RULES §11 Bathhouse)."""
    p = s["players"][seat]
    prompt = p["prompts"][0]
    prompt["drawn"].remove(action["follower"])
    prompt["kept"] += 1
    S.put_on_space(p, action["space"], action["follower"])
    S.event(ev, "bathhouse", seat, "event.bathhouse_place", {"follower": action["follower"], "place": action["space"]},
            space=action["space"], follower=action["follower"])
    if prompt["kept"] >= 2 or not prompt["drawn"]:
        bathhouse_done(s, seat, action, ev)


def bathhouse_done(s: dict, seat: int, action: dict, ev: list) -> None:
    """The tiles not kept go back into the bag; the turn moves on (RULES §11 Bathhouse)."""
    p = s["players"][seat]
    prompt = p["prompts"].pop(0)
    for tile in prompt["drawn"]:
        S.add_tile(p["bag"], tile)
    next_turn(s)
