"""Rematch: one click after the end opens a new game with the same players, options and
pace, seats rotated; it starts when every other player has accepted.

Every function is keyword-only, runs in one ``transaction.atomic`` block and locks the
game row first. The rematch is an open game whose seats are all taken, the asker's
accepted and the others' not (``Seat.accepted``); it is never shuffled at the start
(``lobby._start``): the seat order is the finished game's moved on by one, so the second
player of the last game is the start player (seat 0, RULES §4) of this one.
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from games.errors import NotSeated, RematchError
from games.models import Game, GameStatus, Seat
from games.rules import engine_named
from games.services import outbox
from games.services.lobby import _start
from games.services.live import touch_live
from games.services.locks import GameId, _lock_game

#: The English mark of a rematch's name; other languages have their own (``rematch_name``).
REMATCH_SUFFIX = " (rematch)"


def rematch_name(name: str) -> str:
    """The rematch's name: the game's, marked once as a rematch (in the active language, the
    asker's; a name already marked in English or in that language is kept), within the 80
    characters."""
    suffix = gettext("{name} (rematch)").format(name="")  # what the language adds to a name
    if name.endswith(REMATCH_SUFFIX) or name.endswith(suffix):
        return name
    return name[: Game._meta.get_field("name").max_length - len(suffix)] + suffix


def _accept(game: Game, user) -> None:
    """``user`` accepts the rematch ``game`` (row locked, open); it starts once all have."""
    if not Seat.objects.filter(game=game, user=user).update(accepted=True):
        raise NotSeated(gettext("You do not have a seat at this rematch."))
    if not Seat.objects.filter(game=game, accepted=False).exists():
        _start(game)


@transaction.atomic
def game_rematch(*, game_id: GameId, user) -> Game:
    """A player of the finished game ``game_id`` asks for a rematch; returns the rematch.

    The new game has the same players, options, pace, rules and visibility (a new seed);
    seat *i* of the finished game sits at *i - 1* (the first goes last). The asker has
    accepted; each other player is invited (home page and email) and the game starts when
    all have accepted (bot seats come back as they were and accept at once: against bots
    only, it starts now). Asking again, or asking when another player already did, accepts
    that rematch instead of opening a second one; after a declined rematch a new one can be
    asked for. Raises ``RematchError`` (game not finished, not a player), ``GameNotFound``.
    """
    game = _lock_game(game_id)
    if game.status != GameStatus.FINISHED:
        raise RematchError(gettext("A rematch can be asked for once the game is over."))
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("order"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise RematchError(gettext("Only a player of this game can ask for a rematch."))
    touch_live([game.pk])  # the finished game's open pages show the rematch
    existing = Game.objects.select_for_update().filter(rematch_of=game).first()
    if existing is not None and existing.status != GameStatus.CANCELLED:
        if existing.status == GameStatus.OPEN:
            _accept(existing, user)
        return existing
    if existing is not None:  # declined: the new rematch takes its place as the rematch
        existing.rematch_of = None
        existing.save(update_fields=["rematch_of"])
    rematch = Game.objects.create(
        name=rematch_name(game.name), creator=user, max_seats=len(seats), options=dict(game.options),
        rules=game.rules, engine_version=engine_named(game.rules).ENGINE_VERSION, is_public=game.is_public, rated=game.rated,
        clock_initial_seconds=game.clock_initial_seconds, clock_increment_seconds=game.clock_increment_seconds,
        clock_cap_seconds=game.clock_cap_seconds, rematch_of=game,
        absent_bot_level=game.absent_bot_level, has_bots=any(s.is_bot for s in seats),
    )
    rotated = seats[1:] + seats[:1]
    for order, seat in enumerate(rotated):  # bots come back too, and accept at once
        Seat.objects.create(game=rematch, user=seat.user, bot_level=seat.bot_level, bot_name=seat.bot_name,
                            order=order, accepted=seat.is_bot or seat.user_id == user.pk)
    invitees = [s.user for s in rotated if not s.is_bot and s.user_id != user.pk]
    outbox.rematch_offered(rematch, inviter=user, invitees=invitees)
    if not invitees:  # only bots to ask: it starts now
        _start(rematch)
    return rematch


def _open_rematch(game_id: GameId, user) -> Game:
    game = _lock_game(game_id)
    if game.rematch_of_id is None:
        raise RematchError(gettext("This game is not a rematch."))
    if game.status != GameStatus.OPEN:
        raise RematchError(gettext("This rematch is no longer waiting for answers."))
    if not Seat.objects.filter(game=game, user=user).exists():
        raise NotSeated(gettext("You do not have a seat at this rematch."))
    return game


@transaction.atomic
def rematch_accept(*, game_id: GameId, user) -> Game:
    """``user`` accepts the rematch ``game_id``; the last acceptance starts it. Idempotent
    for a player who already accepted. Raises ``RematchError`` (not a rematch, no longer
    open), ``NotSeated``, ``GameNotFound``."""
    game = _open_rematch(game_id, user)
    _accept(game, user)
    touch_live([game.rematch_of_id])  # the finished game's pages show who accepted
    game.refresh_from_db()
    return game


@transaction.atomic
def rematch_decline(*, game_id: GameId, user) -> Game:
    """``user`` declines the rematch ``game_id``: it is cancelled for everyone. Raises
    ``RematchError``, ``NotSeated``, ``GameNotFound``."""
    game = _open_rematch(game_id, user)
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    touch_live([game.rematch_of_id])
    return game
