"""The actions' schema and metadata: fields, required fields, the decision each answers,
and the two flags the site needs (RULES §8).

``ACTION_SPECS[type]`` is an :class:`ActionSpec`. :func:`normalize` is the decoder every
action passes through before its legality is checked: any JSON value that is not a valid
action raises :class:`MalformedAction`, never another exception.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import content as C
from .errors import MalformedAction
from .places import all_choice_fields, choice_fields

_STR, _INT, _LIST = (str,), (int,), (list,)
_OPT_STR = (str, type(None))


@dataclass(frozen=True)
class ActionSpec:
    """One action type.

    ``fields``: ``{field: allowed JSON types}`` (fields not listed are malformed);
    ``required``: the fields that must be present; ``decision``: the decision kind of
    :func:`engine.awaiting` it answers; ``private_step``: in a simultaneous step it changes
    only the acting seat's own situation (another seat's page showing the position stays
    valid); ``provisional``: a planning step that is not a commitment (freely undone, so it
    costs no clock time; RULES §8.4).
    """

    fields: dict
    required: tuple = ()
    decision: str = ""
    private_step: bool = False
    provisional: bool = False


ACTION_SPECS: dict[str, ActionSpec] = {
    "pull_back": ActionSpec({"space": _STR, "follower": _STR}, ("space", "follower"), "draw", private_step=True),
    "draw": ActionSpec({"count": _INT}, ("count",), "draw", private_step=True),
    "place": ActionSpec({"follower": _STR, "space": _STR}, ("follower", "space"), "plan",
                        private_step=True, provisional=True),
    "unplace": ActionSpec({"follower": _STR, "space": _STR}, ("follower", "space"), "plan",
                          private_step=True, provisional=True),
    "submit_plan": ActionSpec({"placements": (list, type(None))}, (), "plan", private_step=True),
    "activate": ActionSpec({"space": _STR, "recruit": _STR, "place_tile": _STR, "route": _STR, "good": _OPT_STR,
                            "deeds": _LIST, "coins": _INT}, ("space",), "action"),
    "pass": ActionSpec({}, (), "action"),
    "torture": ActionSpec({"item": _STR, "town": _OPT_STR, "good": _STR, "place": _OPT_STR}, ("item",), "torture",
                          private_step=True),
    "pay_debt": ActionSpec({"items": _LIST}, ("items",), "torture", private_step=True),
    "return_food": ActionSpec({"food": _LIST}, ("food",), "harvest", private_step=True),
    "place_technology": ActionSpec({"space": _STR, "circle": _STR}, ("space", "circle"), "technology"),
    "bathhouse_place": ActionSpec({"follower": _STR, "space": _STR}, ("follower", "space"), "bathhouse"),
    "bathhouse_done": ActionSpec({}, (), "bathhouse"),
}
_MOVE_PLACES = ("ship", "wagon", "horse_wagon")


def _type_of(action_or_type) -> str | None:
    kind = action_or_type.get("type") if isinstance(action_or_type, dict) else action_or_type
    return kind if isinstance(kind, str) else None


def is_private_step(action_or_type) -> bool:
    """True if an action (dict) or action type (str) is a private step of a simultaneous
    phase: it changes only the acting seat's own situation (draw, pull_back, place,
    unplace, submit_plan, return_food, torture, pay_debt). False for anything else, unknown included."""
    spec = ACTION_SPECS.get(_type_of(action_or_type))
    return bool(spec and spec.private_step)


def is_provisional(action_or_type) -> bool:
    """True if an action (dict) or action type (str) is a provisional planning step (place,
    unplace): not a decision, so it neither charges the clock nor earns the increment."""
    spec = ACTION_SPECS.get(_type_of(action_or_type))
    return bool(spec and spec.provisional)


def activate_choice_fields(place_id: str | None = None) -> dict[str, tuple]:
    """``{field: allowed values}`` of the scalar ``activate`` choice fields, from the
    component data: for one place (``choice_fields("pharmacy") == {"coins": (1, 2, 3)}``),
    or with ``None`` the union over every place (``recruit``, ``place_tile``, ``route``,
    ``good`` (None allowed), ``coins``). Values are JSON scalars; tuples are ordered."""
    return all_choice_fields() if place_id is None else choice_fields(place_id)


def normalize(action) -> dict:
    """Check an action's shape and return its canonical form (defaults filled, lists sorted).

    Raises :class:`MalformedAction` if it is not a dict with a known ``type`` and fields of
    the right JSON types (see ``docs/engine.md``), whatever JSON value it is. Legality is
    not checked here.
    """
    if not isinstance(action, dict):
        raise _malformed(f"an action must be a JSON object, not {type(action).__name__}", "not_an_object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_SPECS:
        raise _malformed(f"unknown action type {kind!r}; expected one of {sorted(ACTION_SPECS)}", "unknown_type")
    spec = ACTION_SPECS[kind]
    fields = spec.fields
    out = {"type": kind}
    for key, value in action.items():
        allowed = fields.get(key)  # None for any key that is not a field's name ("type" is none)
        if allowed is None or not isinstance(key, str):
            if key == "type":
                continue
            raise _malformed(f"{kind} action has an unknown field {key!r}", "unknown_field")
        if not isinstance(value, allowed) or value is True or value is False:
            raise _malformed(f"{kind} field {key!r} has the wrong type: {value!r}", "wrong_type")
        out[key] = value
    for key in spec.required:
        if key not in out:
            raise _malformed(f"{kind} action needs the field {key!r}", "missing_field")
    normalizer = _NORMALIZERS.get(kind)
    if normalizer is not None:
        normalizer(out)
    return out


def _malformed(text: str, problem: str) -> MalformedAction:
    return MalformedAction(text, params={"problem": problem})


def _normal_activate(out: dict) -> None:
    if out["space"] in _MOVE_PLACES:
        out.setdefault("good", None)
    if "deeds" in out:
        out["deeds"] = _normal_deeds(out["deeds"])


def _normal_torture(out: dict) -> None:
    if out["item"] in ("station",):
        out.setdefault("town", None)
    if out["item"] == "technology":
        out.setdefault("place", None)


#: More items than any debt can reach (the largest is Taxes on every good owned).
PAY_DEBT_MOST_ITEMS = 200


def _normal_pay_debt(out: dict) -> None:
    """Each item is a ``torture`` action without ``type``, normalised the same way; the
    order is kept (items are given in that order, RULES §10.1)."""
    items = out["items"]
    if len(items) > PAY_DEBT_MOST_ITEMS:
        raise _malformed(f"pay_debt: at most {PAY_DEBT_MOST_ITEMS} items", "wrong_type")
    normal = []
    for item in items:
        if not isinstance(item, dict) or "type" in item:
            raise _malformed('pay_debt: each item must be a torture item like {"item": "good", "good": "wool"}',
                             "wrong_type")
        single = normalize({"type": "torture", **item})
        normal.append({k: v for k, v in single.items() if k != "type"})
    out["items"] = normal


def _normal_food(out: dict) -> None:
    if not all(isinstance(g, str) and g in C.FOOD for g in out["food"]):
        raise _malformed(f"return_food: every item must be one of {C.FOOD}", "wrong_type")
    out["food"] = sorted(out["food"], key=C.FOOD.index)


def _normal_plan(out: dict) -> None:
    if out.get("placements") is None:
        return
    items = []
    for item in out["placements"]:
        if not (isinstance(item, dict) and set(item) == {"follower", "space"}
                and all(isinstance(v, str) for v in item.values())):
            raise _malformed('submit_plan: each placement must be {"follower": ..., "space": ...}', "wrong_type")
        items.append({"follower": item["follower"], "space": item["space"]})
    out["placements"] = items


def _normal_draw(out: dict) -> None:
    if out["count"] < 0:
        raise _malformed("draw: count must be 0 or more", "wrong_type")


def _normal_deeds(items: list) -> list:
    out = []
    for item in items:
        if not (isinstance(item, dict) and set(item) <= {"follower", "deed", "reward"}
                and {"follower", "deed"} <= set(item) and all(isinstance(v, str) for v in item.values())):
            raise _malformed('activate: each deeds item must be {"follower", "deed", "reward"}', "wrong_type")
        out.append({"follower": item["follower"], "deed": item["deed"], "reward": item.get("reward", "coins")})
    return sorted(out, key=lambda d: (d["follower"], d["deed"], d["reward"]))


_NORMALIZERS = {
    "activate": _normal_activate,
    "torture": _normal_torture,
    "pay_debt": _normal_pay_debt,
    "return_food": _normal_food,
    "submit_plan": _normal_plan,
    "draw": _normal_draw,
}
