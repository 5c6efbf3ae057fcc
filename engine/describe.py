"""Readable English for actions, queue entries, places, events, followers and tracks
(buttons, log lines, the board). Uses the game's standard terms; the default catalog a
translation would replace."""

from __future__ import annotations

from . import content as C

#: The one-letter mark of each follower type on the board ("F" for Farmer); "?" for "any".
FOLLOWER_LETTERS: dict[str, str] = {**{t: C.FOLLOWER_NAMES[t][0] for t in C.FOLLOWER_TYPES}, "any": "?"}


def follower_name(tile) -> str:
    """A follower tile's name: ``"start_farmer"`` -> ``"starting Farmer"``, ``"knight"`` ->
    ``"Knight"``, the circle type ``"any"`` -> ``"any follower"`` (RULES §0.3)."""
    tile = str(tile)
    kind = C.follower_type(tile)
    if kind == "any":
        return "any follower"
    name = C.FOLLOWER_NAMES.get(kind, kind.capitalize())
    return f"starting {name}" if C.is_starting(tile) else name


def follower_letter(tile) -> str:
    """The board letter of a follower tile or circle type (``"start_knight"`` -> ``"K"``)."""
    return FOLLOWER_LETTERS.get(C.follower_type(str(tile)), "?")


def followers_name(kind) -> str:
    """The plural of a follower type: ``"Knights"``, ``"Boatmen"``, ``"Craftsmen"``."""
    name = C.FOLLOWER_NAMES.get(kind, str(kind))
    return name[:-3] + "men" if name.endswith("man") else name + "s"


def plural(n: int, word: str) -> str:
    """``plural(1, "coin")`` -> ``"1 coin"``, ``plural(2, "coin")`` -> ``"2 coins"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def place_name(place_id) -> str:
    """``"town_hall"`` -> ``"Town Hall"``; an unknown id is shown as given."""
    return C.PLACES[place_id].name if isinstance(place_id, str) and place_id in C.PLACES else str(place_id)


_f = follower_name
_place = place_name


def describe_place(place_id: str) -> str:
    """What a board space or place tile does, in a short line as the board shows it (RULES
    §5, §11): ``"Take 1 grain"``, ``"Gain 2 coins and 1 development step"``. Raises
    ``KeyError`` for an unknown id."""
    from .effects import describe  # effects takes its names from here

    return describe(C.PLACES[place_id])


def describe_event(event: str, letter: str = "A", strength: str = "phased") -> str:
    """What hourglass ``event`` does in phase ``letter`` (A/B/C) under the game's event
    ``strength`` (RULES §9.3): ``"+2 coins per development level"``; ``""`` if unknown."""
    def amount(key: str) -> int:
        return C.event_amount(strength if strength in C.EVENT_EFFECTS else "phased", event, key, letter)

    if event == "pilgrimage":
        return "No Monastery action this round"
    if event == "plague":
        return "Each player loses a random follower from the bag (a starting one goes back)"
    if event == "income":
        return f"+{plural(amount('coinsPerDevelopmentLevel'), 'coin')} per development level"
    if event == "trading_day":
        return f"+{plural(amount('coinsPerTradingStation'), 'coin')} per trading station"
    if event == "taxes":
        n = amount("goodsPerCoin")
        return "Pay 1 coin per good" if n == 1 else f"Pay 1 coin per {n} goods"
    if event == "harvest":
        return (f"Return {amount('foodToReturn')} food (grain, cheese or wine), "
                f"or pay {C.HARVEST_COINS_PER_FOOD} coins per missing food")
    return ""


def event_name(event: str) -> str:
    """``"trading_day"`` -> ``"Trading day"`` (the hourglass tile's name)."""
    return str(event).replace("_", " ").capitalize()


def track_rewards() -> dict[str, list[str]]:
    """What each step 1..n of the six character tracks gives, in short English (RULES §6):
    ``{"boatman": ["2 coins", ..., "citizen / 6 coins"], ...}``. The Boatman's citizen step
    and the Knight's citizen step come from the component data (``*_CITIZEN_STEP``)."""
    boatman = [f"citizen / {c} coins" if i + 1 == C.BOATMAN_CITIZEN_STEP else f"{c} coins"
               for i, c in enumerate(C.BOATMAN_TRACK_COINS)]
    return {
        "farmer": [f"{g}" for g in C.FARMER_TRACK_GOODS],
        "boatman": boatman,
        "craftsman": ["technology tile"] * C.TRACK_LENGTH["craftsman"],
        "trader": ["place tile"] * C.TRACK_LENGTH["trader"],
        "scholar": [f"+{n} development" for n in C.SCHOLAR_TRACK_STEPS],
        "knight": [f"draw {n}" + (" + citizen" if i + 1 == C.KNIGHT_CITIZEN_STEP else "")
                   for i, n in enumerate(C.KNIGHT_DRAW_COUNT[1:])],
    }


def describe_queue_entry(entry) -> str:
    """How an action queue entry reads: ``"Use Castle"``, ``"Pass for the rest of the
    round"``, ``"Use Village: recruit a Boatman"`` when it fixes a choice, with what it
    answers in advance (``"…; then keep a Knight on Castle"``, ``"…; the technology tile on
    the farmer circle of Farmhouse"``), ``"At the Harvest, return grain"``, and ``"An action
    that cannot be read"`` for anything else (engine.queue's entries)."""
    if not isinstance(entry, dict):
        return "An action that cannot be read"
    try:
        kind = entry.get("type")
        if kind == "harvest":
            return "At the Harvest, return " + ", ".join(entry["food"])
        if kind == "technology":
            return "Technology tile: " + _targets(entry["targets"])
        if kind == "bathhouse":
            return "At the Bathhouse, " + _keeps(entry["keep"])
        if kind == "pass":
            text = "Pass for the rest of the round"
            return text + ("; technology tile: " + _targets(entry["technology"]) if entry.get("technology") else "")
        name = C.PLACES[entry["space"]].name
        action = {k: v for k, v in entry.items() if k not in ("defaults", "keep")}
        if "deeds" in action:
            action["deeds"] = [{"deed": None, "reward": "coins", **d} for d in action["deeds"]]
        text = f"Use {name}" if set(action) == {"type", "space"} else describe_action(action)
        text = text.replace(" to None", " to a free deed space")
        if "route" in entry and "good" not in entry:  # the good is left open
            text = text.replace(", take no good", ", take the good on the route if there is one"
                                if entry.get("defaults") else "")
        if entry.get("defaults") and entry["space"] in ("town_hall", "gunpowder_tower"):
            text += " (any free deed space of its type)"
        if "keep" in entry:
            text += "; then " + (_keeps(entry["keep"]) if entry["keep"] else "keep none of the drawn followers")
        return text
    except (KeyError, TypeError, ValueError, AttributeError):
        return "An action that cannot be read"


def _targets(targets: list) -> str:
    """``"the farmer circle of Farmhouse, else the boatman circle of Village"``."""
    return ", else ".join(f"the {t['circle']} circle of {_place(t['space'])}" for t in targets)


def _keeps(keep: list) -> str:
    """``"keep a Knight on Castle, else a Farmer on Farmhouse"`` (preference order)."""
    return "keep " + ", else ".join(f"a {_f(k['follower'])} on {_place(k['space'])}" for k in keep)


def describe_action(action: dict, state=None, seat: int | None = None) -> str:
    """One line describing a (legal, normalised) action, e.g.
    ``"Use Ship: Orléans → Briare, take wine"``.

    With the ``state`` and the acting ``seat``, a merchant move names the town it leaves and
    the one it goes to; without them, both ends of the route.
    """
    t = action.get("type")
    if t == "draw":
        return f"Draw {plural(action['count'], 'follower')}"
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
    if t == "pay_debt":
        return _describe_payment(action["items"])
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


def _describe_payment(items: list[dict]) -> str:
    """``"Give up 2 wool, a trading station from my supply"``: the items of a ``pay_debt``
    action, equal items counted, in the order first listed."""
    counts: dict[str, int] = {}
    for item in items:
        text = describe_action({"type": "torture", **item}).removeprefix("Give up ")
        counts[text] = counts.get(text, 0) + 1
    if not counts:
        return "Give up nothing"
    parts = []
    for text, n in counts.items():
        if n == 1:
            parts.append(text)
        elif text.startswith("1 "):
            parts.append(f"{n} {text[2:]}")
        else:
            parts.append(f"{n} × {text}")
    return "Give up " + ", ".join(parts)
