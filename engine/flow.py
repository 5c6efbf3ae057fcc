"""The turn structure: who must decide now, the legal actions, applying one, and the
automatic steps in between (RULES §8).

The round is a small state machine declared by ``DECISIONS``: each decision kind names the
function listing its legal actions, and each action type names the function applying it.
Automatic phases (hourglass, census, event resolution, start player) run inside ``apply``
and ``resolve``, so a returned state always waits on a seat, on :func:`resolve`, or is over.

Forced moves are made by the engine: when an awaited seat has exactly one legal action
(for example ``pass`` with nothing ready, or the only item left to give under torture), it
is applied at once and logged like any other.
"""

from __future__ import annotations

from . import content as C
from .errors import GameOver, IllegalAction, MalformedAction, NothingToResolve, NotYourTurn
from .phases import actions_phase, event, followers, planning, round as round_phase, torture
from .state import GameState, clone

# decision kind -> legal(s, seat) -> list[dict]
DECISIONS = {
    "draw": followers.legal,
    "plan": planning.legal,
    "action": actions_phase.legal,
    "torture": torture.options,
    "harvest": event.harvest_legal,
    "technology": actions_phase.technology_legal,
    "bathhouse": actions_phase.bathhouse_legal,
}

# action type -> (decision kind, apply(s, seat, action, ev))
ACTIONS = {
    "pull_back": ("draw", followers.pull_back),
    "draw": ("draw", followers.draw),
    "place": ("plan", planning.place),
    "unplace": ("plan", planning.unplace),
    "submit_plan": ("plan", planning.submit),
    "activate": ("action", actions_phase.activate),
    "pass": ("action", actions_phase.do_pass),
    "torture": ("torture", torture.give),
    "return_food": ("harvest", event.return_food),
    "place_technology": ("technology", actions_phase.place_technology),
    "bathhouse_place": ("bathhouse", actions_phase.bathhouse_place),
    "bathhouse_done": ("bathhouse", actions_phase.bathhouse_done),
}

_STR, _INT, _LIST = (str,), (int,), (list,)
_OPT_STR = (str, type(None))
# action type -> {field: allowed JSON types}; fields not listed are malformed.
FIELDS = {
    "pull_back": {"space": _STR, "follower": _STR},
    "draw": {"count": _INT},
    "place": {"follower": _STR, "space": _STR},
    "unplace": {"follower": _STR, "space": _STR},
    "submit_plan": {"placements": (list, type(None))},
    "activate": {"space": _STR, "recruit": _STR, "place_tile": _STR, "route": _STR, "good": _OPT_STR,
                 "deeds": _LIST, "coins": _INT},
    "pass": {},
    "torture": {"item": _STR, "town": _OPT_STR, "good": _STR, "place": _OPT_STR},
    "return_food": {"food": _LIST},
    "place_technology": {"space": _STR, "circle": _STR},
    "bathhouse_place": {"follower": _STR, "space": _STR},
    "bathhouse_done": {},
}
REQUIRED = {
    "pull_back": ("space", "follower"), "draw": ("count",), "place": ("follower", "space"),
    "unplace": ("follower", "space"), "activate": ("space",), "torture": ("item",), "return_food": ("food",),
    "place_technology": ("space", "circle"), "bathhouse_place": ("follower", "space"),
}
_MOVE_PLACES = ("ship", "wagon", "horse_wagon")


def normalize(action) -> dict:
    """Check an action's shape and return its canonical form (defaults filled, lists sorted).

    Raises :class:`MalformedAction` if it is not a dict with a known ``type`` and fields of
    the right JSON types (see ``docs/engine.md``). Legality is not checked here.
    """
    if not isinstance(action, dict):
        raise MalformedAction(f"an action must be a JSON object, not {type(action).__name__}")
    kind = action.get("type")
    if kind not in FIELDS:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of {sorted(FIELDS)}")
    spec = FIELDS[kind]
    out = {"type": kind}
    for key, value in action.items():
        if key == "type":
            continue
        if key not in spec:
            raise MalformedAction(f"{kind} action has an unknown field {key!r}")
        if not isinstance(value, spec[key]) or isinstance(value, bool):
            raise MalformedAction(f"{kind} field {key!r} has the wrong type: {value!r}")
        out[key] = value
    for key in REQUIRED.get(kind, ()):
        if key not in out:
            raise MalformedAction(f"{kind} action needs the field {key!r}")
    if kind == "activate":
        if out["space"] in _MOVE_PLACES:
            out.setdefault("good", None)
        if "deeds" in out:
            out["deeds"] = _normal_deeds(out["deeds"])
    elif kind == "torture":
        if out["item"] in ("station",):
            out.setdefault("town", None)
        if out["item"] == "technology":
            out.setdefault("place", None)
    elif kind == "return_food":
        if not all(isinstance(g, str) and g in C.FOOD for g in out["food"]):
            raise MalformedAction(f"return_food: every item must be one of {C.FOOD}")
        out["food"] = sorted(out["food"], key=C.FOOD.index)
    elif kind == "submit_plan" and out.get("placements") is not None:
        items = []
        for item in out["placements"]:
            if not (isinstance(item, dict) and set(item) == {"follower", "space"}
                    and all(isinstance(v, str) for v in item.values())):
                raise MalformedAction('submit_plan: each placement must be {"follower": ..., "space": ...}')
            items.append({"follower": item["follower"], "space": item["space"]})
        out["placements"] = items
    if kind == "draw" and out["count"] < 0:
        raise MalformedAction("draw: count must be 0 or more")
    return out


def _normal_deeds(items: list) -> list:
    out = []
    for item in items:
        if not (isinstance(item, dict) and set(item) <= {"follower", "deed", "reward"}
                and {"follower", "deed"} <= set(item) and all(isinstance(v, str) for v in item.values())):
            raise MalformedAction('activate: each deeds item must be {"follower", "deed", "reward"}')
        out.append({"follower": item["follower"], "deed": item["deed"], "reward": item.get("reward", "coins")})
    return sorted(out, key=lambda d: (d["follower"], d["deed"], d["reward"]))


# --- who decides now -----------------------------------------------------------------------


def awaiting_data(s: dict) -> dict[int, str]:
    """Seat -> decision kind for every seat that must act now (RULES §8)."""
    phase = s["phase"]
    if phase == "over" or s["barrier"]:
        return {}
    out = {}
    if phase == "actions":
        seat = s["turn"]
        if seat is not None:
            p = s["players"][seat]
            out[seat] = p["prompts"][0]["kind"] if p["prompts"] else "action"
        return out
    if phase == "event":
        return {p["seat"]: p["prompts"][0]["kind"] for p in s["players"] if p["prompts"]}
    # planning: census torture first, then draw (in turn order unless simultaneous), then plan
    simultaneous = s["options"]["simultaneous_followers"]
    earlier_drawing = False
    for seat in round_phase.turn_order(s):
        p = s["players"][seat]
        if p["prompts"]:
            out[seat] = p["prompts"][0]["kind"]
        elif p["stage"] == "draw":
            if simultaneous or not earlier_drawing:
                out[seat] = "draw"
        elif p["stage"] == "plan":
            out[seat] = "plan"
        if p["stage"] == "draw":
            earlier_drawing = True
    return out


def legal_data(s: dict, seat: int) -> list[dict]:
    """Legal actions of ``seat`` (empty if it is not awaited)."""
    kind = awaiting_data(s).get(seat)
    if kind is None:
        return []
    return DECISIONS[kind](s, seat)


# --- applying ------------------------------------------------------------------------------


def _check_seat(s: dict, seat) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(s["players"]):
        raise NotYourTurn(f"there is no seat {seat!r} in this {len(s['players'])}-player game")


def apply_data(state: GameState, seat: int, action, auto_resolve: bool = False) -> tuple[GameState, list[dict]]:
    """Validate ``action`` for ``seat`` and return ``(new state, public events)``.

    Raises :class:`GameOver`, :class:`NotYourTurn`, :class:`MalformedAction` or
    :class:`IllegalAction`; ``state`` is never changed.
    """
    s0 = state.data
    if s0["phase"] == "over":
        raise GameOver(f"the game is over; seat {seat} cannot {action!r}")
    _check_seat(s0, seat)
    action = normalize(action)
    kind = awaiting_data(s0).get(seat)
    if kind is None:
        why = "the phase is waiting to be resolved" if s0["barrier"] else "it is not this seat's decision now"
        raise NotYourTurn(f"seat {seat} cannot act in round {s0['round']} ({s0['phase']}): {why}")
    expected_kind, fn = ACTIONS[action["type"]]
    if expected_kind != kind:
        raise IllegalAction(f"seat {seat} must answer a {kind!r} decision now, not {action['type']!r}")
    if action["type"] == "place":
        if not planning.is_legal_place(s0, seat, action):
            raise IllegalAction(explain(s0, seat, action, []))
    elif not (action["type"] == "submit_plan" and action.get("placements") is not None):
        legal = DECISIONS[kind](s0, seat)
        if action not in legal:
            raise IllegalAction(explain(s0, seat, action, legal))
    s = clone(s0)
    ev: list = []
    fn(s, seat, action, ev)
    _log_action(ev, seat, action)
    advance(s, ev, auto_resolve)
    return GameState(s), ev


def _log_action(ev: list, seat: int, action: dict) -> None:
    """Mark the events of a submitted action with the seat (used by the move log)."""
    for item in ev:
        item.setdefault("seat", seat)


def explain(s: dict, seat: int, action: dict, legal: list[dict]) -> str:
    """A precise reason why ``action`` is not legal for ``seat`` now."""
    p = s["players"][seat]
    where = f"(seat {seat}, round {s['round']}, {s['phase']})"
    t = action["type"]
    space = action.get("space")
    if space is not None and space not in C.PLACES:
        return f"{action!r} {where}: there is no action space or place tile {space!r}"
    if t in ("place", "pull_back", "bathhouse_place", "unplace") and action["follower"] not in C.ALL_FOLLOWER_TILES:
        return f"{action!r} {where}: {action['follower']!r} is not a follower"
    if t == "place":
        if action["follower"] not in p["market"]:
            return f"{action!r} {where}: there is no {action['follower']} in your market"
        if space not in p["places"] and space not in C.BOARD_SPACES:
            return f"{action!r} {where}: you do not own the place tile {space}"
        return f"{action!r} {where}: no free circle of {space} takes a {action['follower']}"
    if t == "activate":
        same = [a for a in legal if a.get("space") == space]
        if not same:
            if space in p["places"] or space in C.BOARD_SPACES:
                return f"{action!r} {where}: {space} is not ready or cannot be used now"
            return f"{action!r} {where}: you do not own {space}"
        return f"{action!r} {where}: these choices are not allowed for {space}; allowed: {same!r}"
    if t == "draw":
        most = max(a["count"] for a in legal if a["type"] == "draw")
        return f"{action!r} {where}: you may draw at most {most} now"
    return f"{action!r} {where}: not allowed now; legal actions are {legal!r}"


def advance(s: dict, ev: list, auto_resolve: bool = False) -> None:
    """Run automatic steps and forced moves until a seat must decide (RULES §8).

    With ``auto_resolve`` a completed simultaneous step is resolved at once (simulations);
    otherwise ``s["barrier"]`` is set and :func:`resolve_data` must be called.
    """
    while True:
        phase = s["phase"]
        if phase == "over":
            return
        if s["barrier"]:
            if not auto_resolve:
                return
            _resolve_barrier(s, ev)
            continue
        if phase == "setup":
            round_phase.start_round(s, ev)
            continue
        if _forced_move(s, ev):
            continue
        if phase == "planning":
            if all(p["stage"] == "ready" and not p["prompts"] for p in s["players"]):
                s["barrier"] = True
                continue
            return
        if phase == "actions":
            if s["turn"] is None:
                event.start(s, ev)
                continue
            return
        if phase == "event":
            if any(p["prompts"] for p in s["players"]):
                return
            if s["event_waited"]:
                s["event_waited"] = False
                s["barrier"] = True
                continue
            round_phase.finish_round(s, ev)
            continue
        raise AssertionError(f"unknown phase {phase!r}")  # pragma: no cover


def _forced_move(s: dict, ev: list) -> bool:
    """Apply the only legal action of an awaited seat, if some seat has exactly one."""
    for seat, kind in awaiting_data(s).items():
        p = s["players"][seat]
        if kind == "torture" and torture.forgive_if_nothing_left(s, seat, ev):
            return True
        if kind == "plan" and p["market"]:
            continue  # a non-empty market always has placements or a deliberate submit
        if kind == "action" and actions_phase.has_activation(s, seat):
            continue
        legal = DECISIONS[kind](s, seat)
        if len(legal) == 1:
            action = legal[0]
            sub: list = []
            ACTIONS[action["type"]][1](s, seat, action, sub)
            for item in sub:
                item.setdefault("seat", seat)
                item["forced"] = True
            ev.extend(sub)
            return True
    return False


def _resolve_barrier(s: dict, ev: list) -> None:
    s["barrier"] = False
    if s["phase"] == "planning":
        planning.reveal(s, ev)
        actions_phase.start(s, ev)
    elif s["phase"] == "event":
        round_phase.finish_round(s, ev)
    else:  # pragma: no cover
        raise AssertionError(f"no barrier in phase {s['phase']!r}")


def resolve_data(state: GameState, auto_resolve: bool = False) -> tuple[GameState, list[dict]]:
    """Resolve a completed simultaneous step (all plans in, or all event prompts answered).

    Raises :class:`NothingToResolve` if no step is complete; ``state`` is never changed.
    """
    if not state.data["barrier"]:
        raise NothingToResolve(f"nothing to resolve in round {state.data['round']} ({state.data['phase']})")
    s = clone(state.data)
    ev: list = []
    _resolve_barrier(s, ev)
    advance(s, ev, auto_resolve)
    return GameState(s), ev
