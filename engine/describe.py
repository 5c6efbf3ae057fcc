"""Readable English for actions, queue entries, places, events, followers and tracks
(buttons, log lines, the board). Uses the game's standard terms. Action and queue-entry
labels are messages of ``engine.messages`` (``action_message``, ``queue_entry_message``:
id and params), so a site can show them in another language."""

from __future__ import annotations

from . import content as C
from .messages import message, text

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


def place_name(place_id) -> str:
    """``"town_hall"`` -> ``"Town Hall"``; an unknown id is shown as given."""
    return C.PLACES[place_id].name if isinstance(place_id, str) and place_id in C.PLACES else str(place_id)




def describe_place(place_id: str) -> str:
    """What a board space or place tile does, in a short line as the board shows it (RULES
    §5, §11): ``"Take 1 grain"``, ``"Gain 2 coins and 1 development step"``: the English of
    :func:`place_message`. Raises ``KeyError`` for an unknown id."""
    return text(place_message(place_id))


def place_message(place_id: str) -> dict:
    """The structured form of :func:`describe_place`: ``{"msg": id, "params": {...}}``
    (``place_rule.<id>`` for a board space's rule text, ``place_effect.*`` for a place
    tile, from its effect record; RULES §5, §11). Raises ``KeyError`` for an unknown id."""
    place = C.PLACES[place_id]
    e = place.effect
    if "text" in e:  # the board spaces carry their rule text
        return message(f"place_rule.{place_id}")
    for key, line in _WHOLE_LINES:
        if key in e:
            return line(e)
    gains = [part(e[key]) for key, part in _GAINS if key in e]
    return message("place_effect.gain", gains=gains) if gains else message("place_effect.name", place=place_id)


#: Effect keys whose presence alone decides the line, first match wins (RULES §11).
_WHOLE_LINES = (
    ("gainGood", lambda e: message("place_effect.take_good", good=e["gainGood"])),
    ("substitute", lambda e: message("place_effect.substitute", follower=e["substitute"]["character"],
                                     circles=[message("part.circle_name", follower=k)
                                              for k in e["substitute"]["mayActAs"]])),
    ("exemptFromNegativeEvents", lambda e: message("place_effect.sacristy")),
    ("drawFromBag", lambda e: message("place_effect.draw_from_bag", draw=e["drawFromBag"], keep=e["keep"])),
    ("extraMarketSpaces", lambda e: message("place_effect.market_spaces", spaces=e["extraMarketSpaces"])),
    ("payCoins", lambda e: message("place_effect.pay_coins", min=e["payCoins"]["min"], max=e["payCoins"]["max"])),
    ("moveMerchant", lambda e: message("place_effect.move_merchant")),
    ("technologyTiles", lambda e: message("place_effect.technology")),
)
#: Gains joined with "and" after "Gain " (RULES §11).
_GAINS = (
    ("coins", lambda n: message("part.gain_coins", coins=n)),
    ("development", lambda n: message("part.gain_development", steps=n)),
    ("coinsPerDevelopmentLevel", lambda n: message("part.gain_coins_per_level", coins=n)),
    ("coinsPerTradingStation", lambda n: message("part.gain_coins_per_station", coins=n)),
)


def describe_event(event: str, letter: str = "A", strength: str = "phased") -> str:
    """What hourglass ``event`` does in phase ``letter`` (A/B/C) under the game's event
    ``strength`` (RULES §9.3): ``"+2 coins per development level"``; ``""`` if unknown.
    The English of :func:`event_message`."""
    msg = event_message(event, letter, strength)
    return text(msg) if msg is not None else ""


def event_message(event: str, letter: str = "A", strength: str = "phased") -> dict | None:
    """The structured form of :func:`describe_event` (``event_effect.*`` with the amounts
    of phase ``letter`` under ``strength``, RULES §9.3); None for an unknown event."""
    def amount(key: str) -> int:
        return C.event_amount(strength if strength in C.EVENT_EFFECTS else "phased", event, key, letter)

    if event in ("pilgrimage", "plague"):
        return message(f"event_effect.{event}")
    if event == "income":
        return message("event_effect.income", coins=amount("coinsPerDevelopmentLevel"))
    if event == "trading_day":
        return message("event_effect.trading_day", coins=amount("coinsPerTradingStation"))
    if event == "taxes":
        n = amount("goodsPerCoin")
        return message("event_effect.taxes_one") if n == 1 else message("event_effect.taxes", goods=n)
    if event == "harvest":
        return message("event_effect.harvest", food=amount("foodToReturn"), coins=C.HARVEST_COINS_PER_FOOD)
    return None


def event_name(event: str) -> str:
    """``"trading_day"`` -> ``"Trading day"`` (the hourglass tile's name)."""
    return str(event).replace("_", " ").capitalize()


def track_rewards() -> dict[str, list[str]]:
    """What each step 1..n of the six character tracks gives, in short English (RULES §6):
    ``{"boatman": ["2 coins", ..., "citizen / 6 coins"], ...}``: the English of
    :func:`track_reward_messages`."""
    return {track: [text(m) for m in steps] for track, steps in track_reward_messages().items()}


def track_reward_messages() -> dict[str, list[dict]]:
    """The structured form of :func:`track_rewards`: per track, one ``track_reward.*``
    message a step (RULES §6). The Boatman's citizen step and the Knight's citizen step come
    from the component data (``*_CITIZEN_STEP``)."""
    boatman = [message("track_reward.citizen_coins" if i + 1 == C.BOATMAN_CITIZEN_STEP else "track_reward.coins",
                       coins=c) for i, c in enumerate(C.BOATMAN_TRACK_COINS)]
    return {
        "farmer": [message("track_reward.good", good=g) for g in C.FARMER_TRACK_GOODS],
        "boatman": boatman,
        "craftsman": [message("track_reward.technology")] * C.TRACK_LENGTH["craftsman"],
        "trader": [message("track_reward.place_tile")] * C.TRACK_LENGTH["trader"],
        "scholar": [message("track_reward.development", steps=n) for n in C.SCHOLAR_TRACK_STEPS],
        "knight": [message("track_reward.draw_citizen" if i + 1 == C.KNIGHT_CITIZEN_STEP else "track_reward.draw",
                           count=n) for i, n in enumerate(C.KNIGHT_DRAW_COUNT[1:])],
    }


def describe_queue_entry(entry) -> str:
    """How an action queue entry reads: ``"Use Castle"``, ``"Pass for the rest of the
    round"``, ``"Use Village: recruit a Boatman"`` when it fixes a choice, with what it
    answers in advance (``"…; then keep a Knight on Castle"``, ``"…; the technology tile on
    the farmer circle of Farmhouse"``), ``"At the Harvest, return grain"``, and ``"An action
    that cannot be read"`` for anything else (engine.queue's entries). The English of
    :func:`queue_entry_message`."""
    try:
        return text(queue_entry_message(entry))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return text(message("queue.unreadable"))


def queue_entry_message(entry) -> dict:
    """The structured form of :func:`describe_queue_entry`: ``{"msg": id, "params": {...}}``
    (``engine.messages``); ``queue.unreadable`` for an entry that cannot be read."""
    if not isinstance(entry, dict):
        return message("queue.unreadable")
    try:
        return _queue_entry_message(entry)
    except (KeyError, TypeError, ValueError, AttributeError):
        return message("queue.unreadable")


def _queue_entry_message(entry: dict) -> dict:
    kind = entry.get("type")
    if kind == "harvest":
        return message("queue.harvest", food=_food(entry["food"]))
    if kind == "technology":
        return message("queue.technology", targets=_targets(entry["targets"]))
    if kind == "bathhouse":
        return message("queue.bathhouse", keep=_keeps(entry["keep"]))
    if kind == "pass":
        if entry.get("technology"):
            return message("queue.pass_technology", targets=_targets(entry["technology"]))
        return message("queue.pass")
    C.PLACES[entry["space"]]  # an unknown place cannot be read
    action = {k: v for k, v in entry.items() if k not in ("defaults", "keep")}
    if "deeds" in action:
        action["deeds"] = [{"deed": None, "reward": "coins", **d} for d in action["deeds"]]
    out = (message("action.use", place=entry["space"]) if set(action) == {"type", "space"}
           else action_message(action))
    if "route" in entry and "good" not in entry:  # the good is left open
        parts = out["params"]["parts"]
        i = parts.index(message("part.no_good"))
        if entry.get("defaults"):
            parts[i] = message("part.any_good")
        else:
            del parts[i]
    if entry.get("defaults") and entry["space"] in ("town_hall", "gunpowder_tower"):
        out = message("queue.any_deed", action=out)
    if "keep" in entry:
        out = (message("queue.then", action=out, keep=_keeps(entry["keep"])) if entry["keep"]
               else message("queue.then_keep_none", action=out))
    return out


def _food(food: list) -> list[dict]:
    """``"grain, wine"``: goods, each a message (translated one by one)."""
    return [message("part.food", good=g) for g in food]


def _targets(targets: list) -> list[dict]:
    """``"the farmer circle of Farmhouse, else the boatman circle of Village"``."""
    return [message("part.target", circle=t["circle"], place=t["space"]) for t in targets]


def _keeps(keep: list) -> dict:
    """``"keep a Knight on Castle, else a Farmer on Farmhouse"`` (preference order)."""
    return message("part.keep", keeps=[message("part.keep_one", follower=k["follower"], place=k["space"])
                                       for k in keep])


def describe_action(action: dict, state=None, seat: int | None = None) -> str:
    """One line describing a (legal, normalised) action, e.g.
    ``"Use Ship: Orléans → Briare, take wine"``: the English of :func:`action_message`.

    With the ``state`` and the acting ``seat``, a merchant move names the town it leaves and
    the one it goes to; without them, both ends of the route.
    """
    return text(action_message(action, state, seat))


def action_message(action: dict, state=None, seat: int | None = None) -> dict:
    """The structured form of :func:`describe_action`: ``{"msg": id, "params": {...}}``
    with engine ids as params (``engine.messages``). Raises ``KeyError`` for an action
    missing a field its type needs."""
    t = action.get("type")
    if t == "draw":
        return message("action.draw", count=action["count"])
    if t in ("pull_back", "place", "unplace", "bathhouse_place"):
        return message(f"action.{t}", follower=action["follower"], place=action["space"])
    if t in ("submit_plan", "pass", "bathhouse_done"):
        return message(f"action.{t}")
    if t == "place_technology":
        return message("action.place_technology", circle=action["circle"], place=action["space"])
    if t == "return_food":
        return message("action.return_food", food=_food(action["food"]))
    if t == "pay_debt":
        return _payment_message(action["items"])
    if t == "torture":
        return message("action.give_up", items=[_give_up(action)])
    if t == "activate":
        return _activate_message(action, state, seat)
    return message("action.unknown", action=repr(action))


def _give_up(action: dict) -> dict:
    """What a ``torture`` action (or a ``pay_debt`` item) gives up (RULES §10.1)."""
    item = action["item"]
    if item == "station":
        return (message("part.supply_station") if action.get("town") is None
                else message("part.station", town=action["town"]))
    if item == "follower":
        return message("part.follower")
    if item == "development":
        return message("part.development")
    if item == "good":
        return message("part.good", good=action["good"])
    if item == "place_tile":
        return message("part.place_tile", place=action["place"])
    return (message("part.technology") if action.get("place") is None
            else message("part.technology_on", place=action["place"]))


def _activate_message(action: dict, state, seat) -> dict:
    space = action["space"]
    parts = []
    if "recruit" in action:
        parts.append(message("part.recruit", follower=action["recruit"]))
    if "place_tile" in action:
        parts.append(message("part.take_place_tile", place=action["place_tile"]))
    if "route" in action:
        route = C.ROUTES[action["route"]]
        here = state.data["players"][seat]["merchant"] if state is not None and seat is not None else None
        if here in (route.a, route.b):
            parts.append(message("part.route_from", town=here, to_town=route.other(here)))
        else:
            parts.append(message("part.route", town=route.a, to_town=route.b))
        parts.append(message("part.take_good", good=action["good"]) if action.get("good")
                     else message("part.no_good"))
    for d in action.get("deeds", ()):
        to = "part.to_deed" if d["deed"] is not None else "part.to_any_deed"
        to += "_development" if d["reward"] == "development" else ""
        parts.append(message(to, follower=d["follower"], **({"deed": d["deed"]} if d["deed"] is not None else {})))
    if "coins" in action:
        parts.append(message("part.pay", coins=action["coins"]))
    return message("action.use_with", place=space, parts=parts) if parts else message("action.use", place=space)


def _payment_message(items: list[dict]) -> dict:
    """``"Give up 2 wool, a trading station from my supply"``: the items of a ``pay_debt``
    action, equal items counted, in the order first listed."""
    counts: list[list] = []  # [part, n], first listed first
    for item in items:
        part = _give_up({"type": "torture", **item})
        for entry in counts:
            if entry[0] == part:
                entry[1] += 1
                break
        else:
            counts.append([part, 1])
    if not counts:
        return message("action.give_up_nothing")
    parts = []
    for part, n in counts:
        if n == 1:
            parts.append(part)
        elif part["msg"] == "part.good":
            parts.append(message("part.goods", count=n, good=part["params"]["good"]))
        else:
            parts.append(message("part.times", count=n, item=part))
    return message("action.give_up", items=parts)
