"""Readable English for actions (buttons, log lines). Uses the game's standard terms."""

from __future__ import annotations

from . import content as C


def _f(tile: str) -> str:
    name = C.FOLLOWER_NAMES[C.follower_type(tile)]
    return f"starting {name}" if C.is_starting(tile) else name


def _place(place_id) -> str:
    return C.PLACES[place_id].name if place_id in C.PLACES else str(place_id)


def describe_action(action: dict, state=None, seat: int | None = None) -> str:
    """One line describing a (legal, normalised) action, e.g.
    ``"Use Ship: Orléans → Briare, take wine"``.

    With the ``state`` and the acting ``seat``, a merchant move names the town it leaves and
    the one it goes to; without them, both ends of the route.
    """
    t = action.get("type")
    if t == "draw":
        return f"Draw {action['count']} follower{'s' if action['count'] != 1 else ''}"
    if t == "pull_back":
        return f"Take the {_f(action['follower'])} back from {_place(action['space'])} (instead of a draw)"
    if t == "place":
        return f"Put a {_f(action['follower'])} on {_place(action['space'])}"
    if t == "unplace":
        return f"Take the {_f(action['follower'])} back from {_place(action['space'])}"
    if t == "submit_plan":
        return "Submit my plan"
    if t == "pass":
        return "Pass for the rest of the round"
    if t == "place_technology":
        return f"Put the technology tile on the {action['circle']} circle of {_place(action['space'])}"
    if t == "bathhouse_place":
        return f"Keep the {_f(action['follower'])} and put it on {_place(action['space'])}"
    if t == "bathhouse_done":
        return "Return the remaining drawn followers to the bag"
    if t == "return_food":
        return "Return " + ", ".join(action["food"])
    if t == "torture":
        item = action["item"]
        if item == "station":
            return ("Give up a trading station from my supply" if action.get("town") is None
                    else f"Give up my trading station in {C.TOWNS[action['town']]}")
        if item == "follower":
            return "Give up a random follower from my bag"
        if item == "development":
            return "Give up one development step"
        if item == "good":
            return f"Give up 1 {action['good']}"
        if item == "place_tile":
            return f"Give up the place tile {_place(action['place'])}"
        return "Give up a technology tile" + ("" if action.get("place") is None else f" ({_place(action['place'])})")
    if t == "activate":
        space = action["space"]
        parts = []
        if "recruit" in action:
            parts.append(f"recruit a {C.FOLLOWER_NAMES[action['recruit']]}")
        if "place_tile" in action:
            parts.append(f"take {_place(action['place_tile'])}")
        if "route" in action:
            route = C.ROUTES[action["route"]]
            here = state.data["players"][seat]["merchant"] if state is not None and seat is not None else None
            if here in (route.a, route.b):
                parts.append(f"{C.TOWNS[here]} → {C.TOWNS[route.other(here)]}")
            else:
                parts.append(f"{C.TOWNS[route.a]}–{C.TOWNS[route.b]}")
            parts.append(f"take {action['good']}" if action.get("good") else "take no good")
        if "deeds" in action:
            parts += [
                f"{_f(d['follower'])} to {C.DEEDS[d['deed']].name}"
                + (" for a development step" if d["reward"] == "development" else "")
                for d in action["deeds"]
            ]
        if "coins" in action:
            parts.append(f"pay {action['coins']} coins")
        return f"Use {_place(space)}" + (": " + ", ".join(parts) if parts else "")
    return repr(action)
