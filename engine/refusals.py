"""Refusals a player can read: the code of every reason, its English sentence, and the
search for the reason an action is not legal now (RULES: every refusal names its reason).

Every :class:`engine.RulesError` has ``code``, ``params`` (ids, JSON-safe) and ``message``
(one sentence rendered here from the code and params with the game's English names). The
developer text (``str(err)``) also names the action, seat, round and phase.

The English templates are in ``engine.messages.CATALOG`` (``refusal.<code>``);
:func:`refusal_message` gives the message id and params a site translates.
"""

from __future__ import annotations

from . import content as C
from .errors import IllegalAction
from .messages import CATALOG, message, text

#: The code a site uses for a page showing an older position than the game's (the engine
#: itself never raises it; the site's optimistic version check does).
STALE = "stale"

#: Codes whose sentence is "The <place> cannot be used: <reason>." (or "cannot recruit a
#: <follower>" when the params name ``recruit``); the reason is the message ``refusal.<code>``.
CANNOT = frozenset({
    "track_end", "character_supply_empty", "good_unavailable", "technology_unavailable", "place_tile_unavailable",
    "nothing_to_recruit", "pilgrimage", "development_end", "station_present", "no_stations_left", "no_route",
    "no_deed_space", "no_deed_follower", "first_place_tile", "place_tile_taken",
})
#: Codes whose params name another refusal (``why``, ``why_params``), shown after their own.
_NESTED = frozenset({"payment_item", "queue_not_playable", "queue_choice_illegal"})

#: Every refusal code -> its English template (``engine.messages.CATALOG["refusal.<code>"]``;
#: variants ``refusal.<code>.<variant>`` are chosen by :func:`refusal_message`).
MESSAGES: dict[str, str] = {
    key.split(".")[1]: template for key, template in CATALOG.items()
    if key.startswith("refusal.") and key.count(".") == 1 and key not in ("refusal.cannot_use", "refusal.cannot_recruit")
}
assert STALE in MESSAGES


def refusal_message(code: str, params: dict | None = None) -> dict:
    """The structured sentence of refusal ``code`` with ``params`` (ids):
    ``{"msg": "refusal.…", "params": {...}}`` (``engine.messages``), the variant the
    params call for; an unknown code gives ``refusal.refused``."""
    params = dict(params or {})
    if not isinstance(code, str) or code not in MESSAGES:
        return message("refusal.refused")
    if code in _NESTED:
        params["why"] = refusal_message(params.get("why", "not_allowed"), params.pop("why_params", None) or {})
    if code == "queue_answer_changed":
        params.setdefault("prompt", "")  # "the prompt" when the params do not say which
    variant = None
    if code == "station_present" and params.get("own"):
        variant = "own"
    elif code == "not_ready" and params.get("place") == "town_hall":
        variant = "town_hall"
    elif code == "not_your_turn" and f"refusal.not_your_turn.{params.get('why')}" in CATALOG:
        variant = params["why"]  # a reason with a sentence of its own (passed, planned, ...)
    msg = message(f"refusal.{code}" + (f".{variant}" if variant else ""), **params)
    if code in CANNOT:
        outer = {k: params[k] for k in ("place", "recruit") if params.get(k) is not None}
        return message("refusal.cannot_recruit" if "recruit" in outer else "refusal.cannot_use", **outer, why=msg)
    return msg


def render(code: str, params: dict | None = None) -> str:
    """The English sentence for refusal ``code`` with ``params`` (ids), e.g.
    ``render("track_end", {"place": "castle", "track": "knight"}) ==
    "The Castle cannot be used: the Knight track is at its last space."``. An unknown code,
    or params the sentence cannot be made from, give the generic "That is not allowed."."""
    try:
        return text(refusal_message(code, params))
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return CATALOG["refusal.refused"]


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
