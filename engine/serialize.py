"""JSON (de)serialisation of the state with a schema version.

The state tree is JSON-safe by construction (engine.state), so ``to_json`` is a copy and
``from_json`` checks the schema version and the top-level keys.
"""

from __future__ import annotations

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
    return GameState(clone(data))
