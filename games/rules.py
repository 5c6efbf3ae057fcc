"""The seam between the site and a rules engine: a protocol, a registry, a version pin.

The site never imports a rules engine's API directly: it asks ``engine_for(game)`` (or
``engine_named(rules)`` before a game exists) and calls the ``RulesEngine`` it gets. The
registry is keyed by ``Game.rules``; ``"orleans"`` is the ``engine`` package. Tests
register their fake engine here (``register(..., default=True)``) instead of patching.

A started game is pinned to the engine that made its state: the registered engine must
declare itself compatible with ``Game.engine_version`` (its compatibility table,
``loads_version``), else loading it is refused with ``EngineVersionMismatch`` and the game "needs repair".

``load_game(game)`` is how the site reads a started game: every way its stored state can
fail to load becomes one ``GameDamaged`` error, reported to the operators (an ERROR log
record, mailed to ``ADMINS``) at most once per game per ``DAMAGE_REPORT_SECONDS``.
"""
from __future__ import annotations

import logging
from typing import Any, Protocol

from django.core.cache import cache

import engine as orleans
from games.errors import EngineVersionMismatch, GameDamaged, ServiceError, UnknownRules
from games.vocabulary import remember

#: Where damaged games are reported (settings.LOGGING mails its ERRORs to ``ADMINS``).
damage_log = logging.getLogger("games.damaged")
#: A damaged game is reported again at most this often (a poll loop must not flood).
DAMAGE_REPORT_SECONDS = 3600


class QueueRules(Protocol):
    """The action queue's rules (``engine.queue``): a seat's list of moves played on its turns.

    Entries are JSON dicts as the site stores them; the queue's round stays with the site.
    """

    QUEUE_LIMIT: int

    def check_queue(self, state: Any, seat: int, entries: Any, limit: int = ...) -> list[dict]:
        """The checked, normalised queue; raises ``QueueRefused`` (code, params, message)."""

    def queue_after_move(self, entries: list, action: Any) -> list:
        """The queue after the seat's own move, by hand or queued."""

    def next_queued(self, state: Any, seat: int, entries: list) -> tuple[str, Any]:
        """``("play", action)``, ``("wait", reason)`` or ``("drop", reason)``; a reason is
        ``{"code", "params", "message"}``."""

    # optional: queue_options(state, seat) -> [{"group", "entry", "label", "gives"}, and
    # optionally "place", "label_message", "gives_message"], what the queue panel offers
    # (``selectors.queue_options_for_seat`` asks it when the rules have it)


class RulesEngine(Protocol):
    """What the site uses of a rules engine (the ``engine`` package is one).

    States are opaque values; seats are ints 0..n-1; actions and views are JSON-safe dicts.
    Every rule violation raises a subclass of ``RulesError`` (``MalformedAction``,
    ``IllegalAction``, ``NotYourTurn``, ``GameOver``, ``QueueRefused``); bad options
    ``InvalidOptions``. Each carries ``code`` (``STALE`` is the code the site uses for a page
    showing an older position), ``params`` and ``message``: the one sentence a player reads
    (``str(err)`` is developer text and is never shown, see ``player_message``).
    The rules questions the site asks are all answered here: which moves are private steps
    of a simultaneous phase, which are provisional planning steps, the score of a game
    ended early, the part of the game a decision belongs to, and the action queue.
    """

    ENGINE_VERSION: str
    STALE: str

    def loads_version(self, version: str) -> bool:
        """True if a game started with engine ``version`` may be loaded: the version is in
        the engine's compatibility table."""

    GameOptions: Any  # .from_dict(dict) -> options, .to_dict() -> dict
    InvalidOptions: type[Exception]
    RulesError: type[Exception]
    MalformedAction: type[Exception]
    IllegalAction: type[Exception]
    NotYourTurn: type[Exception]
    GameOver: type[Exception]
    QueueRefused: type[Exception]
    queue: QueueRules

    def new_game(self, options: Any, seed: int) -> Any: ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...
    def awaiting(self, state: Any) -> dict[int, str]: ...
    def legal_actions(self, state: Any, seat: int) -> list[dict]: ...
    def apply(self, state: Any, seat: int, action: dict) -> tuple[Any, list[dict]]: ...
    def needs_resolution(self, state: Any) -> bool: ...
    def resolve(self, state: Any) -> tuple[Any, list[dict]]: ...
    def view(self, state: Any, seat: int | None, *, reveal: bool = False) -> dict:
        """The seat's view; ``reveal``: full information, allowed only once the game is over
        (or for the steps of ``replay_steps(..., reveal=True)``)."""

    def plan_circles(self, state: Any, seat: int, place_id: str, placing: str | None = None) -> list[dict] | None:
        """``view(state, seat)["players"][seat]["plan_circles"].get(place_id)``, built alone
        (the planning board asks it per target); ``placing``: as it would be after the
        legal placement of that follower there, without applying it."""

    def replay_steps(self, options: Any, seed: int, log: Any, *, reveal: bool = False, ended: bool = False) -> Any:
        """Every position of ``log`` (``(seat, action)`` pairs, seat None: a resolve step):
        step objects with ``number``, ``seat``, ``action``, ``state``, ``events``; step 0 is
        the position after setup."""

    def outcome(self, state: Any) -> dict | None: ...
    def describe_action(self, action: dict, state: Any = None, seat: int | None = None) -> str: ...
    def is_over(self, state: Any) -> bool: ...
    def timeout_action(self, state: Any, seat: int) -> dict | None: ...

    def is_private_step(self, action: Any) -> bool:
        """True if ``action`` (dict or type) changes only the acting seat's own situation in
        a simultaneous phase: another seat's such move does not make a page stale."""

    def is_provisional(self, action: Any) -> bool:
        """True if ``action`` is a provisional planning step: not a decision for the clock."""

    def score(self, state: Any) -> dict:
        """The outcome as it stands (``outcome``'s shape) plus ``ended_early``."""

    def game_part(self, state: Any) -> tuple[int, str]:
        """``(round, phase)``: the part of the game a decision belongs to."""

    UNDO: dict  # the log entry of a take-back: (seat, UNDO) replays as undo(state, seat)

    def undoable(self, state: Any, seat: int) -> bool:
        """True if ``seat`` may take back its last decision now (nothing drawn or revealed,
        no other seat acted since)."""

    def undo(self, state: Any, seat: int) -> Any:
        """The state before ``seat``'s last decision, exactly; ``IllegalAction`` if not undoable."""

    def is_undo(self, action: Any) -> bool:
        """True if a log entry's ``action`` is ``UNDO``."""

    def undo_event(self, seat: int) -> dict:
        """The public event a take-back by ``seat`` records."""


#: Fields an event gained when events got message ids (``engine.messages``); a move stored
#: before has the same events without them.
MESSAGE_FIELDS = ("msg", "params")


def as_recorded(replayed: list, recorded: Any) -> list:
    """``replayed`` events in the shape of the ``recorded`` ones they are checked against:
    an event recorded without a message id is compared without ``msg`` and ``params`` (its
    ``text`` and every other field still must match). ``recorded`` of another length, or
    not a list, leaves ``replayed`` as it is (they differ anyway)."""
    if not isinstance(recorded, list) or len(recorded) != len(replayed):
        return list(replayed)
    return [{k: v for k, v in event.items() if k not in MESSAGE_FIELDS}
            if isinstance(event, dict) and isinstance(old, dict) and "msg" not in old else event
            for event, old in zip(replayed, recorded, strict=True)]


def replay_entry(rules_engine: RulesEngine, state: Any, seat: int | None, action: Any) -> tuple[Any, list]:
    """``(state, events)`` after one stored log entry, as it was played: a resolve step
    (``seat`` None), a take-back (``is_undo(action)``: the engine's ``undo`` and its
    ``undo_event``) or an action. The one dispatch every site replay of a stored log uses
    (``games.integrity``, ``games.services.imports``); raises what the engine raises."""
    if seat is None:
        return rules_engine.resolve(state)
    if rules_engine.is_undo(action):
        return rules_engine.undo(state, seat), [rules_engine.undo_event(seat)]
    return rules_engine.apply(state, seat, action)


#: Rules name (``Game.rules``) -> engine.
REGISTRY: dict[str, RulesEngine] = {"orleans": orleans}
#: The rules new games get unless they name others.
DEFAULT_RULES = "orleans"
_default = [DEFAULT_RULES]


def register(name: str, rules_engine: RulesEngine, *, default: bool = False) -> None:
    """Register ``rules_engine`` as ``name``; ``default``: new games get these rules."""
    REGISTRY[name] = rules_engine
    if default:
        _default[0] = name


def unregister(name: str) -> None:
    """Remove ``name`` (``orleans`` stays); new games get ``DEFAULT_RULES`` again if
    ``name`` was the default."""
    if name != DEFAULT_RULES:
        REGISTRY.pop(name, None)
    if _default[0] == name:
        _default[0] = DEFAULT_RULES


def default_rules() -> str:
    """The rules name a new game gets."""
    return _default[0]


def engine_named(name: str) -> RulesEngine:
    """The engine registered as ``name``; raises ``UnknownRules``."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownRules(f"This site cannot play {name!r} games.") from None


def major(version: str) -> str:
    """The major part of an engine version (``"1.2.0"`` -> ``"1"``)."""
    return str(version).split(".")[0]


def engine_for(game, *, has_state: bool | None = None) -> RulesEngine:
    """The engine that plays ``game`` (by ``game.rules``).

    Once the game has a state, the engine must declare itself compatible with
    ``game.engine_version`` (written at the start; its ``loads_version``): a state made by an engine
    version it does not list is refused with ``EngineVersionMismatch`` instead of being
    misread. Raises ``UnknownRules`` too. ``has_state``: whether the game has a stored state,
    given by a caller that read only that flag (the lean poll); None: look at ``game.state``.
    """
    rules_engine = engine_named(game.rules)
    if has_state is None:
        has_state = game.state is not None
    if has_state and game.engine_version and not rules_engine.loads_version(game.engine_version):
        raise EngineVersionMismatch(
            f"This game was played with {game.rules} rules version {game.engine_version}, which this "
            f"site (version {rules_engine.ENGINE_VERSION}) cannot load."
        )
    return rules_engine


def report_damaged(damage: GameDamaged) -> bool:
    """Log ``damage`` as an ERROR on ``games.damaged`` (game id and reason), unless the same
    game was reported in the last ``DAMAGE_REPORT_SECONDS`` (a cache key; a cache that is
    down reports again rather than never). True if it was logged now."""
    if not cache.add(f"games:damaged:{damage.game_id}", 1, DAMAGE_REPORT_SECONDS):
        return False
    damage_log.error("Game %s needs repair: %s", damage.game_id, damage.reason,
                     extra={"game_id": str(damage.game_id)})
    return True


def _engine(game, has_state: bool | None = None) -> RulesEngine:
    if has_state is None:
        has_state = game.state is not None
    if not has_state:
        raise GameDamaged(game.pk, f"the game is {game.status} but has no snapshot",
                          game_name=game.name)
    try:
        return engine_for(game, has_state=True)
    except ServiceError as exc:  # UnknownRules, EngineVersionMismatch
        raise GameDamaged(game.pk, f"cannot be loaded: {exc}", game_name=game.name) from exc


#: States loaded lately (parsed, or kept by a store): ``(game id, Game.state_stamp)`` ->
#: ``(snapshot, state)`` (``keep_loaded``); per process, bounded (``_LOADED_MOST`` games).
_LOADED: dict[tuple, tuple[Any, Any]] = {}
_LOADED_MOST = 128


def keep_loaded(game, state: Any) -> None:
    """Remember ``state`` as what ``game``'s snapshot (``game.state``, with its
    ``state_stamp`` set) loads as. A later ``load_game`` of a row with that stamp and an
    equal snapshot (the next request's: the next move's lock, a poll, a reload) takes it
    instead of parsing the snapshot again (about 0.14 ms at move 250). A load does not
    depend on the snapshot's key order (the engine's ``from_json``), so a state a store
    wrote serves a row the database gives back. States are never changed in place (the
    engine's contract)."""
    stamp = game.__dict__.get("state_stamp")
    if stamp and game.state is not None:
        remember(_LOADED, (game.pk, stamp), (game.state, state), _LOADED_MOST)
        if stamp_matches_state(game):
            remember(_NEWEST, game.pk, (stamp, game.state, state), _LOADED_MOST)


def pair_stamp_with_state(game) -> None:
    """Mark ``game``'s ``state`` and ``state_stamp`` as one pair: read by one statement
    (``services.locks._lock_game``) or the stamp computed from the snapshot
    (``services.store``). Only such a pair is trusted by ``kept_snapshot``."""
    game._stamp_of_state = (game.__dict__.get("state"), game.__dict__.get("state_stamp"))


def stamp_matches_state(game) -> bool:
    """True if ``game``'s ``state`` and ``state_stamp`` are still the pair
    ``pair_stamp_with_state`` marked (a row read in two statements, e.g. its stamp first and
    its snapshot later on access, may pair a stamp with another version's snapshot)."""
    pair = game.__dict__.get("_stamp_of_state")
    return pair is not None and pair[0] is game.__dict__.get("state") and pair[1] == game.__dict__.get("state_stamp")


#: Game id -> ``(stamp, snapshot, state)`` of the state of it this process kept last from a
#: trusted pair (``keep_loaded`` of a game whose ``stamp_matches_state``); apart from
#: ``_LOADED``, where any load is kept and checked against its snapshot on use.
_NEWEST: dict[Any, tuple[str, dict, Any]] = {}


def kept_snapshot(game_id) -> tuple[str, dict] | None:
    """``(state_stamp, snapshot)`` of the newest state of the game (``game_id``: its UUID)
    this process keeps a load of, from a snapshot and stamp known to belong together, or
    None: a read of the game's row whose stamp is that one need not read the snapshot
    (``services.locks._lock_game``); ``load_game`` then takes the kept state. A stamp is
    the digest of its snapshot (``Game.state_stamp``)."""
    kept = _NEWEST.get(game_id)
    return (kept[0], kept[1]) if kept is not None else None


def stored_forms(rules_engine: RulesEngine, state: Any) -> tuple[dict, Any | None]:
    """``(snapshot, load)`` of ``state`` for a store: the snapshot it writes and the state a
    load of that snapshot gives, for ``keep_loaded`` once the snapshot's stamp is set (the
    answer drawn after the write then parses nothing). With the engine's ``stored_forms``
    neither is a copy (the snapshot is the state's own data: never change it in place); an
    engine without it gives ``to_json`` (a copy) and None (the answer parses it)."""
    forms = getattr(rules_engine, "stored_forms", None)
    return forms(state) if forms is not None else (rules_engine.to_json(state), None)


def _kept(game) -> Any | None:
    # the state kept for this very snapshot (a store's, or the lock's kept one), or the one
    # keep_loaded kept for an equal one: its stamp and its content must both match (a
    # snapshot changed in memory and not saved keeps its old stamp)
    stamp = game.__dict__.get("state_stamp")
    newest = _NEWEST.get(game.pk) if stamp else None
    if newest is not None and newest[1] is game.state and newest[0] == stamp:
        return newest[2]
    kept = _LOADED.get((game.pk, stamp)) if stamp else None
    if kept is not None and kept[0] == game.state:
        return kept[1]
    return None


def _load(game) -> tuple[RulesEngine, Any]:
    rules_engine = _engine(game)
    kept = _kept(game)
    if kept is not None:
        return rules_engine, kept
    try:
        state = rules_engine.from_json(game.state)
        keep_loaded(game, state)
        return rules_engine, state
    # the engine's SchemaError is a RulesError; a hand-edited snapshot can fail anywhere
    # while it is read (a missing key, a wrong type)
    except (*rules_errors(), LookupError, TypeError, ValueError, AttributeError) as exc:
        raise GameDamaged(game.pk, f"the stored snapshot cannot be loaded ({type(exc).__name__}: {exc})",
                          game_name=game.name) from exc


def load_game(game) -> tuple[RulesEngine, Any]:
    """``(engine, state)`` of a started ``game`` (a ``Game`` row with ``state``): the one
    way the site reads a stored game state.

    Any failure to load it -- no stored state, unknown rules (``UnknownRules``), an engine
    version the engine is not compatible with (``EngineVersionMismatch``), a snapshot the engine's ``from_json``
    refuses (``SchemaError``) or chokes on (``KeyError``, ``TypeError``, ``ValueError``...)
    -- raises ``GameDamaged`` carrying the operator's reason, after ``report_damaged``.
    Other errors (a database error, a bug elsewhere) pass through unchanged.
    """
    try:
        return _load(game)
    except GameDamaged as damage:
        report_damaged(damage)
        raise


def check_loadable(game, *, has_state: bool | None = None) -> RulesEngine:
    """The cheap part of ``load_game`` (no ``from_json``): ``game`` has a stored state and
    its rules are this site's and its engine version loadable; returns its engine. Raises (and
    reports) ``GameDamaged`` like ``load_game``. For the poll, which does not read the
    state while nothing changed: an engine upgrade that retires a game is still seen.
    ``has_state``: whether a state is stored, for a row read without its snapshot
    (``selectors.game_for_poll``); None: look at ``game.state``."""
    try:
        return _engine(game, has_state)
    except GameDamaged as damage:
        report_damaged(damage)
        raise


def is_damaged(game) -> str | None:
    """The reason ``game`` (started) cannot be loaded, or None; reports nothing (for the
    admin's list column and filter)."""
    try:
        _load(game)
    except GameDamaged as damage:
        return damage.reason
    return None


def rules_errors() -> tuple[type[Exception], ...]:
    """The ``RulesError`` class of every registered engine (for ``except`` clauses)."""
    return tuple({rules_engine.RulesError for rules_engine in REGISTRY.values()})


#: Shown for a refusal that carries no player sentence (never the developer text).
REFUSED = "That is not allowed."


def player_message(exc: Exception) -> str:
    """The sentence a player reads for a refused request ``exc``: a ``RulesError``'s or a
    ``games.errors.ServiceError``'s ``message`` (one sentence naming the blocking
    condition), never the developer text ``str(exc)`` of an engine error; ``REFUSED`` when
    there is none. An engine refusal (``code`` and ``params``) reads in the active language
    (``games.messages.render_refusal``)."""
    from games.messages import render_refusal  # games.messages reads the registry above

    translated = render_refusal(exc) if isinstance(exc, orleans.RulesError) else None
    if translated:
        return translated
    message = getattr(exc, "message", None)
    return message if isinstance(message, str) and message else REFUSED
