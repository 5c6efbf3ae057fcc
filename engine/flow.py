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

from functools import partial

from .actions import ACTION_SPECS, normalize
from .errors import GameOver, IllegalAction, NothingToResolve, NotYourTurn
from .phases import actions_phase, event, followers, planning, round as round_phase, torture
from .refusals import illegal
from .state import GameState, clone, copy_player, own_all, work_copy
from . import undo

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

_APPLY = {
    "pull_back": followers.pull_back,
    "draw": followers.draw,
    "place": planning.place,
    "unplace": planning.unplace,
    "submit_plan": planning.submit,
    "activate": actions_phase.activate,
    "pass": actions_phase.do_pass,
    "torture": torture.give,
    "pay_debt": torture.pay_whole,
    "return_food": event.return_food,
    "place_technology": actions_phase.place_technology,
    "bathhouse_place": actions_phase.bathhouse_place,
    "bathhouse_done": actions_phase.bathhouse_done,
}
# action type -> (decision kind, apply(s, seat, action, ev)); the kinds come from actions.ACTION_SPECS
ACTIONS = {kind: (ACTION_SPECS[kind].decision, fn) for kind, fn in _APPLY.items()}
assert set(ACTIONS) == set(ACTION_SPECS)

#: The top-level containers the own step of an action type may change besides its seat's
#: player (``apply`` copies just these; tests/engine/test_apply_copies_what_changes.py
#: checks every legal action of random states). Types not listed may change any container
#: but the other seats' players (a seat's step never touches them, as greedy's copy relies on).
_CHANGES = {"place": (), "unplace": (), "submit_plan": (), "pull_back": (), "pass": (), "draw": ("rng",)}
#: The containers of its seat's player the own step of an action type may change besides
#: the player's scalars (``apply`` copies just these of that player, engine.state.copy_player;
#: types not listed may change any). A pass may add a technology prompt (RULES §14.2).
_PLAYER_CHANGES = {"place": ("market", "plan"), "unplace": ("market", "plan"), "submit_plan": ("market", "plan"),
                   "pull_back": ("spaces", "market"), "draw": ("bag", "market", "drawn"), "pass": ("prompts",)}
_EVERY_CONTAINER = ("options", "rng", "hourglass", "supply", "removed", "routes", "stations", "deeds", "citizens",
                    "place_tiles")
#: Containers that only the activation of these places changes (engine.places: the moves
#: take goods off routes, the Town Hall and Gunpowder Tower fill deeds, the Village's
#: trader takes a place tile, the Guildhall builds a station, only the Bathhouse draws;
#: place tiles' effects, engine.effects, touch none of them). No activation changes the
#: options, the hourglass tiles or what is removed from the game (setup, rounds, torture do).
_ONLY_BY_PLACES = {"routes": {"ship", "wagon", "horse_wagon"}, "deeds": {"town_hall", "gunpowder_tower"},
                   "place_tiles": {"village"}, "stations": {"guildhall"}, "rng": {"bathhouse"},
                   "options": (), "hourglass": (), "removed": ()}
_ACTIVATE_CHANGES = {place: tuple(k for k in _EVERY_CONTAINER if place in _ONLY_BY_PLACES.get(k, (place,)))
                     for place in actions_phase.PLACE_RULES}


def _changes(action: dict) -> tuple:
    """The top-level containers ``action``'s own step may change besides its seat's player."""
    if action["type"] == "activate":
        return _ACTIVATE_CHANGES.get(action["space"], _EVERY_CONTAINER)
    return _CHANGES.get(action["type"], _EVERY_CONTAINER)

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
    players = s["players"]
    n, start = len(players), s["start_player"]
    for i in range(n):  # round_phase.turn_order, inline: this runs several times per apply
        seat = (start + i) % n
        p = players[seat]
        stage = p["stage"]
        if p["prompts"]:
            out[seat] = p["prompts"][0]["kind"]
        elif stage == "draw":
            if simultaneous or not earlier_drawing:
                out[seat] = "draw"
        elif stage == "plan":
            out[seat] = "plan"
        if stage == "draw":
            earlier_drawing = True
    return out


def awaiting_state(state: GameState) -> dict[int, str]:
    """:func:`awaiting_data` of ``state``'s tree, worked out once per state (a returned tree
    never changes); the dict is shared: do not change it."""
    awaited = state.awaited
    if awaited is None:
        awaited = state.awaited = awaiting_data(state.data)
    return awaited


def legal_data(s: dict, seat: int, kind: str | None = None) -> list[dict]:
    """Legal actions of ``seat`` (empty if it is not awaited); ``kind``: its decision kind
    in ``s`` if the caller knows it already (``awaiting_data(s)[seat]``)."""
    if kind is None:
        kind = awaiting_data(s).get(seat)
        if kind is None:
            return []
    return DECISIONS[kind](s, seat)


# --- applying ------------------------------------------------------------------------------

#: Decision kinds whose legal function takes ``only`` (the action to check) and then lists
#: just the entries that could equal it, by the same code; the others' lists are short.
_NARROWS = frozenset({"draw", "plan", "action"})


def _narrowed_legal(kind: str, s: dict, seat: int, action: dict) -> list[dict]:
    """The part of ``legal_data(s, seat)`` that could equal ``action``: ``action`` is legal
    exactly when it is in this list (tests/engine/test_validation_equals_the_legal_list.py)."""
    if kind in _NARROWS:
        return DECISIONS[kind](s, seat, action)
    return DECISIONS[kind](s, seat)


#: Planning steps after which :func:`advance` has nothing to do on a settled state (one it
#: left, holding no forced move): a placement or a take-back changes only its seat's market
#: and plan (:data:`_PLAYER_CHANGES`), so every seat's stage and prompts, hence the awaited
#: seats, stay as they were, as does every other seat's forced-move check; its own seat keeps
#: a plan or a market (so no forced move, RULES §8.4, §14.14) and is not ready (so no
#: barrier); its take-back record holds just that player (engine.undo.record_own_step).
#: tests/engine/test_apply_copies_what_changes.py compares the two on random states.
_PROVISIONAL = frozenset({"place", "unplace"})


def _check_seat(s: dict, seat) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(s["players"]):
        raise NotYourTurn(f"there is no seat {seat!r} in this {len(s['players'])}-player game",
                          params={"why": "no_seat"})


def validated(state: GameState, seat: int, action) -> tuple[dict, str]:
    """``action`` normalised and its type, if ``seat`` may make it now: the checks of
    :func:`apply_data`, which makes it (RULES §8: only the awaited decision of the phase, and only a
    legal action of it). Raises :class:`GameOver`, :class:`NotYourTurn`,
    :class:`MalformedAction` or :class:`IllegalAction`."""
    s0 = state.data
    if s0["phase"] == "over":
        raise GameOver(f"the game is over; seat {seat!r} cannot {action!r}")
    if type(seat) is not int or not 0 <= seat < len(s0["players"]):  # a plain int in range needs no more checks
        _check_seat(s0, seat)
    action = normalize(action)
    awaited = state.awaited
    kind = (awaiting_state(state) if awaited is None else awaited).get(seat)
    if kind is None:
        why = "the phase is waiting to be resolved" if s0["barrier"] else "it is not this seat's decision now"
        code = "resolution" if s0["barrier"] else "turn"
        if code == "turn" and s0["phase"] == "actions" and s0["players"][seat]["passed"]:
            code = "passed"  # RULES §8.7: a player who passes takes no more actions this round
        elif code == "turn" and s0["phase"] == "planning" and s0["players"][seat]["stage"] == "ready":
            code = "planned"  # RULES §14.14: a plan is edited until it is submitted; the others still plan
        raise NotYourTurn(f"seat {seat} cannot act in round {s0['round']} ({s0['phase']}): {why}",
                          params={"why": code})
    kind_of = action["type"]
    expected_kind = ACTIONS[kind_of][0]
    if expected_kind != kind:
        raise IllegalAction(f"seat {seat} must answer a {kind!r} decision now, not {kind_of!r}",
                            code="wrong_decision", params={"kind": kind, "type": kind_of})
    if kind_of == "pay_debt":
        pass  # validated item by item while it is applied to the copy (torture.pay_whole)
    elif not (kind_of == "submit_plan" and action.get("placements") is not None):
        if action not in _narrowed_legal(kind, s0, seat, action):
            raise illegal(s0, seat, action, [] if kind_of == "place" else DECISIONS[kind](s0, seat))
    return action, kind_of


def apply_data(state: GameState, seat: int, action) -> tuple[GameState, list[dict]]:
    """Validate ``action`` for ``seat`` and return ``(new state, public events)``.

    Raises :class:`GameOver`, :class:`NotYourTurn`, :class:`MalformedAction` or
    :class:`IllegalAction`; ``state`` is never changed.
    """
    action, kind_of = validated(state, seat, action)
    s0, fn = state.data, ACTIONS[kind_of][1]
    s = work_copy(s0, seat, _changes(action), _PLAYER_CHANGES.get(kind_of))  # the take-back record is not copied
    ev: list = []
    fn(s, seat, action, ev)
    if ev:
        _log_action(ev, seat, action)
    if kind_of in _PROVISIONAL and state.settled:
        awaited = awaiting_state(state)  # advance(s) would change nothing and return this: see _PROVISIONAL
        undo.record_own_step(s0, s, seat)
    else:
        awaited = advance(s, ev, partial(own_all, s, s0))
        undo.record(s0, s, seat)
    return _state(s, awaited), ev


def _state(data: dict, awaited: dict[int, str]) -> GameState:
    """A new state around ``data`` with its awaited seats already worked out (by :func:`advance`)."""
    state = GameState(data)
    state.awaited = awaited
    state.settled = True
    return state


def _log_action(ev: list, seat: int, action: dict) -> None:
    """Mark the events of a submitted action with the seat (used by the move log)."""
    for item in ev:
        item.setdefault("seat", seat)


def _owned(seat=None, keys=None, parts=None) -> None:
    pass


def advance(s: dict, ev: list, own=_owned) -> dict[int, str]:
    """Run automatic steps and forced moves until a seat must decide (RULES §8); return
    :func:`awaiting_data` of the tree it leaves (worked out on the way, so a new
    :class:`GameState` need not work it out again).

    A completed simultaneous step sets ``s["barrier"]``; :func:`resolve_data` resolves it.
    ``own()`` is called before any step that may change more than ``s``'s top-level
    scalars, ``own(seat, keys, parts)`` before a forced move of ``seat`` (the containers
    its action changes, :func:`_changes`, and of its player those named in
    :data:`_PLAYER_CHANGES`, None: all; see :func:`engine.state.own_all`), and for every seat
    before an event that changes only players' scalars (``event.SCALAR_EVENTS``) or the end of
    a round (:data:`_ROUND_END`) what those change: ``s`` may be a
    :func:`engine.state.work_copy` sharing parts with its input. The default does
    nothing, for a tree that is all owned.
    """
    while True:
        phase = s["phase"]
        if phase == "over" or s["barrier"]:
            return {}
        if phase == "setup":
            own()
            round_phase.start_round(s, ev)
            continue
        awaited = _forced_move(s, ev, own)
        if awaited is None:
            continue
        if phase == "planning":
            for p in s["players"]:  # a plain loop: all() over a generator costs more, per planning step
                if p["stage"] != "ready" or p["prompts"]:
                    return awaited
            s["barrier"] = True
            continue
        if phase == "actions":
            if s["turn"] is None:
                if s["event"] in event.SCALAR_EVENTS:
                    for seat in range(len(s["players"])):
                        own(seat, (), ())  # its scalars only (its coins)
                else:
                    own()
                event.start(s, ev)
                continue
            return awaited
        if phase == "event":
            if any(p["prompts"] for p in s["players"]):
                return awaited
            if s["event_waited"]:
                s["event_waited"] = False
                s["barrier"] = True
                continue
            for seat in range(len(s["players"])):  # what the end of the round changes, see _ROUND_END
                own(seat, _ROUND_END if seat == 0 else (), ("prompts",))
            round_phase.finish_round(s, ev)
            continue
        raise AssertionError(f"unknown phase {phase!r}")  # pragma: no cover


#: The containers the end of a round changes (round_phase.finish_round): the next hourglass
#: tile is taken (RULES §8.1), the last game's station-majority citizen (§10.2); of each
#: player, besides its scalars (coins, stage, ...: a new top level), its prompts: the census
#: debt's torture prompt (§8.2, §10.1). Copied in place of the whole tree.
_ROUND_END = ("hourglass", "citizens")

_PASS = {"type": "pass"}


def _forced_move(s: dict, ev: list, own) -> dict[int, str] | None:
    """Apply the only legal action of an awaited seat, if some seat has exactly one
    (``own()`` first: see :func:`advance`), and return None; else return
    :func:`awaiting_data` of ``s``, unchanged."""
    awaited = awaiting_data(s)
    for seat, kind in awaited.items():
        p = s["players"][seat]
        if kind == "torture":
            own(seat, ())  # forgiving drops only that seat's prompt
            if torture.forgive_if_nothing_left(s, seat, ev):
                return None
        if kind == "plan" and (p["market"] or p["plan"]):
            continue  # a non-empty market: placements or a deliberate submit; a plan: take-backs and submit (RULES §8.4, §14.14)
        if kind == "draw" and followers.has_choice(p):
            continue
        if kind == "action":
            if actions_phase.has_activation(s, seat):
                continue
            legal = actions_phase.legal(s, seat, _PASS)  # no activation: the whole list is this pass
        else:
            legal = DECISIONS[kind](s, seat)
        if len(legal) == 1:
            action = legal[0]
            own(seat, _changes(action), _PLAYER_CHANGES.get(action["type"]))
            sub: list = []
            ACTIONS[action["type"]][1](s, seat, action, sub)
            for item in sub:
                item.setdefault("seat", seat)
                item["forced"] = True
            ev.extend(sub)
            return None
    return awaited


def _resolve_barrier(s: dict, ev: list) -> None:
    s["barrier"] = False
    if s["phase"] == "planning":
        planning.reveal(s, ev)
        actions_phase.start(s, ev)
    elif s["phase"] == "event":
        round_phase.finish_round(s, ev)
    else:  # pragma: no cover
        raise AssertionError(f"no barrier in phase {s['phase']!r}")


def resolve_data(state: GameState) -> tuple[GameState, list[dict]]:
    """Resolve a completed simultaneous step (all plans in, or all event prompts answered).

    Raises :class:`NothingToResolve` if no step is complete; ``state`` is never changed.
    """
    s0 = state.data
    if not s0["barrier"]:
        raise NothingToResolve(f"nothing to resolve in round {s0['round']} ({s0['phase']})")
    own = _owned
    if s0["phase"] == "planning":
        # the reveal changes only each seat's spaces (its plan and stage are replaced) and the
        # action phase opens on scalars: copy those, share the rest as apply does
        s = s0.copy()
        s.pop("undo", None)
        s["players"] = [copy_player(p, ("spaces",)) for p in s0["players"]]
        own = partial(own_all, s, s0)
    else:
        s = clone({k: v for k, v in s0.items() if k != "undo"})
    ev: list = []
    _resolve_barrier(s, ev)
    awaited = advance(s, ev, own)
    undo.forget(s)
    return _state(s, awaited), ev
