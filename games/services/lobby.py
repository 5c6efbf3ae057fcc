"""The lobby: open a game, join, leave, start, cancel, expire games nobody started, and
make a game public or private (``game_set_public``).

Every function is keyword-only, runs in one ``transaction.atomic`` block and locks the
game row first. The engine validates the options; starting creates the engine state.
"""
from __future__ import annotations

import datetime as dt
import random

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from games import bots as site_bots, clock
from games.access import check_invite_token
from games.errors import (
    AlreadySeated, GameFull, InvalidGameName, InvalidGameOptions, InviteRequired, NotCreator, NotEnoughPlayers, NotSeated,
    WrongStatus,
)
from games.models import Game, GameStatus, Invitation, InvitationStatus, Seat
from games.rules import default_rules, engine_for, engine_named, player_message
from games.selectors import open_game_cutoff
from games.services import outbox
from games.services.live import touch_live
from games.services.locks import GameId, _lock_game, _require_creator, _require_status
from games.services.store import _sync_awaiting
from games.spectators import forget_spectators
from orleans_site.text import check_name


def _renumber_seats(game: Game, seats: list[Seat]) -> None:
    """Give ``seats`` the orders 0..n-1 in list order, without breaking (game, order) uniqueness."""
    Seat.objects.filter(game=game).update(order=F("order") + 100)
    for order, seat in enumerate(seats):
        seat.order = order
        seat.colour = Seat.COLOURS[order] if game.status == GameStatus.ACTIVE else ""
        seat.save(update_fields=["order", "colour"])



def _start(game: Game) -> None:
    """Shuffle the seats with the game's seed, create the engine state, go active.

    A rematch keeps its seat order (``services.rematch``: rotated from the finished game).
    Caller holds the game row lock and has checked that at least two seats are filled.
    """
    seats = list(Seat.objects.filter(game=game).order_by("order"))
    if game.rematch_of_id is None:
        random.Random(game.seed).shuffle(seats)
    rules_engine = engine_for(game)
    options = rules_engine.GameOptions.from_dict({**game.options, "players": len(seats)})
    state = rules_engine.new_game(options, game.seed)
    game.options = options.to_dict()
    game.engine_version = rules_engine.ENGINE_VERSION  # the pin: games.rules.engine_for checks it
    game.state = rules_engine.to_json(state)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    game.save(
        update_fields=["options", "engine_version", "state", "status", "started_at"]
    )
    _renumber_seats(game, seats)
    Seat.objects.filter(game=game).update(bank_seconds=game.clock_initial_seconds)
    outbox.game_changed(game, newly_awaited=_sync_awaiting(game, state), started=True)


def _check_bots(rules: str, bots: list[str], absent_bot_level: str | None, max_seats: int,
                clocked: bool) -> str:
    """Check the bot seats' levels (``bots``) and the takeover level; return the takeover
    level to store ("" for none; None: a clocked game gets ``default_takeover_level``).
    Raises ``InvalidGameOptions``."""
    offered = site_bots.levels(rules)
    for level in [*bots, absent_bot_level or ""]:
        if level and level not in offered:
            raise InvalidGameOptions(gettext("There is no {level!r} bot.").format(level=level))
    if len(bots) >= max_seats:
        raise InvalidGameOptions(site_bots.room_for_bots(max_seats))
    if absent_bot_level is None:
        return site_bots.default_takeover_level(rules) if clocked else ""
    return absent_bot_level


@transaction.atomic
def game_create(
    *, creator, name: str, max_seats: int, options: dict, is_public: bool = True,
    seed: int | None = None, pace: str = "none", rules: str | None = None,
    bots: list[str] = (), absent_bot_level: str | None = None, rated: bool = True,
) -> Game:
    """Open a new game in the lobby with ``creator`` in the first seat.

    ``bots`` are the levels (``games.bots.levels``) of bot seats taken at once after the
    creator's, named "Bot (<level>) 1", 2...; when they fill the game it starts at once.
    ``absent_bot_level`` is the level of the bot that plays for an absent player ("" for
    none; None: on for a game with a clock, at ``default_takeover_level``, off without).

    ``options`` are engine option names (see ``engine.GameOptions``) without ``players``;
    they are validated by the engine. ``seed`` fixes the engine seed (playtests, tests);
    a random one is drawn when it is None. ``pace`` names a preset of ``clock.PACES``
    (``none``: no clock). ``rules`` names the rules engine (``games.rules.REGISTRY``;
    None: ``default_rules()``). ``rated``: its result updates the players' ratings
    (``services.ratings``; a game that gets a bot seat is never rated). ``name`` must be plain text (no line breaks or other
    control characters) of at most 80 characters; blank gives "<creator>'s game" (worded in
    the active language, the creator's).
    Raises ``InvalidGameName``, ``InvalidGameOptions`` (also for an unknown bot level or
    bots filling every seat), ``UnknownRules``.
    """
    try:
        name = check_name(name, max_length=Game._meta.get_field("name").max_length)
    except ValidationError as exc:
        raise InvalidGameName(" ".join(exc.messages)) from exc
    rules = rules or default_rules()
    rules_engine = engine_named(rules)
    if pace not in clock.PACES:
        raise InvalidGameOptions(gettext("Unknown pace {pace!r}.").format(pace=pace))
    chosen = clock.PACES[pace]
    if not Game.MIN_SEATS <= max_seats <= Game.MAX_SEATS:
        raise InvalidGameOptions(
            gettext("A game has {least} to {most} seats, not {seats}.").format(
                least=Game.MIN_SEATS, most=Game.MAX_SEATS, seats=max_seats)
        )
    try:
        checked = rules_engine.GameOptions.from_dict({**options, "players": max_seats})
    except rules_engine.InvalidOptions as exc:
        raise InvalidGameOptions(player_message(exc), code=getattr(exc, "code", None)) from exc
    bots = list(bots)
    absent_bot_level = _check_bots(rules, bots, absent_bot_level, max_seats, chosen.initial > 0)
    game = Game.objects.create(
        name=name or gettext("{creator}'s game").format(creator=creator),
        creator=creator,
        max_seats=max_seats,
        options=checked.to_dict(),
        rules=rules,
        engine_version=rules_engine.ENGINE_VERSION,
        is_public=is_public,
        rated=rated and not bots,  # a game with a bot seat is never rated
        clock_initial_seconds=chosen.initial,
        clock_increment_seconds=chosen.increment,
        clock_cap_seconds=chosen.cap,
        absent_bot_level=absent_bot_level,
        has_bots=bool(bots),
        **({} if seed is None else {"seed": seed}),
    )
    Seat.objects.create(game=game, user=creator, order=0)
    for number, level in enumerate(bots, start=1):
        Seat.objects.create(game=game, order=number, bot_level=level, bot_name=site_bots.seat_name(level, number))
    if 1 + len(bots) == max_seats:
        _start(game)
    return game


@transaction.atomic
def seat_join(*, game_id: GameId, user, invite_token: str | None = None) -> Seat:
    """Seat ``user`` at an open game; start the game when this fills the last seat.

    Private games need ``invite_token`` from the game's invite link, or a pending
    invitation by name (``services.invitations``), which joining accepts.
    """
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, gettext("This game is no longer taking players."))
    invitation = Invitation.objects.filter(game=game, invitee=user, status=InvitationStatus.PENDING).first()
    if not game.is_public and not check_invite_token(game, invite_token) and invitation is None:
        raise InviteRequired(gettext("This game is private: you need its invite link to join."))
    seat = _take_seat(game, user)
    if invitation is not None:
        invitation.status, invitation.answered_at = InvitationStatus.ACCEPTED, timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
    return seat


def _take_seat(game: Game, user) -> Seat:
    """Seat ``user`` at the open ``game`` (row locked, access already checked); start the
    game when this fills the last seat. Raises ``AlreadySeated``, ``GameFull``."""
    taken = list(Seat.objects.filter(game=game).values_list("user_id", "order"))
    if any(user_id == user.pk for user_id, _ in taken):
        raise AlreadySeated(gettext("You already have a seat at this game."))
    if len(taken) >= game.max_seats:
        raise GameFull(gettext("Every seat at this game is taken."))
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
    _require_status(game, GameStatus.OPEN, gettext("You can only leave a game before it starts."))
    if game.rematch_of_id is not None:
        raise WrongStatus(gettext("This is a rematch: decline it instead of leaving."))
    if game.creator_id == user.pk:
        raise NotCreator(gettext("You created this game: cancel it instead of leaving."))
    deleted, _ = Seat.objects.filter(game=game, user=user).delete()
    if not deleted:
        raise NotSeated(gettext("You do not have a seat at this game."))
    _renumber_seats(game, list(Seat.objects.filter(game=game).order_by("order")))


@transaction.atomic
def game_start(*, game_id: GameId, user) -> Game:
    """The creator starts an open game once at least two seats are filled."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, gettext("This game has already started or ended."))
    _require_creator(game, user)
    if Seat.objects.filter(game=game).count() < Game.MIN_SEATS:
        raise NotEnoughPlayers(gettext("At least {least} players are needed to start.").format(least=Game.MIN_SEATS))
    if Seat.objects.filter(game=game, accepted=False).exists():
        raise NotEnoughPlayers(gettext("The rematch starts when every player has accepted it."))
    _start(game)
    return game


@transaction.atomic
def game_cancel(*, game_id: GameId, user) -> Game:
    """The creator cancels a game that has not started."""
    game = _lock_game(game_id)
    _require_status(game, GameStatus.OPEN, gettext("Only a game that has not started can be cancelled."))
    _require_creator(game, user)
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    touch_live([game.rematch_of_id])  # a rematch: the finished game's pages drop the offer
    return game


@transaction.atomic
def game_expire_open(*, game_id: GameId, now: dt.datetime | None = None) -> bool:
    """Cancel an open game nobody started within ``GAMES_OPEN_GAME_MAX_DAYS`` days; the
    creator is emailed. Idempotent: False if it is no longer open or not old enough."""
    now = now or timezone.now()
    game = _lock_game(game_id)
    if game.status != GameStatus.OPEN or game.created_at > open_game_cutoff(now):
        return False
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    touch_live([game.rematch_of_id])
    outbox.game_cancelled(game)
    return True



@transaction.atomic
def game_set_public(*, game_id: GameId, user, is_public: bool) -> Game:
    """The creator makes ``game`` public (listed, watched by anyone) or private to its players
    (and, while open, to those with the invite link or an invitation); idempotent.

    Allowed while the game is open or being played. Making it private drops its list of
    spectators (``games.spectators``): from then on only players see it.
    Raises ``NotCreator``, ``WrongStatus``, ``GameNotFound``.
    """
    game = _lock_game(game_id)
    _require_creator(game, user)
    if game.status not in (GameStatus.OPEN, GameStatus.ACTIVE):
        raise WrongStatus(gettext("Only a game that is open or being played can be made public or private."))
    if game.is_public != is_public:
        game.is_public = is_public
        game.save(update_fields=["is_public"])
        touch_live([game.pk])  # the players' pages show who may watch
    if not is_public:
        forget_spectators(game)  # a rollback would only drop a list that refills by itself
    return game
