"""What places, hourglass events and track steps do, in the active language (issue 11).

The engine describes them in English (``engine.describe``: ``describe_place``,
``describe_event``, ``track_rewards``); the game page shows the same lines composed here
from the engine's component data (``rules.content``: each place's ``effect``, the events'
amounts, the tracks) with the words of ``games.vocabulary``, so a page in English reads
exactly as the engine writes (``tests/i18n/test_descriptions.py`` compares them) and a page
in Japanese reads Japanese. Rules: RULES §5 (board spaces), §6 (tracks), §9.3 (events), §11
(place tiles).
"""
from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy as _, ngettext, pgettext

from games import vocabulary as V

#: The ten action spaces' rule lines (the engine's ``effect["text"]``, capitalised).
BOARD_SPACES = {
    "farmhouse": _("Recruit farmer; farmer track +1; gain good of new space"),
    "village": _("Recruit one of boatman / craftsman / trader and apply that track's step"),
    "university": _("Recruit scholar; scholar track +1; development + shown steps"),
    "castle": _("Recruit knight; knight track +1"),
    "monastery": _("Recruit monk; blocked in a Pilgrimage round"),
    "scriptorium": _("Development +1"),
    "town_hall": _("Move the placed non-starting characters onto matching Beneficial Deed spaces; "
                   "monks only onto monk spaces"),
    "ship": _("Move merchant along one waterway; take up to 1 good from that route"),
    "wagon": _("Move merchant along one road; take up to 1 good from that route"),
    "guildhall": _("Build a trading station in the merchant's town if allowed"),
}


def _list(names: list[str]) -> str:
    """``["Farmer", "Craftsman", "Trader"]`` -> "Farmer, Craftsman and Trader" (Japanese 農家、木こり、商人)."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(first)s and %(last)s") % {
        "first": pgettext("between names in a list", ", ").join(names[:-1]), "last": names[-1]}


def _coins(n: int) -> str:
    return ngettext("%(n)s coin", "%(n)s coins", n) % {"n": n}


def _gains(effect: dict) -> list[str]:
    """The gains of a place tile's ``effect``, in the engine's order (coins, development
    steps, coins per level, coins per station)."""
    parts = []
    if "coins" in effect:
        parts.append(_coins(effect["coins"]))
    if "development" in effect:
        n = effect["development"]
        parts.append(ngettext("%(n)s development step", "%(n)s development steps", n) % {"n": n})
    if "coinsPerDevelopmentLevel" in effect:
        parts.append(gettext("%(coins)s per development level") % {"coins": _coins(effect["coinsPerDevelopmentLevel"])})
    if "coinsPerTradingStation" in effect:
        parts.append(gettext("%(coins)s per trading station built") % {"coins": _coins(effect["coinsPerTradingStation"])})
    return parts


def _tile_line(e: dict) -> str | None:
    """The one line a place tile's effect ``e`` reads as when one key decides it, or None."""
    if "gainGood" in e:
        return gettext("Take 1 %(good)s") % {"good": V.good_name(e["gainGood"])}
    if "substitute" in e:
        sub = e["substitute"]
        return gettext("Permanent: your %(followers)s may fill %(circles)s circles (not on beneficial deeds)") % {
            "followers": V.followers_name(sub["character"]),
            "circles": _list([V.follower_type_name(k) for k in sub["mayActAs"]])}
    if "exemptFromNegativeEvents" in e:
        return gettext("Event phase: a Monk here shields you from the next %(events)s") % {
            "events": _or_list([V.event_name(k) for k in e["exemptFromNegativeEvents"]])}
    if "drawFromBag" in e:
        return gettext("Draw %(draw)s from your bag, keep %(keep)s and put them at once on your action spaces") % {
            "draw": e["drawFromBag"], "keep": e["keep"]}
    if "extraMarketSpaces" in e:
        return gettext("+%(n)s market spaces; action: send the followers there to beneficial deeds") % {
            "n": e["extraMarketSpaces"]}
    if "payCoins" in e:
        return gettext("Pay %(min)s–%(max)s coins: 1 development step per coin") % e["payCoins"]
    if "moveMerchant" in e:
        return gettext("Move your merchant along one road and take 1 good from it")
    if "technologyTiles" in e:
        return gettext("Take 1 technology tile (no track step); it may cover the Laboratory")
    return None


def _or_list(names: list[str]) -> str:
    """``["Harvest", "Taxes", "Plague"]`` -> "Harvest, Taxes or Plague"."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(first)s or %(last)s") % {
        "first": pgettext("between names in a list", ", ").join(names[:-1]), "last": names[-1]}


def describe_place(rules, place_id: str) -> str:
    """What board space or place tile ``place_id`` does, in a short line (the engine's
    ``describe_place`` in the active language). ``rules``: the game's engine. An unknown
    place, or an effect this module cannot word, reads as the engine's English line."""
    place = rules.content.PLACES.get(place_id)
    if place is None:
        return rules.describe_place(place_id)
    if place_id in BOARD_SPACES:
        return str(BOARD_SPACES[place_id])
    e = place.effect
    line = _tile_line(e)
    if line is not None:
        return line
    gains = _gains(e)
    if gains:
        return gettext("Gain %(gains)s") % {"gains": _list(gains)}
    return rules.describe_place(place_id)


def describe_event(rules, event: str, letter: str = "A", strength: str = "phased") -> str:
    """What hourglass ``event`` does in phase ``letter`` under the event ``strength`` (the
    engine's ``describe_event`` in the active language, RULES §9.3); "" if unknown."""
    C = rules.content

    def amount(key: str) -> int:
        return C.event_amount(strength if strength in C.EVENT_EFFECTS else "phased", event, key, letter)

    if event == "pilgrimage":
        return gettext("No Monastery action this round")
    if event == "plague":
        return gettext("Each player loses a random follower from the bag (a starting one goes back)")
    if event == "income":
        return gettext("+%(coins)s per development level") % {"coins": _coins(amount("coinsPerDevelopmentLevel"))}
    if event == "trading_day":
        return gettext("+%(coins)s per trading station") % {"coins": _coins(amount("coinsPerTradingStation"))}
    if event == "taxes":
        n = amount("goodsPerCoin")
        return gettext("Pay 1 coin per good") if n == 1 else gettext("Pay 1 coin per %(n)s goods") % {"n": n}
    if event == "harvest":
        return gettext("Return %(food)s food (grain, cheese or wine), or pay %(coins)s coins per missing food") % {
            "food": amount("foodToReturn"), "coins": C.HARVEST_COINS_PER_FOOD}
    return ""


def track_rewards(rules) -> dict[str, list[str]]:
    """What each step 1..n of the six character tracks gives (the engine's
    ``track_rewards`` in the active language, RULES §6): ``{"boatman": ["2 coins", ...]}``."""
    C = rules.content
    boatman = [gettext("citizen / %(coins)s coins") % {"coins": c} if i + 1 == C.BOATMAN_CITIZEN_STEP
               else _coins(c) for i, c in enumerate(C.BOATMAN_TRACK_COINS)]
    knight = [gettext("draw %(n)s + citizen") % {"n": n} if i + 1 == C.KNIGHT_CITIZEN_STEP
              else gettext("draw %(n)s") % {"n": n} for i, n in enumerate(C.KNIGHT_DRAW_COUNT[1:])]
    return {
        "farmer": [V.good_name(g) for g in C.FARMER_TRACK_GOODS],
        "boatman": boatman,
        "craftsman": [gettext("technology tile")] * C.TRACK_LENGTH["craftsman"],
        "trader": [gettext("place tile")] * C.TRACK_LENGTH["trader"],
        "scholar": [gettext("+%(n)s development") % {"n": n} for n in C.SCHOLAR_TRACK_STEPS],
        "knight": knight,
    }


def queue_gives(rules, me: dict, entry: dict, english: str = "") -> str:
    """What an action queue choice gives (the engine's ``queue_options`` ``gives``, in the
    active language): ``me`` is the viewer's player entry of its view (its tracks),
    ``entry`` the queue entry, ``english`` the engine's own words, shown for an entry this
    module does not know (RULES §4.3, §6, §7.2, §11)."""
    C = rules.content
    space = entry.get("space")
    if entry.get("type") != "activate" or space not in C.PLACES:
        return english
    if "recruit" in entry:
        kind = entry["recruit"]
        steps = track_rewards(rules)[kind]
        step = (me.get("tracks") or {}).get(kind, 0)
        track = V.in_sentence(V.follower_type_name(kind))
        text = (gettext("%(track)s track step %(step)s: %(reward)s") % {"track": track, "step": step + 1,
                                                                       "reward": steps[step]}
                if step < len(steps) else gettext("%(track)s track") % {"track": track})
        if "place_tile" in entry:
            text = pgettext("a queue choice, then what it gives", "%(choice)s — %(gives)s") % {
                "choice": text, "gives": describe_place(rules, entry["place_tile"])}
        return text
    if "route" in entry:
        if entry.get("good"):
            return gettext("+1 %(good)s") % {"good": V.good_name(entry["good"])}
        return gettext("the good on the route, if any") if entry.get("defaults") else gettext("no good")
    if "deeds" in entry:
        coins = sum(C.DEEDS[d["deed"]].coins for d in entry["deeds"] if d.get("reward", "coins") == "coins")
        steps = sum(d.get("reward") == "development" for d in entry["deeds"])
        parts = ([gettext("+%(coins)s") % {"coins": _coins(coins)}] if coins else []) + (
            [gettext("+%(n)s development") % {"n": steps}] if steps else [])
        return pgettext("between names in a list", ", ").join(parts)
    if entry.get("defaults"):
        return gettext("each follower to the free deed space of its type paying most")
    if "keep" in entry:
        return gettext("draw 3, keep it if drawn, the others back to the bag") if entry["keep"] \
            else gettext("draw 3, keep none")
    if "coins" in entry:
        return gettext("+%(n)s development for %(n)s coins") % {"n": entry["coins"]}
    return describe_place(rules, space)
