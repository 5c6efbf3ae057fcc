"""The single write path for games.

Every function here is keyword-only, runs in one ``transaction.atomic`` block and locks
the game row with ``select_for_update`` before reading anything it will change, so two
requests for the same game are serialised. Rules are never decided here: the services
call ``engine`` and store what it returns.

Errors a user can cause are ``ServiceError`` subclasses with a message fit to show;
``engine.RulesError`` from ``engine.apply`` passes through unchanged.
"""
from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

import engine
from games import clock
from games.access import check_invite_token
from games.models import Game, GameStatus, Move, Seat

GameId = uuid.UUID | str


class ServiceError(Exception):
    """A request the site refuses; the message is shown to the user."""


class GameNotFound(ServiceError):
    """No game with that id."""


class InvalidGameOptions(ServiceError):
    """The lobby options are not a valid engine configuration."""


class WrongStatus(ServiceError):
    """The game is not in a status that allows this (e.g. joining a started game)."""


class GameFull(ServiceError):
    """Every seat is taken."""


class AlreadySeated(ServiceError):
    """The user already has a seat at this game."""


class InviteRequired(ServiceError):
    """A private game needs a valid invite link to join."""


class NotCreator(ServiceError):
    """Only the game's creator may do this."""


class NotEnoughPlayers(ServiceError):
    """A game needs at least two seated players to start."""


class NotSeated(ServiceError):
    """The user has no seat at this game."""


class NoAbsentPlayer(ServiceError):
    """Ending a game by vote needs an absent player."""


class VacationError(ServiceError):
    """Vacation cannot start (no days left this year)."""


class StaleVersion(ServiceError):
    """The submission was made against an older version of the game."""

    def __init__(self, *, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"The game has moved on since you loaded it (you saw move {expected}, "
            f"it is now at move {actual}). Check the board and try again."
        )


def _lock_game(game_id: GameId) -> Game:
    """Lock and return the game row; must be called inside ``transaction.atomic``."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("No such game.")
    return game


def _require_status(game: Game, status: GameStatus, message: str) -> None:
    if game.status != status:
        raise WrongStatus(message)


def _require_creator(game: Game, user) -> None:
    if game.creator_id != user.pk:
        raise NotCreator("Only the game's creator can do that.")


def _renumber_seats(game: Game, seats: list[Seat]) -> None:
    """Give ``seats`` the orders 0..n-1 in list order, without breaking (game, order) uniqueness."""
    Seat.objects.filter(game=game).update(order=F("order") + 100)
    for order, seat in enumerate(seats):
        seat.order = order
        seat.colour = Seat.COLOURS[order] if game.status == GameStatus.ACTIVE else ""
        seat.save(update_fields=["order", "colour"])


def _users_on_vacation(user_ids) -> set[int]:
    """Which of ``user_ids`` are on vacation now (their clocks do not run)."""
    from notifications.models import Preferences

    return set(Preferences.objects.filter(user_id__in=user_ids, vacation_since__isnull=False)
               .values_list("user_id", flat=True))


def _sync_awaiting(game: Game, state: Any) -> list[Seat]:
    """Copy ``engine.awaiting(state)`` onto the seats (drives "waiting for you" lists) and
    start or stop their clocks.

    Returns the seats that are awaited now and were not before (a change of decision kind
    while still awaited, e.g. draw then plan, does not count); ``awaiting_since`` is set
    when a seat becomes awaited and cleared when it no longer is. In a game with a clock a
    newly awaited seat's clock starts (unless its player is on vacation) and a seat no
    longer awaited has its clock stopped, charged for the time it ran.
    """
    awaited = {} if game.status != GameStatus.ACTIVE else engine.awaiting(state)
    newly_awaited = []
    now = timezone.now()
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    changing = [seat for seat in seats if seat.awaiting != str(awaited.get(seat.order, ""))]
    on_vacation = (_users_on_vacation([s.user_id for s in changing])
                   if changing and clock.has_clock(game) else set())
    for seat in changing:
        kind = str(awaited.get(seat.order, ""))
        if not seat.awaiting:
            newly_awaited.append(seat)
            seat.awaiting_since = now
            if clock.has_clock(game) and seat.user_id not in on_vacation:
                clock.start(seat, now)
        elif not kind:
            seat.awaiting_since = None
            clock.stop(seat, now)
        seat.awaiting = kind
        seat.save(update_fields=["awaiting", "awaiting_since", "bank_seconds",
                                 "clock_started_at", "deadline"])
    return newly_awaited


def _notify(game: Game, *, newly_awaited: list[Seat], started: bool = False,
            finished: bool = False) -> None:
    """Record the emails this change causes (same transaction) and deliver them on commit.

    Caller holds the game row lock and has bumped the version. Turn emails go to the seats
    that became awaited; whether one is sent is decided at delivery, never by whether the
    player has the game page open.
    """
    from games.tasks import enqueue_on_commit
    from notifications.services import record_game_notifications
    from notifications.tasks import deliver_game_notifications_task

    if record_game_notifications(game=game, newly_awaited=newly_awaited, started=started,
                                 finished=finished):
        enqueue_on_commit(deliver_game_notifications_task, str(game.id), game.version)


def _store(game: Game, state: Any, *, seat: int | None, action: dict, events: list,
           timed_out: bool = False, queued: bool = False) -> Move:
    """Append the move, store the new snapshot, bump the version, finish if over.

    Caller holds the game row lock. ``timed_out`` marks a move of the timeout policy,
    ``queued`` one played from the seat's action queue.
    """
    move = Move.objects.create(
        game=game, seq=game.version + 1, seat=seat, action=action, events=list(events),
        timed_out=timed_out, queued=queued,
    )
    game.state = engine.to_json(state)
    game.version += 1
    if engine.is_over(state):
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.outcome = engine.outcome(state)
    game.save(update_fields=["state", "version", "status", "finished_at", "outcome"])
    newly_awaited = _sync_awaiting(game, state)
    _notify(game, newly_awaited=newly_awaited, finished=game.status == GameStatus.FINISHED)
    if game.status == GameStatus.ACTIVE and engine.needs_resolution(state):
        from games.tasks import enqueue_on_commit, resolve_game_task

        enqueue_on_commit(resolve_game_task, str(game.id), game.version)
    return move


def _start(game: Game) -> None:
    """Shuffle the seats with the game's seed, create the engine state, go active.

    Caller holds the game row lock and has checked that at least two seats are filled.
    """
    seats = list(Seat.objects.filter(game=game).order_by("order"))
    random.Random(game.seed).shuffle(seats)
    options = engine.GameOptions.from_dict({**game.options, "players": len(seats)})
    state = engine.new_game(options, game.seed)
    game.options = options.to_dict()
    game.engine_version = engine.ENGINE_VERSION
    game.state = engine.to_json(state)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    game.save(
        update_fields=["options", "engine_version", "state", "status", "started_at"]
    )
    _renumber_seats(game, seats)
    Seat.objects.filter(game=game).update(bank_seconds=game.clock_initial_seconds)
    _notify(game, newly_awaited=_sync_awaiting(game, state), started=True)


@transaction.atomic
def game_create(
    *, creator, name: str, max_seats: int, options: dict, is_public: bool = True,
    seed: int | None = None, pace: str = "none",
) -> Game:
    """Open a new game in the lobby with ``creator`` in the first seat.

    ``options`` are engine option names (see ``engine.GameOptions``) without ``players``;
    they are validated by the engine. ``seed`` fixes the engine seed (playtests, tests);
    a random one is drawn when it is None. ``pace`` names a preset of ``clock.PACES``
    (``none``: no clock). Raises ``InvalidGameOptions``.
    """
    if pace not in clock.PACES:
        raise InvalidGameOptions(f"Unknown pace {pace!r}.")
    chosen = clock.PACES[pace]
    if not Game.MIN_SEATS <= max_seats <= Game.MAX_SEATS:
        raise InvalidGameOptions(
            f"A game has {Game.MIN_SEATS} to {Game.MAX_SEATS} seats, not {max_seats}."
        )
    try:
        checked = engine.GameOptions.from_dict({**options, "players": max_seats})
    except engine.InvalidOptions as exc:
        raise InvalidGameOptions(str(exc)) from exc
    game = Game.objects.create(
        name=name.strip() or f"{creator}'s game",
        creator=creator,
        max_seats=max_seats,
        options=checked.to_dict(),
        engine_version=engine.ENGINE_VERSION,
        is_public=is_public,
        clock_initial_seconds=chosen.initial,
        clock_increment_seconds=chosen.increment,
        clock_cap_seconds=chosen.cap,
        **({} if seed is None else {"seed": seed}),
    )
    Seat.objects.create(game=game, user=creator, order=0)
    return game


@transaction.atomic
def seat_join(*, game_id: GameId, user, invite_token: str | None = None) -> Seat:
    """Seat ``user`` at an open game; start the game when this fills the last seat.

    Private games need ``invite_token`` from the game's invite link.
    """
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, "This game is no longer taking players.")
    if not game.is_public and not check_invite_token(game, invite_token):
        raise InviteRequired("This game is private: you need its invite link to join.")
    taken = list(Seat.objects.filter(game=game).values_list("user_id", "order"))
    if any(user_id == user.pk for user_id, _ in taken):
        raise AlreadySeated("You already have a seat at this game.")
    if len(taken) >= game.max_seats:
        raise GameFull("Every seat at this game is taken.")
    seat = Seat.objects.create(
        game=game, user=user, order=max((order for _, order in taken), default=-1) + 1
    )
    if len(taken) + 1 == game.max_seats:
        _start(game)
        seat.refresh_from_db()
    return seat


@transaction.atomic
def seat_leave(*, game_id: GameId, user) -> None:
    """Give up a seat before the game starts. The creator cancels instead of leaving."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, "You can only leave a game before it starts.")
    if game.creator_id == user.pk:
        raise NotCreator("You created this game: cancel it instead of leaving.")
    deleted, _ = Seat.objects.filter(game=game, user=user).delete()
    if not deleted:
        raise NotSeated("You do not have a seat at this game.")
    _renumber_seats(game, list(Seat.objects.filter(game=game).order_by("order")))


@transaction.atomic
def game_start(*, game_id: GameId, user) -> Game:
    """The creator starts an open game once at least two seats are filled."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, "This game has already started or ended.")
    _require_creator(game, user)
    if Seat.objects.filter(game=game).count() < Game.MIN_SEATS:
        raise NotEnoughPlayers(f"At least {Game.MIN_SEATS} players are needed to start.")
    _start(game)
    return game


@transaction.atomic
def game_cancel(*, game_id: GameId, user) -> Game:
    """The creator cancels a game that has not started."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, "Only a game that has not started can be cancelled.")
    _require_creator(game, user)
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    return game


#: Action types of simultaneous steps (followers, planning, event prompts) that change only
#: the acting seat's own situation: another seat's move of one of these kinds does not make
#: a player's page stale, so players planning at the same time do not refuse each other.
INDEPENDENT_ACTION_TYPES = frozenset({"draw", "pull_back", "place", "unplace", "submit_plan", "return_food", "torture"})
#: How many moves back a page may be and still be checked for independence.
STALE_WINDOW = 40


def _only_others_moved_independently(game: Game, seat_order: int, expected_version: int) -> bool:
    """True if every move after ``expected_version`` was another seat's independent action.

    Then the page the player acted on still shows everything their decision depends on, so
    the submission is checked against the current state instead of being refused as stale
    (``engine.apply`` still validates it). A resolution step (seat null) or any move of the
    player's own seat, or a page older than ``STALE_WINDOW`` moves, makes it stale.
    """
    if not 0 <= expected_version < game.version or game.version - expected_version > STALE_WINDOW:
        return False
    later = Move.objects.filter(game=game, seq__gt=expected_version).values_list("seat", "action")
    return all(
        seat is not None and seat != seat_order and action.get("type") in INDEPENDENT_ACTION_TYPES
        for seat, action in later
    )


@transaction.atomic
def game_submit_action(*, game_id: GameId, user, action: dict, expected_version: int) -> Move:
    """Apply one player's action: the only way a move enters a game.

    Locks the game, checks it is active and still at ``expected_version`` (else
    ``StaleVersion``, unless only other seats' independent simultaneous moves came in
    between: see ``_only_others_moved_independently``), finds the user's seat (else
    ``NotSeated``), calls ``engine.apply``
    (``engine.RulesError`` propagates, nothing is written), then appends the ``Move``,
    stores the snapshot and bumps the version. If a simultaneous phase is now complete,
    ``resolve_game_task`` is queued to run after commit. Returns the new move.
    """
    game = _lock_game(game_id)
    _require_status(game, GameStatus.ACTIVE, "This game is not being played.")
    seat = Seat.objects.filter(game=game, user=user).first()
    if game.version != expected_version and not (
        seat is not None and _only_others_moved_independently(game, seat.order, expected_version)
    ):
        raise StaleVersion(expected=expected_version, actual=game.version)
    if seat is None:
        raise NotSeated("You do not have a seat at this game.")
    new_state, events = engine.apply(engine.from_json(game.state), seat.order, action)
    if action.get("type") not in clock.PLANNING_STEPS:
        _player_decided(game, seat)
    _queue_follows_manual_move(seat, action)
    move = _store(game, new_state, seat=seat.order, action=action, events=events)
    _play_queues(game, new_state)
    return move


def _player_decided(game: Game, seat: Seat) -> None:
    """A decision by the seat's player: charge its clock and add the increment (capped),
    reset its timeout count; an absent player is back, and when no seat is absent any
    more the votes to end the game are dropped. Caller holds the game row lock."""
    if clock.has_clock(game):
        clock.decide(seat, game, timezone.now())
    was_absent = seat.absent
    seat.timeouts_in_a_row, seat.absent = 0, False
    seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline",
                             "timeouts_in_a_row", "absent"])
    if was_absent and not Seat.objects.filter(game=game, absent=True).exists():
        Seat.objects.filter(game=game).update(votes_to_end=False)


#: At most this many entries in a seat's action queue.
ACTION_QUEUE_LIMIT = 10


class QueueError(ServiceError):
    """The action queue entry is not acceptable (shape, place, or the game's phase)."""


class QueueChanged(QueueError):
    """The queue was changed elsewhere (another tab) since the page showed it."""


_QUEUE_CHOICES = {
    "recruit": lambda v: v in ("boatman", "craftsman", "trader"),
    "place_tile": lambda v: v in engine.content.PLACE_TILES,
    "route": lambda v: v in engine.content.ROUTES,
    "good": lambda v: v is None or v in engine.content.GOODS,
    "coins": lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 3,
}


def _queue_entry(entry: dict, state: Any, seat_order: int) -> dict:
    """Check and normalise an action queue entry: ``{"type": "pass"}`` or
    ``{"type": "activate", "space": <one of the seat's places>}`` with optional choice
    fields as in ``engine`` actions (``recruit``, ``place_tile``, ``route``, ``good``, ``coins``),
    each checked against the game's components. Raises ``QueueError``."""
    if not isinstance(entry, dict) or entry.get("type") not in ("activate", "pass"):
        raise QueueError("Queue an action on one of your places, or passing.")
    if entry["type"] == "pass":
        return {"type": "pass"}
    unknown = set(entry) - {"type", "space"} - set(_QUEUE_CHOICES)
    if unknown:
        raise QueueError(f"Unknown fields in the queued action: {sorted(unknown)}.")
    for key, valid in _QUEUE_CHOICES.items():
        if key in entry and not valid(entry[key]):
            raise QueueError(f"The queued action's {key} is not valid.")
    view = engine.view(state, seat_order)["players"][seat_order]
    places = set(engine.content.BOARD_SPACES) | set(view["places"])
    if not isinstance(entry.get("space"), str) or entry["space"] not in places:
        raise QueueError("You can only queue actions on your own places.")
    return dict(entry)


def queue_entry_label(entry: dict) -> str:
    """How an action queue entry reads ("Use Castle", "Pass for the rest of the round",
    "Use Village (Use Village: recruit a Boatman)" when it fixes a choice)."""
    if entry.get("type") == "pass":
        return "Pass for the rest of the round"
    try:
        name = engine.content.PLACES[entry["space"]].name
        return f"Use {name}" + ("" if set(entry) == {"type", "space"} else f" ({engine.describe_action(entry)})")
    except (KeyError, TypeError):
        return "An action that cannot be read"


def _matches(action: dict, entry: dict) -> bool:
    return all(action.get(key) == value for key, value in entry.items())


def _queue_follows_manual_move(seat: Seat, action: dict) -> None:
    """A manual pass empties the queue; using the place at its head by hand removes that
    entry (the player made the choice the queue was waiting for)."""
    if not seat.action_queue:
        return
    if action.get("type") == "pass":
        seat.action_queue = []
    elif action.get("type") == "activate" and seat.action_queue[0].get("space") == action.get("space"):
        seat.action_queue = seat.action_queue[1:]
    else:
        return
    seat.save(update_fields=["action_queue"])


def _play_queues(game: Game, state: Any) -> None:
    """Play queued actions while the seat whose turn it is has one that is legal now.

    Caller holds the game row lock, after storing ``state``. For the seat awaited for an
    action this round, the head of its queue is matched against the legal actions: exactly
    one match is played (and counts as the player's decision); several (a choice the queue
    does not fix, e.g. which good) leave the queue waiting for the player; none means the
    game went another way, so the queue is dropped. It stops at anything else (a prompt,
    another phase, the game's end).
    """
    for _ in range(ACTION_QUEUE_LIMIT * Game.MAX_SEATS):
        if game.status != GameStatus.ACTIVE:
            return
        turn = [order for order, kind in engine.awaiting(state).items() if kind == "action"]
        if not turn:
            return
        seat = Seat.objects.get(game=game, order=turn[0])
        if not seat.action_queue or seat.action_queue_round != state.round:
            return
        head = seat.action_queue[0]
        matches = [a for a in engine.legal_actions(state, seat.order) if _matches(a, head)]
        if len(matches) != 1:
            if not matches:
                seat.action_queue = []
                seat.action_queue_note = (f"Your queue stopped at “{queue_entry_label(head)}”: it could not be "
                                          "played when your turn came, so the rest was dropped.")
                seat.save(update_fields=["action_queue", "action_queue_note"])
            return
        seat.action_queue = seat.action_queue[1:] if matches[0]["type"] != "pass" else []
        seat.save(update_fields=["action_queue"])
        _player_decided(game, seat)
        state, events = engine.apply(state, seat.order, matches[0])
        _store(game, state, seat=seat.order, action=matches[0], events=events, queued=True)


def _lock_queue(game_id: GameId, user) -> tuple[Game, Seat, Any]:
    """Lock the game for a queue change; return it, the user's seat and the state."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.ACTIVE, "This game is not being played.")
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise NotSeated("You do not have a seat at this game.")
    state = engine.from_json(game.state)
    if state.phase not in ("planning", "actions"):
        raise QueueError("Actions can be queued while planning and during the action phase.")
    return game, seat, state


def _store_queue(game: Game, seat: Seat, state: Any, entries: list) -> list[dict]:
    if len(entries) > ACTION_QUEUE_LIMIT:
        raise QueueError(f"At most {ACTION_QUEUE_LIMIT} actions can be queued.")
    checked = [_queue_entry(entry, state, seat.order) for entry in entries]
    if any(entry["type"] == "pass" for entry in checked[:-1]):
        raise QueueError("Passing ends your round: nothing can be queued after it.")
    spaces = [entry["space"] for entry in checked if entry["type"] == "activate"]
    if len(spaces) != len(set(spaces)):
        raise QueueError("Each place can be used once a round: it is already in your queue.")
    seat.action_queue = checked
    seat.action_queue_round = state.round
    seat.action_queue_note = ""
    seat.save(update_fields=["action_queue", "action_queue_round", "action_queue_note"])
    _play_queues(game, state)
    seat.refresh_from_db(fields=["action_queue"])
    return seat.action_queue


@transaction.atomic
def seat_queue_set(*, game_id: GameId, user, entries: list[dict]) -> list[dict]:
    """Replace the user's action queue for this round's action phase with ``entries``
    (in order; at most ``ACTION_QUEUE_LIMIT``) and play it at once if it is their turn.

    Allowed while planning or during the action phase. The queue is private to its player.
    Returns the queue as stored. Raises ``QueueError``, ``NotSeated`` or ``WrongStatus``.
    """
    game, seat, state = _lock_queue(game_id, user)
    return _store_queue(game, seat, state, list(entries))


@transaction.atomic
def seat_queue_change(*, game_id: GameId, user, op: str, entry: Any = None, index: Any = None) -> list[dict]:
    """Edit the user's action queue under the game's row lock (two tabs cannot lose an edit).

    ``op`` is ``add`` (append ``entry``), ``remove`` (the entry at ``index``, which must
    still be ``entry``: a tab showing an older queue cannot remove another entry) or
    ``clear``. Returns the queue as stored. Raises ``QueueError``, ``NotSeated``,
    ``WrongStatus``.
    """
    game, seat, state = _lock_queue(game_id, user)
    queue = list(seat.action_queue) if seat.action_queue_round == state.round else []
    if op == "add":
        queue.append(entry)
    elif op == "remove":
        if not isinstance(index, int) or not 0 <= index < len(queue) or queue[index] != entry:
            raise QueueChanged("Your queue has changed in the meantime: here it is again.")
        del queue[index]
    elif op == "clear":
        queue = []
    else:
        raise QueueError("Unknown queue operation.")
    return _store_queue(game, seat, state, queue)


@transaction.atomic
def game_resolve(*, game_id: GameId, expected_version: int) -> Move | None:
    """Resolve a completed simultaneous phase; idempotent.

    Does nothing (returns None) if the game has moved past ``expected_version``, is not
    active, or needs no resolution, so duplicate or late task deliveries are harmless.
    """
    game = _lock_game(game_id)
    if game.status != GameStatus.ACTIVE or game.version != expected_version:
        return None
    state = engine.from_json(game.state)
    if not engine.needs_resolution(state):
        return None
    new_state, events = engine.resolve(state)
    move = _store(game, new_state, seat=None, action={"type": "resolve"}, events=events)
    _play_queues(game, new_state)
    return move


#: At most this many timeout actions are applied for one seat in one call (a torture debt
#: is paid one item at a time); a safety bound, never reached in a real game.
MAX_TIMEOUT_ACTIONS = 40


@transaction.atomic
def game_timeout(*, game_id: GameId, seat_order: int, expected_version: int,
                 now: dt.datetime | None = None) -> list[Move]:
    """Apply the timeout policy for a seat whose time bank ran out; idempotent.

    Does nothing (returns ``[]``) unless the game is active, still at ``expected_version``,
    and the seat is awaited with a running clock past its deadline at ``now`` — so a sweep
    that runs twice, or two sweeps racing, time a seat out once. Otherwise
    ``engine.timeout_action`` is applied for the seat, within the round and phase it
    timed out in, until it is no longer awaited (a
    draw is followed by the plan's submission), each action stored as a move marked
    ``timed_out``. The seat's bank becomes the increment, its consecutive timeouts grow by
    one, and after ``GAMES_ABSENT_AFTER_TIMEOUTS`` of them it is marked absent. The player
    gets a "you were timed out" email. Returns the moves stored.
    """
    from games.tasks import enqueue_on_commit
    from notifications.services import record_timed_out
    from notifications.tasks import deliver_game_notifications_task

    now = now or timezone.now()
    game = _lock_game(game_id)
    if game.status != GameStatus.ACTIVE or game.version != expected_version:
        return []
    seat = Seat.objects.filter(game=game, order=seat_order).first()
    if seat is None or not seat.awaiting or seat.clock_started_at is None \
            or clock.remaining(seat, now) > 0:
        return []
    state, moves = engine.from_json(game.state), []
    def part(state):  # which part of the game the seat was deciding in
        return getattr(state, "round", None), getattr(state, "phase", None)

    started_in = part(state)
    while len(moves) < MAX_TIMEOUT_ACTIONS and game.status == GameStatus.ACTIVE:
        if part(state) != started_in:
            break  # the decision that timed out is made: the next part of the game has its own clock
        action = engine.timeout_action(state, seat_order)
        if action is None:
            break
        state, events = engine.apply(state, seat_order, action)
        moves.append(_store(game, state, seat=seat_order, action=action, events=events,
                            timed_out=True))
    seat.refresh_from_db()
    clock.after_timeout(seat, game, now)
    seat.timeouts_in_a_row += 1
    seat.absent = seat.absent or seat.timeouts_in_a_row >= settings.GAMES_ABSENT_AFTER_TIMEOUTS
    seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline",
                             "timeouts_in_a_row", "absent"])
    record_timed_out(game=game, seat=seat, moves=len(moves))
    _play_queues(game, state)
    enqueue_on_commit(deliver_game_notifications_task, str(game.id), game.version)
    return moves


def seats_past_deadline(now: dt.datetime | None = None) -> list[tuple[Any, int]]:
    """``(game id, seat order)`` of awaited seats in active games whose running clock is
    past its deadline at ``now``, oldest deadline first (for the sweep)."""
    now = now or timezone.now()
    return list(
        Seat.objects.filter(game__status=GameStatus.ACTIVE, deadline__lte=now)
        .exclude(awaiting="").order_by("deadline", "pk")
        .values_list("game_id", "order")
    )


def score_as_it_stands(state: Any) -> dict:
    """Scores and ranking of an unfinished game, as ``engine.outcome`` would give them if
    it ended now (RULES §10.3 scoring via ``engine.scoring``), marked ``ended_early``."""
    from engine.scoring import ranking, score_breakdown

    data = state.data
    scores = [score_breakdown(data, s) for s in range(len(data["players"]))]
    rank = ranking(scores)
    return {"scores": scores, "ranking": rank,
            "winners": [r["seat"] for r in rank if r["place"] == 1], "ended_early": True}


@transaction.atomic
def game_vote_end(*, game_id: GameId, user) -> bool:
    """The user votes to end an active game in which a seat is absent; idempotent.

    When every seated player who is not absent has voted, the game is finished and scored
    as it stands (``score_as_it_stands``), placements recorded, everyone emailed. Returns
    True if this vote ended the game. Raises ``NotSeated``, ``WrongStatus``,
    ``NoAbsentPlayer`` (also when the voter is the absent one).
    """
    game = _lock_game(game_id)
    _require_status(game, GameStatus.ACTIVE, "This game is not being played.")
    seats = list(Seat.objects.filter(game=game))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise NotSeated("You do not have a seat at this game.")
    if not any(s.absent for s in seats) or mine.absent:
        raise NoAbsentPlayer("A game can be ended by vote only while another player is absent.")
    if not mine.votes_to_end:
        mine.votes_to_end = True
        mine.save(update_fields=["votes_to_end"])
    if not all(s.votes_to_end for s in seats if not s.absent):
        return False
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    game.outcome = score_as_it_stands(engine.from_json(game.state))
    game.save(update_fields=["status", "finished_at", "outcome"])
    _sync_awaiting(game, None)
    _notify(game, newly_awaited=[], finished=True)
    return True


@transaction.atomic
def game_expire_open(*, game_id: GameId, now: dt.datetime | None = None) -> bool:
    """Cancel an open game nobody started within ``GAMES_OPEN_GAME_MAX_DAYS`` days; the
    creator is emailed. Idempotent: False if it is no longer open or not old enough."""
    from games.tasks import enqueue_on_commit
    from notifications.services import record_game_cancelled
    from notifications.tasks import deliver_notification_task

    now = now or timezone.now()
    game = _lock_game(game_id)
    if game.status != GameStatus.OPEN or game.created_at > open_game_cutoff(now):
        return False
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    notification = record_game_cancelled(game=game)
    enqueue_on_commit(deliver_notification_task, notification.pk)
    return True


def open_game_cutoff(now: dt.datetime) -> dt.datetime:
    """Open games created before this moment are old enough to be cancelled."""
    return now - dt.timedelta(days=settings.GAMES_OPEN_GAME_MAX_DAYS)


def vacation_allowance_seconds() -> int:
    """Vacation a user has per calendar year, in seconds."""
    return settings.GAMES_VACATION_DAYS_PER_YEAR * clock.DAY


def vacation_used_seconds(prefs, now: dt.datetime) -> int:
    """Vacation used in ``now``'s calendar year (seconds), the running vacation included.

    A vacation is counted in the year it ends; a new year starts from zero.
    """
    used = prefs.vacation_seconds_used if prefs.vacation_year == now.year else 0
    if prefs.vacation_since is not None:
        used += int((now - prefs.vacation_since).total_seconds())
    return used


def vacation_days_left(prefs, now: dt.datetime) -> float:
    """Vacation days left this calendar year (never below 0)."""
    return max(0, vacation_allowance_seconds() - vacation_used_seconds(prefs, now)) / clock.DAY


def _locked_preferences(user):
    from notifications.models import Preferences

    Preferences.objects.get_or_create(user=user)
    return Preferences.objects.select_for_update().get(user=user)


def _each_clock_seat(user):
    """Lock, one by one in game id order, each game with a clock the user plays in; yields
    (game, seat) with the seat read under the lock. Inside ``transaction.atomic``."""
    game_ids = (Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE,
                                    game__clock_initial_seconds__gt=0)
                .order_by("game_id").values_list("game_id", flat=True))
    for game_id in list(game_ids):
        game = _lock_game(game_id)
        seat = Seat.objects.filter(game=game, user=user).first()
        if game.status == GameStatus.ACTIVE and seat is not None:
            yield game, seat


@transaction.atomic
def vacation_start(*, user, now: dt.datetime | None = None) -> None:
    """Start the user's vacation: every running clock of theirs stops (no timeouts, no
    reminders) until ``vacation_stop``. Idempotent; raises ``VacationError`` when no
    vacation days are left this year."""
    now = now or timezone.now()
    prefs = _locked_preferences(user)
    if prefs.vacation_since is not None:
        return
    if vacation_days_left(prefs, now) <= 0:
        raise VacationError("You have used all your vacation days for this year.")
    prefs.vacation_seconds_used = vacation_used_seconds(prefs, now)
    prefs.vacation_year, prefs.vacation_since = now.year, now
    prefs.save(update_fields=["vacation_since", "vacation_year", "vacation_seconds_used"])
    for _, seat in _each_clock_seat(user):
        if seat.clock_started_at is not None:
            clock.stop(seat, now)
            seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline"])


@transaction.atomic
def vacation_stop(*, user, now: dt.datetime | None = None) -> None:
    """End the user's vacation: the days used are counted and the clocks of the seats
    awaited meanwhile start again from their banks. Idempotent."""
    now = now or timezone.now()
    prefs = _locked_preferences(user)
    if prefs.vacation_since is None:
        return
    prefs.vacation_seconds_used = vacation_used_seconds(prefs, now)
    prefs.vacation_year, prefs.vacation_since = now.year, None
    prefs.save(update_fields=["vacation_since", "vacation_year", "vacation_seconds_used"])
    for _, seat in _each_clock_seat(user):
        if seat.awaiting and seat.clock_started_at is None:
            clock.start(seat, now)
            seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline"])


def vacations_used_up(now: dt.datetime | None = None) -> list[int]:
    """Ids of users whose running vacation has used up this year's days (for the sweep)."""
    from notifications.models import Preferences

    now = now or timezone.now()
    return [prefs.user_id for prefs in Preferences.objects.filter(vacation_since__isnull=False)
            if vacation_days_left(prefs, now) <= 0]
