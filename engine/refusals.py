"""Refusals a player can read: the code of every reason, its English sentence, and the
search for the reason an action is not legal now (RULES: every refusal names its reason).

Every :class:`engine.RulesError` has ``code``, ``params`` (ids, JSON-safe) and ``message``
(one sentence rendered here from the code and params with the game's English names). The
developer text (``str(err)``) also names the action, seat, round and phase.

A translation replaces :data:`MESSAGES` (code -> template or function of the params); the
codes and params stay.
"""

from __future__ import annotations

from . import content as C
from .describe import follower_name, followers_name, place_name, plural
from .errors import IllegalAction

#: The code a site uses for a page showing an older position than the game's (the engine
#: itself never raises it; the site's optimistic version check does).
STALE = "stale"

_TASKS = {
    "draw": "draw your followers",
    "plan": "finish your plan",
    "action": "take an action or pass",
    "torture": "choose what to give up",
    "harvest": "choose which food to return",
    "technology": "place your technology tile",
    "bathhouse": "place or return the followers drawn at the Bathhouse",
}
_ROUTE_KINDS = {"water": "waterway", "land": "road"}


def _names(params: dict) -> dict:
    """Display names for the ids in ``params`` (used by the templates)."""
    out = dict(params)
    if "place" in params:
        out["place"] = place_name(params["place"])
    if "track" in params:
        out["track"] = C.FOLLOWER_NAMES.get(params["track"], params["track"])
    if "follower" in params:
        out["follower_id"] = str(params["follower"])
        out["follower"] = follower_name(params["follower"])
        out["followers"] = followers_name(C.follower_type(str(params["follower"])))
    if "deed" in params:
        out["deed"] = C.DEEDS[params["deed"]].name if params["deed"] in C.DEEDS else params["deed"]
    if "town" in params:
        out["town"] = C.TOWNS.get(params["town"], params["town"])
    if "route_kind" in params:
        out["route_kind"] = _ROUTE_KINDS.get(params["route_kind"], params["route_kind"])
    if "place_tile" in params:
        out["place_tile"] = place_name(params["place_tile"])
    if "recruit" in params:
        out["recruit"] = C.FOLLOWER_NAMES.get(params["recruit"], params["recruit"])
    if "kind" in params:
        out["task"] = _TASKS.get(params["kind"], "answer another decision")
    return out


def _cannot(reason: str):
    """A template "The <place> cannot be used: <reason>." (or "cannot recruit a <follower>")."""

    def render(p: dict) -> str:
        subject = f"cannot recruit a {p['recruit']}" if p.get("recruit") else "cannot be used"
        return f"The {p['place']} {subject}: {reason.format(**p)}."

    return render


def _station_present(p: dict) -> str:
    whose = "you already have a trading station" if p.get("own") else "there is already a trading station"
    return f"The {p['place']} cannot be used: {whose} in {p['town']}."


def _not_ready(p: dict) -> str:
    if p.get("place") == "Town Hall":
        return "The Town Hall is not ready: no follower stands on it."
    return f"The {p['place']} is not ready: not all its circles are filled."


def _not_your_turn(p: dict) -> str:
    if p.get("why") == "resolution":
        return "Not now: the game is waiting for the other players' moves to be resolved."
    if p.get("why") == "no_seat":
        return "You have no seat in this game."
    if p.get("why") == "passed":
        return "You have passed: you take no more actions this round."
    return "It is not your turn."


#: code -> template (``str.format`` with the display names) or function of the display params.
MESSAGES: dict = {
    # a place blocked by a rule (RULES §5, §6.1, §8.7, §11, §14.4)
    "track_end": _cannot("the {track} track is at its last space"),
    "character_supply_empty": _cannot("no {followers} are left in the supply"),
    "good_unavailable": _cannot("no {good} is left in the goods supply"),
    "technology_unavailable": _cannot("no technology tiles are left"),
    "place_tile_unavailable": _cannot("no place tile is left to take"),
    "nothing_to_recruit": _cannot("no Boatman, Craftsman or Trader can be recruited now"),
    "pilgrimage": _cannot("it is a Pilgrimage round"),
    "development_end": _cannot("your development marker is at the end of the track"),
    "station_present": _station_present,
    "no_stations_left": _cannot("you have no trading stations left"),
    "no_route": _cannot("no {route_kind} leaves {town}"),
    "route_elsewhere": "The {place} cannot take that route: it is not a {route_kind} from {town}, where your "
                       "merchant stands.",
    "good_not_on_route": "The {place} cannot take {good} from that route: there is none on it.",
    "no_deed_space": _cannot("no beneficial deed has a free space for these followers"),
    "no_deed_follower": _cannot("no follower in your market can go to a beneficial deed (starting followers "
                                "never can)"),
    "deed_full": "{deed} has no free {follower} space: a follower goes only on a space of its own type.",
    "deeds_none": "Choose at least one follower to send to a beneficial deed.",
    "deed_starting": "Starting followers never go to a beneficial deed.",
    "deeds_all": "Every follower on the Town Hall that has a free beneficial deed space of its type must go to one.",
    "tower_two": "The Gunpowder Tower holds only 2 followers.",
    "first_place_tile": _cannot("your first place tile must come from stack I"),
    "place_tile_taken": _cannot("the {place_tile} is not available to take"),
    "not_enough_coins": lambda p: f"The {p['place']} cannot be used: you need at least "
                                  f"{plural(p['coins'], 'coin')} to pay.",
    "development_room": lambda p: (f"The {p['place']} cannot take {plural(p['coins'], 'coin')}: your development "
                                   f"marker has only {plural(p['room'], 'space')} left to the end of the track."),
    "already_used": "The {place} has already been used this round.",
    "not_an_action": "The {place} is not an action of the action phase.",
    "not_ready": _not_ready,
    "choice_not_allowed": "These choices are not allowed for the {place} now.",
    # placing and drawing followers (RULES §8.3–§8.5, §14.5, §14.8)
    "unknown_place": "There is no place called “{place}”.",
    "unknown_follower": "There is no follower called “{follower_id}”.",
    "not_owned": "You do not own the {place}.",
    "not_in_market": "You have no {follower} in your market.",
    "no_free_circle": "Every circle of the {place} is already taken.",
    "no_circles": "The {place} has no circles: no follower can be put on it.",
    "circle_type": "No free circle of the {place} takes a {follower}.",
    "starting_follower": "Starting followers cannot go on the {place}.",
    "not_on_space": "There is no {follower} on your {place}.",
    "draw_limit": lambda p: f"You may draw at most {plural(p['most'], 'follower')} now (your Knight track's "
                            "draw count).",
    "market_full": lambda p: f"Your market has room for only {plural(p['most'], 'more follower')}.",
    "no_draw_left": "Each pull-back takes the place of one draw, and you have no draw left this round.",
    "bag_short": lambda p: f"Your bag holds only {plural(p['most'], 'follower')}.",
    "not_drawn": "There is no {follower} among the followers drawn at the Bathhouse.",
    "bathhouse_itself": "The followers drawn at the Bathhouse cannot go on the Bathhouse itself.",
    "technology_target": "A technology tile cannot go there now.",
    "technology_town_hall": "A technology tile cannot go on the Town Hall.",
    "technology_one_circle": "A technology tile cannot go on the {place}: it has only one circle.",
    "technology_twice": "The {place} already has a technology tile.",
    "technology_monk": "A technology tile never covers a Monk circle.",
    "technology_first_farmer": "Your first technology tile must cover a Farmer circle.",
    "torture_item": "You cannot give that up: you do not have it.",
    "torture_development": "You cannot give a development step: your marker may not move from or onto a coin "
                           "space (7, 12, 25).",
    "torture_follower": "You cannot give a follower: your bag holds only starting followers, which are never lost.",
    "payment_item": lambda p: (f"Item {p['index']} of your payment is refused. "
                               f"{render(p.get('why', 'not_allowed'), p.get('why_params') or {})}"),
    "payment_short": lambda p: (f"Your payment does not settle the debt of {plural(p['debt'], 'coin')}: "
                                f"choose {plural(p['remaining'], 'more item')}, one per missing coin."),
    "payment_too_many": lambda p: (f"You owe only {plural(p['debt'], 'coin')}: give one item per missing coin, "
                                   "no more."),
    "food_choice": lambda p: f"Return exactly {p['food']} food that you have (grain, cheese or wine).",
    # whose turn and the game's state
    "not_your_turn": _not_your_turn,
    "wrong_decision": "First {task}.",
    "game_over": "The game is over.",
    "not_undoable": ("There is nothing to take back: another player has acted since, or your last decision "
                     "drew or revealed something."),
    "not_over": "The game is not over yet: its hidden information is still secret.",
    "nothing_to_resolve": "There is nothing to resolve now.",
    STALE: "The game has moved on since this page was shown: here is the current position.",
    "malformed": "That move could not be read.",
    "invalid_options": "These game options are not valid.",
    "not_allowed": "That move is not allowed now.",
    # the action queue (engine.queue)
    "queue_phase": "Actions can be queued while planning and during the action phase.",
    "queue_limit": "At most {limit} actions can be queued.",
    "queue_entry": "Queue an action on one of your places, or passing.",
    "queue_not_own": "You can only queue actions on your own places.",
    "queue_not_action": "The {place} is not an action of the action phase, so it cannot be queued.",
    "queue_field": lambda p: f"The {p['place']} has no choice called {', '.join(map(str, p['fields']))}.",
    "queue_choice": "The queued action's {field} is not valid.",
    "queue_after_pass": "Passing ends your round: nothing can be queued after it.",
    "queue_place_twice": "Each place can be used once a round: it is already in your queue.",
    "queue_empty": "Nothing is queued.",
    "queue_not_turn": "The queue waits for your turn in the action phase.",
    "queue_choice_open": "Your queue waits at “{entry}”: choose how to use it.",
    "queue_not_playable": lambda p: (f"Your queue stopped at “{p['entry']}”: it could not be played when your "
                                     f"turn came, so the rest was dropped. "
                                     f"{render(p.get('why', 'not_allowed'), p.get('why_params') or {})}"),
    "queue_choice_illegal": lambda p: (f"Your queue waits at “{p['entry']}”: that choice is not possible now, so "
                                       f"choose how to use it. "
                                       f"{render(p.get('why', 'not_allowed'), p.get('why_params') or {})}"),
    "queue_answer_changed": lambda p: ("Your queue's answer for the " + {"technology": "technology tile",
                                       "bathhouse": "Bathhouse", "harvest": "Harvest"}.get(p.get("prompt"), "prompt")
                                       + " is not possible any more: choose now."),
    "queue_no_harvest": "Food for the Harvest can be queued only in a round whose hourglass tile is the Harvest.",
    "queue_answer_twice": "That is already answered in your queue.",
    "refused": "That is not allowed.",
}


def render(code: str, params: dict | None = None) -> str:
    """The English sentence for refusal ``code`` with ``params`` (ids), e.g.
    ``render("track_end", {"place": "castle", "track": "knight"}) ==
    "The Castle cannot be used: the Knight track is at its last space."``. An unknown code
    gives the generic "That is not allowed."."""
    template = MESSAGES.get(code, MESSAGES["refused"]) if isinstance(code, str) else MESSAGES["refused"]
    try:
        shown = _names(params or {})
        return template(shown) if callable(template) else template.format(**shown)
    except (KeyError, IndexError, ValueError, TypeError):
        return MESSAGES["refused"]


# --- why an action is not legal now -----------------------------------------------------------


def _place_reason(s: dict, seat: int, action: dict):
    """Why a ``place`` is not legal: the tile is not in the market, the place is not the
    player's, a starting follower on the Town Hall (RULES §7.2), a place without circles
    (§11), no free circle left, or no free circle of its type (§8.4, §8.5, §8.6)."""
    from .phases.planning import _planned_on
    from .matching import town_hall_allows
    from . import steps as S

    p = s["players"][seat]
    tile, space = action["follower"], action["space"]
    if tile not in p["market"]:
        return "not_in_market", {"follower": tile}
    if space not in p["places"] and space not in C.BOARD_SPACES:
        return "not_owned", {"place": space}
    if space == "town_hall" and not town_hall_allows(tile):
        return "starting_follower", {"place": space}
    if not C.PLACES[space].circles:
        return "no_circles", {"place": space}  # Herb Garden, School, Gunpowder Tower (RULES §11)
    if len(_planned_on(p, space)) >= len(S.free_circles(p, space)):
        return "no_free_circle", {"place": space}
    return "circle_type", {"place": space, "follower": tile}


def _activate_reason(s: dict, seat: int, action: dict, legal: list[dict]):
    from . import effects as E
    from .places import MOVE_KINDS, place_tile_reason, recruit_reason, route_reason, unusable_reason

    space = action["space"]
    why = unusable_reason(s, seat, space)
    if why is not None:
        return why
    recruit = action.get("recruit")
    if space == "village" and recruit in C.FOLLOWER_NAMES:
        why = recruit_reason(s, seat, recruit)
        if why is None and recruit == "trader" and action.get("place_tile") in C.PLACE_TILES:
            why = place_tile_reason(s, seat, action["place_tile"])  # RULES §6.4
        if why is not None:
            return why[0], {"place": space, "recruit": recruit, **why[1]}
    if action.get("route") in C.ROUTES and space in MOVE_KINDS:
        why = route_reason(s, seat, space, action["route"], action.get("good"))  # RULES §4.3
        if why is not None:
            return why[0], {"place": space, **why[1]}
    if space in ("town_hall", "gunpowder_tower") and "deeds" in action:
        why = _deeds_reason(s, seat, space, action["deeds"])  # RULES §7.2, §14.8
        if why is not None:
            return why
    if space in C.PLACE_TILES:
        choice = {k: v for k, v in action.items() if k not in ("type", "space")}
        why = E.choice_reason(s, seat, C.PLACE_TILES[space].effect, choice)  # RULES §11 Pharmacy, §14.4
        if why is not None:
            return why[0], {"place": space, **why[1]}
    return "choice_not_allowed", {"place": space}


def _deeds_reason(s: dict, seat: int, space: str, deeds: list):
    """Why the Town Hall's / Gunpowder Tower's ``deeds`` list (normalised) is not legal, or
    None (RULES §7.2: a free space of exactly the follower's type, never a starting
    follower; §14.8: the Town Hall sends every follower that can go, the tower holds 2)."""
    from . import steps as S

    p = s["players"][seat]
    source = list(p["spaces"].get("town_hall", [])) if space == "town_hall" else list(p["market"])
    free = S.deed_free_spaces(s)
    for item in deeds:
        tile, deed = item["follower"], item["deed"]
        if tile not in source:
            return (("not_on_space", {"place": space, "follower": tile}) if space == "town_hall"
                    else ("not_in_market", {"follower": tile}))
        source.remove(tile)
        if C.is_starting(tile):
            return "deed_starting", {}
        if deed not in C.DEEDS:
            return None
        if free[deed].get(C.follower_type(tile), 0) <= 0:
            return "deed_full", {"deed": deed, "follower": tile}
        free[deed][C.follower_type(tile)] -= 1
    if space == "gunpowder_tower" and len(deeds) > C.GUNPOWDER_TOWER_SPACES:
        return "tower_two", {}
    if space == "gunpowder_tower" and not deeds:
        return "deeds_none", {}
    if space == "town_hall":
        most = max((len(a) for a in S.deed_assignments(s, p, p["spaces"].get("town_hall", []))), default=0)
        if len(deeds) < most:
            return "deeds_all", {}
    return None


def _technology_reason(s: dict, seat: int, space: str, circle: str):
    """Why a technology tile cannot cover ``circle`` of ``space`` (RULES §8.6, §14.2): not on
    the Town Hall, not on a one-circle place, one per place, never a Monk circle, the first
    on a Farmer circle; ``technology_target`` for a circle the place does not have."""
    p = s["players"][seat]
    if space not in p["places"] and space not in C.BOARD_SPACES:
        return "not_owned", {"place": space}
    circles = C.PLACES[space].circles
    if space == "town_hall":
        return "technology_town_hall", {"place": space}
    if len(circles) < 2:
        return "technology_one_circle", {"place": space}
    if space in p["technology"]:
        return "technology_twice", {"place": space}
    if circle == "monk" and circle in circles:
        return "technology_monk", {"place": space}
    if circle in circles and circle != "farmer" and not p["technology_placed_ever"]:
        return "technology_first_farmer", {"place": space}
    return "technology_target", {"place": space, "circle": circle}


def _bathhouse_reason(s: dict, seat: int, action: dict):
    """Why a follower drawn at the Bathhouse cannot go there (RULES §11 Bathhouse: on an
    empty matching circle of another action space; §7.2 no starting follower on the Town Hall)."""
    from .matching import town_hall_allows

    p = s["players"][seat]
    tile, space = action["follower"], action["space"]
    if tile not in p["prompts"][0]["drawn"]:
        return "not_drawn", {"follower": tile}
    if space == "bathhouse":
        return "bathhouse_itself", {}
    if space not in p["places"] and space not in C.BOARD_SPACES:
        return "not_owned", {"place": space}
    if space == "town_hall" and not town_hall_allows(tile):
        return "starting_follower", {"place": space}
    if not C.PLACES[space].circles:
        return "no_circles", {"place": space}
    if len(p["spaces"].get(space, [])) >= len(C.PLACES[space].circles) - (space in p["technology"]):
        return "no_free_circle", {"place": space}
    return "circle_type", {"place": space, "follower": tile}


def _draw_reason(s: dict, seat: int, action: dict, legal: list[dict]):
    """Why a ``draw`` of that many is not legal: more than the bag holds, than the market
    has room for (8, 10 with the Gunpowder Tower) or than the Knight track allows less the
    pull-backs (RULES §8.3, §14.5)."""
    from . import steps as S
    from .phases.followers import draw_count

    p = s["players"][seat]
    by_knights = draw_count(p) - p["pulled"]
    by_market = S.market_capacity(p) - len(p["market"])
    by_bag = sum(p["bag"].values())
    most = max(0, min(by_knights, by_market, by_bag))
    if most == by_bag and by_bag < min(by_knights, by_market):
        return "bag_short", {"most": most}
    if by_market < by_knights:
        return "market_full", {"most": max(0, by_market)}
    return "draw_limit", {"most": max(0, by_knights)}


def reason(s: dict, seat: int, action: dict, legal: list[dict]):
    """``(code, params)``: why the normalised ``action`` is not among ``legal`` for ``seat``
    (the rule each code stands for is cited where it is found; ``not_allowed`` if none)."""
    t = action["type"]
    space = action.get("space")
    if space is not None and space not in C.PLACES:
        return "unknown_place", {"place": space}
    follower = action.get("follower")
    if follower is not None and follower not in C.ALL_FOLLOWER_TILES:
        return "unknown_follower", {"follower": follower}
    if t == "place":
        return _place_reason(s, seat, action)
    if t == "activate":
        return _activate_reason(s, seat, action, legal)
    if t == "draw":
        return _draw_reason(s, seat, action, legal)
    if t == "pull_back":
        if follower not in s["players"][seat]["spaces"].get(space, []):
            return "not_on_space", {"place": space, "follower": follower}
        from .phases.followers import draw_count

        if draw_count(s["players"][seat]) - s["players"][seat]["pulled"] <= 0:
            return "no_draw_left", {}  # RULES §8.3, §14.5: each pull-back replaces one draw
        return _draw_reason(s, seat, {"type": "draw", "count": 1}, legal)
    if t == "unplace":
        return "not_on_space", {"place": space, "follower": follower}
    if t == "bathhouse_place":
        return _bathhouse_reason(s, seat, action)
    if t == "place_technology":
        return _technology_reason(s, seat, space, action["circle"])
    if t == "torture":
        p = s["players"][seat]
        if action["item"] == "development" and p["development"] > 0:
            return "torture_development", {}  # RULES §14.3
        if action["item"] == "follower" and sum(p["bag"].values()) > 0:
            return "torture_follower", {}  # RULES §10.1: a starting follower drawn is put back
        return "torture_item", {"item": action["item"]}
    if t == "return_food":
        return "food_choice", {"food": s["players"][seat]["prompts"][0]["food"]}
    return "not_allowed", {}


def illegal(s: dict, seat: int, action: dict, legal: list[dict]) -> IllegalAction:
    """The :class:`IllegalAction` for ``action`` (normalised), with its code, params and
    sentence; its developer text names the action, seat, round and phase."""
    code, params = reason(s, seat, action, legal)
    err = IllegalAction("", code=code, params=params)
    where = f"(seat {seat}, round {s['round']}, {s['phase']})"
    err.args = (f"{action!r} {where}: {err.message}",)
    return err
