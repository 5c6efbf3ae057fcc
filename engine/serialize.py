"""JSON (de)serialisation of the state with a schema version.

The state tree is JSON-safe by construction (engine.state), so ``to_json`` is a copy and
``from_json`` checks the schema version and the top-level keys, and puts every dict's keys
back in the engine's own order: a store may not keep key order (PostgreSQL's ``jsonb``
sorts keys), and the order of goods, followers, tracks and deeds is what ``legal_actions``
lists and pages show, so a stored game must behave exactly like the live one. The
take-back record is put back in order too (what an undo restores). The order is worked out
once per option set (a plan of the freshly set-up state), so reading a state back is one
copy and one pass over its dicts.
"""

from __future__ import annotations

from functools import lru_cache

from .errors import RulesError
from .state import SCHEMA_VERSION, GameState, clone

_KEYS = {"schema", "options", "seed", "rng", "round", "phase", "barrier", "event_waited", "start_player", "turn", "event",
         "hourglass", "supply", "removed", "routes", "stations", "deeds", "citizens", "place_tiles", "players"}


class SchemaError(RulesError):
    """The stored state has another schema version or is not a state at all."""


def to_json(state: GameState) -> dict:
    """A JSON-safe dict of the full state (hidden information included: store it, never show it)."""
    return clone(state.data)


def from_json(data: dict) -> GameState:
    """Rebuild a state from :func:`to_json` output. Raises :class:`SchemaError`."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION:
        raise SchemaError(f"not a schema-{SCHEMA_VERSION} Orléans state")
    missing = _KEYS - set(data)
    if missing:
        raise SchemaError(f"state is missing {sorted(missing)}")
    return _in_load_order(clone(data), shared=False)  # a clone: nothing in it was put in order before


def stored_forms(state: GameState) -> tuple[dict, GameState]:
    """``(to_json(state), from_json(to_json(state)))`` without copying: the snapshot to store
    (``state``'s own data) and the state a load of it gives (keys in load order), sharing
    with ``state`` what they do not reorder. For a caller that stores ``state`` and goes on
    with its stored form (a move's answer): neither may be changed in place, as no state
    ever is. Its parts a move left as they were in a load this made are that load's own
    (:func:`_ordered`), so it walks only what changed."""
    return state.data, _in_load_order(state.data, shared=True)


def _in_load_order(data: dict, shared: bool) -> GameState:
    # ``data`` (never changed: new dicts where keys move) in the order from_json gives; the
    # root is new every time (its take-back record is put in after), never kept or taken
    try:
        plan = _plan_for(tuple(sorted(data["options"].items())))
    except (RulesError, TypeError, ValueError, AttributeError):  # options it cannot set up: keep the stored order
        return GameState(data)
    state = _reordered(data, plan, shared)
    if isinstance(state.get("undo"), dict):
        state["undo"] = _ordered_undo(state["undo"], plan, shared)
    return GameState(state)


@lru_cache(maxsize=64)
def _template(options: tuple) -> dict:
    """A freshly set-up state for ``options`` (sorted ``(name, value)`` pairs); its key
    order is the engine's."""
    from .config import GameOptions
    from .flow import advance
    from .setup import new_game_data

    data = new_game_data(GameOptions(**dict(options)), 0)
    advance(data, [])
    return data


@lru_cache(maxsize=64)
def _plan_for(options: tuple) -> tuple:
    """The ordering plan (:func:`_plan`) of :func:`_template` for ``options``."""
    return _plan(_template(options))


def _plan(template) -> tuple | None:
    """What :func:`_ordered` does to a value shaped like ``template``, worked out once:
    ``("dict", keys in order, their set, {key: plan of its value})`` (only values that
    hold dicts get a plan), ``("list", plan of the first element)`` for a list of dicts,
    ``("any",)`` for an empty list (what it will hold is not known: dicts met in it get
    their keys sorted, ``_sorted_keys``), or None (scalars and lists of scalars are kept as
    they are)."""
    if isinstance(template, dict):
        children = {}
        for key, value in template.items():
            child = _plan(value)
            if child is not None:
                children[key] = child
        return ("dict", tuple(template), frozenset(template), children)
    if isinstance(template, list) and template and isinstance(template[0], dict):
        return ("list", _plan(template[0]))
    if isinstance(template, list) and not template:
        return ("any",)
    return None


def _sorted_keys(value):
    # ``value`` with the keys of every dict in it sorted (no template says their order)
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        return [_sorted_keys(item) for item in value]
    return value


def _ordered(value, plan, shared: bool):
    """``value`` (left unchanged: the dicts are new, the rest is shared) with each dict's keys in the plan's template order,
    the keys the template lacks after them, sorted (a bag's followers, a player's action
    spaces: the order never depends on the text it was read from, which PostgreSQL's
    ``jsonb`` does not keep, so a state loaded from its store's snapshot and from the
    database's are alike to the key); lists of dicts follow the template's first element.

    ``shared`` (:func:`stored_forms`): a dict or list this function returned before for the
    same plan (:data:`_IN_ORDER`) is in order already and is returned as it is, and what it
    returns now is kept so: a state applied to a stored load shares with it every part the
    action did not change (``engine.state.work_copy``)."""
    if shared:
        kept = _IN_ORDER.get(id(value))
        if kept is not None and kept[0] is value and kept[1] is plan:
            return value
    out = _reordered(value, plan, shared)
    if shared and out is not value and isinstance(out, (dict, list)):
        if len(_IN_ORDER) >= _IN_ORDER_MOST:
            _IN_ORDER.clear()
        _IN_ORDER[id(out)] = (out, plan)  # kept with it: its id is no other value's while the entry lives
    return out


def _reordered(value, plan, shared: bool):
    # :func:`_ordered`'s walk: a new dict or list (a scalar, or a list of scalars, as it is)
    if plan[0] == "list":
        return [_ordered(item, plan[1], shared) for item in value] if isinstance(value, list) else value
    if plan[0] == "any":
        return _sorted_keys(value)
    if not isinstance(value, dict):
        return value
    _kind, keys, known, children = plan
    out = {k: value[k] for k in keys if k in value}
    if len(out) != len(value):
        for k in sorted(k for k in value if k not in known):
            out[k] = _sorted_keys(value[k])
    for k, child in children.items():
        if k in out:
            out[k] = _ordered(out[k], child, shared)
    return out


#: id of a dict or list :func:`_ordered` returned for a store's load -> (that value, its
#: plan): values known to be in order. States are never changed in place, so neither are
#: these. At most ``_IN_ORDER_MOST`` entries (a few hundred moves' changed parts, about
#: 2 MB), emptied when full: the next load then walks its whole tree once.
_IN_ORDER: dict = {}
_IN_ORDER_MOST = 8192


#: The take-back record's keys in the engine's order (engine.undo.record).
_UNDO_KEYS = ("seat", "changed", "players", "added", "prior")


def _ordered_undo(record: dict, plan: tuple, shared: bool) -> dict:
    """The take-back record (engine.undo) in the engine's order: what it restores (top-level
    values, whole players) put back in the template's order too, and its earlier records."""
    out = {k: record[k] for k in _UNDO_KEYS if k in record}
    out.update((k, v) for k, v in record.items() if k not in out)
    if isinstance(out.get("changed"), dict):
        out["changed"] = _ordered(out["changed"], plan, shared)
    player_plan = plan[3].get("players")
    if isinstance(out.get("players"), list) and player_plan is not None:
        out["players"] = [[pair[0], _ordered(pair[1], player_plan[1], shared)] if isinstance(pair, list) and len(pair) == 2
                          else pair for pair in out["players"]]
    if isinstance(out.get("prior"), dict):
        out["prior"] = _ordered_undo(out["prior"], plan, shared)
    return out
