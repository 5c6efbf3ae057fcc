"""The single write path for games.

Every function here is keyword-only, runs in one ``transaction.atomic`` block and locks
the game row with ``select_for_update`` before reading anything it will change, so two
requests for the same game are serialised. Rules are never decided here: the services
call ``engine`` and store what it returns.

Errors a user can cause are ``ServiceError`` subclasses with a message fit to show;
``engine.RulesError`` from ``engine.apply`` passes through unchanged.
"""
from __future__ import annotations

import random
import uuid
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

import engine
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


def _sync_awaiting(game: Game, state: Any) -> list[Seat]:
    """Copy ``engine.awaiting(state)`` onto the seats (drives "waiting for you" lists).

    Returns the seats that are awaited now and were not before (a change of decision kind
    while still awaited, e.g. draw then plan, does not count); ``awaiting_since`` is set
    when a seat becomes awaited and cleared when it no longer is.
    """
    awaited = {} if game.status != GameStatus.ACTIVE else engine.awaiting(state)
    newly_awaited = []
    now = timezone.now()
    for seat in Seat.objects.filter(game=game).select_related("user"):
        kind = str(awaited.get(seat.order, ""))
        if seat.awaiting == kind:
            continue
        if not seat.awaiting:
            newly_awaited.append(seat)
            seat.awaiting_since = now
        elif not kind:
            seat.awaiting_since = None
        seat.awaiting = kind
        seat.save(update_fields=["awaiting", "awaiting_since"])
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


def _store(game: Game, state: Any, *, seat: int | None, action: dict, events: list) -> Move:
    """Append the move, store the new snapshot, bump the version, finish if over.

    Caller holds the game row lock.
    """
    move = Move.objects.create(
        game=game, seq=game.version + 1, seat=seat, action=action, events=list(events)
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
    _notify(game, newly_awaited=_sync_awaiting(game, state), started=True)


@transaction.atomic
def game_create(
    *, creator, name: str, max_seats: int, options: dict, is_public: bool = True,
    seed: int | None = None,
) -> Game:
    """Open a new game in the lobby with ``creator`` in the first seat.

    ``options`` are engine option names (see ``engine.GameOptions``) without ``players``;
    they are validated by the engine. ``seed`` fixes the engine seed (playtests, tests);
    a random one is drawn when it is None. Raises ``InvalidGameOptions``.
    """
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
    return _store(game, new_state, seat=seat.order, action=action, events=events)


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
    return _store(game, new_state, seat=None, action={"type": "resolve"}, events=events)
