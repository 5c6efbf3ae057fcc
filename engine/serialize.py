"""JSON (de)serialisation of the state with a schema version.

The state tree is JSON-safe by construction (engine.state), so ``to_json`` is a copy and
``from_json`` checks the schema version and the top-level keys, and puts every dict's keys
back in the engine's own order: a store may not keep key order (PostgreSQL's ``jsonb``
sorts keys), and the order of goods, followers, tracks and deeds is what ``legal_actions``
lists and pages show, so a stored game must behave exactly like the live one.
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
    state = clone(data)
    try:
        template = _template(tuple(sorted(data["options"].items())))
    except (RulesError, TypeError, ValueError, AttributeError):  # options it cannot set up: keep the stored order
        template = None
    return GameState(_ordered(state, template) if template is not None else state)


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


def _ordered(value, template):
    """``value`` with each dict's keys in ``template``'s order (keys the template lacks keep
    their order, after the known ones); lists of dicts follow the template's first element."""
    if isinstance(value, dict):
        if not isinstance(template, dict):
            return value
        known = [k for k in template if k in value]
        rest = [k for k in value if k not in template]
        return {k: _ordered(value[k], template.get(k)) for k in known + rest}
    if isinstance(value, list) and isinstance(template, list) and template and isinstance(template[0], dict):
        return [_ordered(item, template[0]) for item in value]
    return value
