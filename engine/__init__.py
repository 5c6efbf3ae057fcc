"""The Orléans rules engine: pure Python, standard library only.

Public API (documented with every action's JSON form in ``docs/engine.md``)::

    state = new_game(GameOptions(players=3), seed=42)
    awaiting(state)                    # {seat: decision kind} of every seat that must act now
    legal_actions(state, seat)         # [action dict, ...]; validation uses the same functions
    state, events = apply(state, seat, action)      # new state, public events; input untouched
    if needs_resolution(state): state, events = resolve(state)
    view(state, seat)                  # what that seat may see (seat=None: a spectator)
    view(state, seat, reveal=True)     # everything, once the game is over (finished games' replays)
    plan_circles(state, seat, place)   # one place of view(state, seat)'s plan_circles, built alone
    plan_circles(state, seat, place, placing=follower)   # the same were that legal placement made
    outcome(state)                     # None while playing, then scores and ranking
    to_json(state) / from_json(data)   # exact, schema-versioned
    replay(options, seed, log)         # rebuild from the action log
    replay_steps(options, seed, log)   # every position of the log, with its events (engine.history)
    loads_version(v) / COMPATIBLE_VERSIONS        # which stored engine versions this engine plays
    timeout_action(state, seat)        # the documented default when a seat's time runs out
    score(state)                       # the outcome as it stands (ended early), marked ended_early
    game_part(state)                   # (round, phase): where a timeout's default moves stop
    undoable(state, seat) / undo(state, seat)    # take back one's own last decision(s), exactly
    UNDO / is_undo(action) / undo_event(seat)   # a take-back's log entry (replayed with undo) and event
    is_private_step(a) / is_provisional(a) / activate_choice_fields(place)   # action metadata
    queue.check_queue / queue.next_queued / queue.queue_after_move            # the action queue
    describe_place / describe_event / describe_queue_entry / follower_name / track_rewards
    action_message / queue_entry_message / refusal_structured(code, params)  # {"msg", "params"}
    place_message / event_message / track_reward_messages   # the board's texts, {"msg", "params"}
    messages.CATALOG / messages.render(msg, params, words)  # the English catalog of every message id

Every refusal raises a :class:`RulesError` subclass with ``code``, ``params`` and a player
``message`` (``engine.refusals``) and leaves the state unchanged.
"""

from __future__ import annotations

from . import content
from .config import GameOptions
from .actions import ACTION_SPECS, ActionSpec, activate_choice_fields, is_private_step, is_provisional, normalize
from .describe import (
    action_message, describe_action, describe_event, describe_place, describe_queue_entry, event_name, follower_letter,
    event_message, follower_name, place_message, place_name, queue_entry_message, track_reward_messages, track_rewards,
)
from .errors import (
    GameOver, IllegalAction, InvalidOptions, MalformedAction, NothingToResolve, NotYourTurn, QueueRefused, RulesError,
)
from .flow import DECISIONS, _check_seat, apply_data, awaiting_state, resolve_data, validated
from . import messages
from .refusals import MESSAGES as REFUSAL_MESSAGES, STALE, render as refusal_message, refusal_message as refusal_structured
from .policy import timeout_action
from .scoring import outcome_data, score_data
from .serialize import SchemaError, from_json, stored_forms, to_json
from .setup import new_game_data
from .state import GameState
from .view import plan_circles_data, view_data
from .undo import UNDO, is_undo, undo, undo_event, undoable
from . import queue  # noqa: E402  (engine.queue: the action queue, pure)
from .queue import own_places

from .history import COMPATIBLE_VERSIONS, ENGINE_VERSION, NotOver, ReplayStep, loads_version, replay_steps

__all__ = [
    "ENGINE_VERSION", "GameOptions", "GameState", "RulesError", "InvalidOptions", "MalformedAction",
    "IllegalAction", "NotYourTurn", "GameOver", "NothingToResolve", "SchemaError", "new_game", "awaiting",
    "legal_actions", "apply", "needs_resolution", "resolve", "view", "outcome", "is_over", "to_json",
    "from_json", "stored_forms", "replay", "describe_action", "normalize", "timeout_action", "content",
    "ACTION_SPECS", "ActionSpec", "is_private_step", "is_provisional", "activate_choice_fields",
    "plan_circles", "STALE", "REFUSAL_MESSAGES", "refusal_message", "score", "game_part", "QueueRefused", "queue", "own_places",
    "describe_place", "describe_event", "describe_queue_entry", "event_name", "follower_name", "follower_letter",
    "place_name", "track_rewards", "COMPATIBLE_VERSIONS", "loads_version", "NotOver", "ReplayStep",
    "replay_steps", "undo", "undoable", "UNDO", "is_undo", "undo_event", "messages", "action_message",
    "queue_entry_message", "refusal_structured", "place_message", "event_message", "track_reward_messages",
]


def new_game(options: GameOptions | dict, seed: int) -> GameState:
    """Create a game from ``options`` (a :class:`GameOptions` or its dict) and an int seed.

    Setup follows RULES §3; the returned state already shows round 1's hourglass tile and
    waits for the seats' followers phase. Raises :class:`InvalidOptions`.
    """
    from .flow import _state, advance

    data = new_game_data(options, seed)
    return _state(data, advance(data, []))


def awaiting(state: GameState) -> dict[int, str]:
    """``{seat: decision kind}`` of every seat that must act now.

    Kinds: ``draw`` (followers), ``plan``, ``action``, ``torture``, ``harvest`` (food to
    return), ``technology`` (place a technology tile), ``bathhouse``. Empty when the game is
    over or when a simultaneous step waits for :func:`resolve`.
    """
    return dict(awaiting_state(state))


def legal_actions(state: GameState, seat: int) -> list[dict]:
    """Every legal action of ``seat`` now (empty if it is not awaited).

    Planning lists single placements; a whole plan may also be submitted at once with
    ``{"type": "submit_plan", "placements": [...]}`` and is validated by :func:`apply`.
    """
    kind = awaiting_state(state).get(seat)
    return [] if kind is None else DECISIONS[kind](state.data, seat)  # flow.legal_data, its kind known


def apply(state: GameState, seat: int, action) -> tuple[GameState, list[dict]]:
    """Apply ``action`` for ``seat``; return ``(new state, public events)``.

    Events are dicts with ``kind``, ``seat`` and ``text`` (``{player}`` stands for the
    seat's name). Raises :class:`GameOver`, :class:`NotYourTurn`,
    :class:`MalformedAction` (for any JSON value that is not an action) or
    :class:`IllegalAction`, each with ``code``, ``params`` and a player ``message``;
    ``state`` is never changed.
    """
    return apply_data(state, seat, action)


def needs_resolution(state: GameState) -> bool:
    """True when every awaited seat of a simultaneous step has submitted and
    :func:`resolve` must run (planning reveal, end of the event phase)."""
    return bool(state.data["barrier"])


def resolve(state: GameState) -> tuple[GameState, list[dict]]:
    """Resolve a completed simultaneous step; raises :class:`NothingToResolve` otherwise."""
    return resolve_data(state)


def view(state: GameState, seat: int | None, *, reveal: bool = False) -> dict:
    """JSON-safe view for ``seat`` (``None``: spectator) with hidden information removed.

    ``reveal=True``: every seat's bag, market, draw, plan and prompt shown as to its owner
    (the view's ``revealed`` is True), allowed only for a state that is over or a step of
    ``replay_steps(..., reveal=True)`` (a log that ends the game); else :class:`NotOver`.
    """
    if reveal and not (state.revealable or is_over(state)):
        raise NotOver("view(reveal=True) of a game that is not over")
    return view_data(state.data, seat, reveal)


def plan_circles(state: GameState, seat: int, place_id: str, placing: str | None = None) -> list[dict] | None:
    """The seat's own circles of place ``place_id`` with its plan, as
    ``view(state, seat)["players"][seat]["plan_circles"].get(place_id)`` gives them
    (``[{"tile", "planned", "technology"}, ...]`` per circle; None: nothing stands or is
    planned there), without building the rest of the view (RULES §8.4–§8.6). The seat's
    own information only, as its view. Raises :class:`NotYourTurn` for a seat not in the
    game.

    ``placing``: a follower id; the circles as they would be after the legal placement
    ``{"type": "place", "follower": placing, "space": place_id}`` (a planning board shows
    where each placement it offers would land), equal to ``plan_circles(apply(state, seat,
    placement)[0], seat, place_id)`` without applying it. Raises what :func:`apply` would
    raise for that placement (:class:`GameOver`, :class:`NotYourTurn`,
    :class:`MalformedAction`, :class:`IllegalAction`), checked as it checks."""
    if placing is not None:  # apply's own checks, in its order (its refusal, were the placement made)
        validated(state, seat, {"type": "place", "follower": placing, "space": place_id})
    elif type(seat) is not int or not 0 <= seat < len(state.data["players"]):
        _check_seat(state.data, seat)
    return plan_circles_data(state.data, seat, place_id, placing)


def outcome(state: GameState) -> dict | None:
    """``None`` while playing; then ``{"scores", "ranking", "winners"}`` (RULES §10)."""
    return outcome_data(state.data)


def score(state: GameState) -> dict:
    """The outcome as it stands, for a game ended early (by vote): the same shape as
    :func:`outcome` (``{"scores", "ranking", "winners"}``, RULES §10.3) plus
    ``"ended_early"``: True while the game was not over (False after round 18)."""
    return score_data(state.data)


def game_part(state: GameState) -> tuple[int, str]:
    """Which part of the game a decision belongs to: ``(round, phase)`` (phases as in
    :func:`view`: ``planning`` = followers + planning, ``actions``, ``event``, ``over``).
    A timed-out seat's default actions stop when it changes (RULES §8: the next part of the
    game is a new decision with its own clock)."""
    return state.data["round"], state.data["phase"]


def is_over(state: GameState) -> bool:
    """True once round 18 has ended (RULES §10.2)."""
    return state.data["phase"] == "over"


def replay(options: GameOptions | dict, seed: int, log) -> GameState:
    """Rebuild a state from ``(options, seed)`` and an action log.

    ``log`` is a sequence of ``(seat, action)`` pairs; ``seat`` ``None`` means a
    :func:`resolve` step, the action :data:`UNDO` that seat's :func:`undo`. Raises the same errors as :func:`apply` for a bad log.
    """
    state = None
    for step in replay_steps(options, seed, log):
        state = step.state
    return state
