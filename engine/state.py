"""The game state: one JSON-safe tree of dicts, lists, strings, ints and bools.

:class:`GameState` wraps that tree. The engine never changes a state it has returned: every
``apply`` works on a copy and wraps the result in a new ``GameState``: :func:`work_copy`
copies only the parts an action may change (its seat's player, the containers it names)
and shares the rest with the input, which is safe because no returned tree is ever
changed; :func:`own_all` copies the rest before a step that may change anything (a phase
change, another seat's forced move). The tree holds only JSON types with string keys, so
serialisation is exact (``engine.serialize``).
"""

from __future__ import annotations

import marshal

SCHEMA_VERSION = 1


def clone(data: dict) -> dict:
    """Deep copy of a JSON-safe state tree (marshal is the fastest exact copy in the stdlib)."""
    return marshal.loads(marshal.dumps(data))


class GameState:
    """An immutable-by-convention game state.

    ``data`` is the JSON-safe tree described in ``docs/engine.md``. Read it through the
    engine's functions (``awaiting``, ``view``, ``outcome``); do not modify it.
    """

    __slots__ = ("data", "revealable", "awaited", "settled")

    def __init__(self, data: dict):
        self.data = data
        # set by history.replay_steps(reveal=True) on the steps of a log that ends the game:
        # such a state may be viewed with full information (engine.view(..., reveal=True))
        self.revealable = False
        # who must decide now, worked out once (engine.flow.awaiting_state): ``data`` never changes
        self.awaited = None
        # True once engine.flow.advance has run on ``data`` (a state apply, resolve or new_game
        # returned): no forced move is left in it (a tree from elsewhere may hold one)
        self.settled = False

    def __eq__(self, other):
        return isinstance(other, GameState) and self.data == other.data

    def __hash__(self):  # pragma: no cover - states are not meant as dict keys
        raise TypeError("GameState is not hashable")

    def __repr__(self):
        d = self.data
        return f"<GameState round={d['round']} phase={d['phase']} players={len(d['players'])}>"

    @property
    def round(self) -> int:
        """Current round, 1–18 (0 before the first hourglass reveal)."""
        return self.data["round"]

    @property
    def phase(self) -> str:
        """``"planning"`` (followers and planning), ``"actions"``, ``"event"`` or ``"over"``."""
        return self.data["phase"]

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.data["players"])


# --- the working copy of apply: copy what an action changes, share the rest ---------------

#: A player's keys whose value is a dict or a list of scalars (one C-level copy each).
_FLAT_PLAYER_PARTS = ("goods", "tracks", "bag", "development_coins", "market", "technology", "places", "drawn")
#: Every container of a player: the flat ones, ``spaces`` (a dict of lists), ``plan`` (a list
#: of pairs) and ``prompts`` (any JSON).
PLAYER_PARTS = _FLAT_PLAYER_PARTS + ("spaces", "plan", "prompts")
#: A player's keys in the order engine.setup builds them (copies keep it): the cheap first
#: test of :func:`_engine_player`.
_PLAYER_KEY_ORDER = ["seat", "coins", "goods", "tracks", "development", "development_coins", "citizens",
                     "stations_left", "merchant", "bag", "market", "spaces", "technology", "technology_pending",
                     "technology_placed_ever", "places", "plan", "stage", "pulled", "drawn", "passed", "tower_used",
                     "prompts"]
_PLAYER_KEYS = frozenset(_PLAYER_KEY_ORDER)
assert _PLAYER_KEYS >= frozenset(PLAYER_PARTS) and len(_PLAYER_KEY_ORDER) == len(_PLAYER_KEYS)


def _engine_player(p: dict) -> bool:
    """True if the player tree ``p`` has exactly the engine's keys (:data:`_PLAYER_KEYS`): a
    list comparison in the usual order, else a comparison as sets."""
    return list(p) == _PLAYER_KEY_ORDER or p.keys() == _PLAYER_KEYS


def _copy_part(key: str, value):
    if key == "spaces":
        return _copy_spaces(value)
    if key == "plan":
        return _copy_plan(value)
    if key == "prompts":
        return clone(value) if value else []
    return value.copy()


def _copy_spaces(spaces: dict) -> dict:
    out = {}
    for place, tiles in spaces.items():  # plain loops: cheaper than comprehensions for these few items
        out[place] = tiles[:]
    return out


def _copy_plan(plan: list) -> list:
    out = []
    for pair in plan:
        out.append(pair[:])
    return out


def copy_player(p: dict, parts=None) -> dict:
    """Copy of one player's tree: a new top level (scalars are immutable) with deep copies of
    the containers named in ``parts`` (keys of :data:`PLAYER_PARTS`; None: all of them, a
    deep copy about three times faster than :func:`clone`) and the others shared with ``p``.
    A player with any key outside the engine's own shape is copied whole by :func:`clone`,
    so the result never shares a container with ``p`` then."""
    if not _engine_player(p):
        return clone(p)
    q = p.copy()
    if parts is None:
        for key in _FLAT_PLAYER_PARTS:
            q[key] = p[key].copy()
        q["spaces"] = _copy_spaces(p["spaces"])
        q["plan"] = _copy_plan(p["plan"])
        q["prompts"] = clone(p["prompts"]) if p["prompts"] else []
    else:
        for key in parts:
            q[key] = _copy_part(key, p[key])
    return q


#: How deep the top-level containers nest (1: a dict or list of scalars; 2: of flat
#: containers or scalars; 3: one level more): copied by :func:`copy_container` in Python,
#: faster than a marshal round trip for parts this small.
CONTAINER_DEPTH = {"options": 1, "rng": 1, "hourglass": 1, "citizens": 1, "supply": 2, "removed": 2, "routes": 2,
                   "stations": 2, "deeds": 3, "place_tiles": 3}


def copy_container(key: str, value):
    """Deep copy of the top-level container ``value`` stored under ``key`` (its shape from
    :data:`CONTAINER_DEPTH`; any other key by :func:`clone`)."""
    depth = CONTAINER_DEPTH.get(key)
    return clone(value) if depth is None else _copy_nested(value, depth)


def _copy_nested(value, depth: int):
    if depth == 1:
        return value.copy()
    # plain loops: cheaper than comprehensions for containers this small
    if depth == 2:  # the leaves copied inline: most containers here are this deep
        if type(value) is dict:
            out = {}
            for k, v in value.items():
                out[k] = v.copy() if type(v) in _CONTAINERS else v
            return out
        copied = []
        for v in value:
            copied.append(v.copy() if type(v) in _CONTAINERS else v)
        return copied
    depth -= 1
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            out[k] = _copy_nested(v, depth) if type(v) in _CONTAINERS else v
        return out
    copied = []
    for v in value:
        copied.append(_copy_nested(v, depth) if type(v) in _CONTAINERS else v)
    return copied


_CONTAINERS = (dict, list)


def work_copy(data: dict, seat: int, keys, parts=None) -> dict:
    """The tree ``apply`` changes in place for ``seat``'s action on ``data``.

    A new top level (scalars are immutable; the take-back record ``undo`` is left out) and a
    new ``players`` list; ``seat``'s player (its containers named in ``parts``, all of them
    if None: see :func:`copy_player`) and the top-level containers named in ``keys``
    (e.g. ``("rng",)``) are deep copies, every other container is ``data``'s own object,
    shared. Whoever may change a shared part calls :func:`own_all` first; ``data`` itself is
    never changed."""
    work = data.copy()
    work.pop("undo", None)
    if keys:
        for key in keys:
            work[key] = copy_container(key, data[key])
    players = list(data["players"])
    players[seat] = copy_player(players[seat], parts)
    work["players"] = players
    return work


def own_all(work: dict, base: dict, seat: int | None = None, keys=None, parts=None) -> None:
    """Deep-copy the parts of ``work`` (a :func:`work_copy` of ``base``) still shared with
    ``base``: all of them, so any step may then change ``work`` anywhere, or with ``seat``
    and ``keys`` just that seat's player and those top-level containers (what one seat's
    step changes, as for :func:`work_copy`): of that player the containers named in
    ``parts`` (keys of :data:`PLAYER_PARTS`; None: all of them). Cheap to call again."""
    if keys is None or keys:
        shared = [k for k, v in work.items() if k != "players" and v is base.get(k) and type(v) in _CONTAINERS
                  and (keys is None or k in keys)]
        for key in shared:
            work[key] = copy_container(key, work[key])
    if seat is None:
        parts = None
    players, before = work["players"], base["players"]
    for i, p in enumerate(players):
        if (seat is None or i == seat) and i < len(before):
            b = before[i]
            if p is b:
                players[i] = copy_player(p, parts)
            elif _engine_player(p) and _engine_player(b):  # a part copy (work_copy's parts): own the rest
                for key in PLAYER_PARTS if parts is None else parts:
                    if p[key] is b[key]:
                        p[key] = _copy_part(key, b[key])
