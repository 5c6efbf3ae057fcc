"""Clocks around decisions, and vacation (a site rule, not a game rule).

A seat's clock runs while the engine awaits it and its player is not on vacation
(``games.clock`` holds the arithmetic). A decision charges the clock and adds the
increment; vacation stops every running clock of the user until it ends.
"""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import clock
from games.errors import VacationError
from games.models import Game, GameStatus, PlayerClock, Seat
from games.selectors import vacation_days_left, vacation_used_seconds
from games.services.live import touch_live
from games.services.locks import _lock_game


#: The seat's clock fields a decision changes (``clock.decide``).
_CLOCK_FIELDS = ("bank_seconds", "clock_started_at", "deadline")


def _player_decided(game: Game, seat: Seat) -> None:
    """A decision by the seat's player: charge its clock and add the increment (capped),
    reset its timeout count; an absent player is back, and when no seat is absent any
    more the votes to end the game are dropped. Caller holds the game row lock, ``seat``
    read under it; a seat among those kept for the store (``game._locked_seats``) has its
    clock written by that store (``game._clocks_unwritten``)."""
    before = [getattr(seat, name) for name in _CLOCK_FIELDS]
    if clock.has_clock(game):
        clock.decide(seat, game, timezone.now())
    changed = [name for name, old in zip(_CLOCK_FIELDS, before, strict=True) if getattr(seat, name) != old]
    # a seat the next store writes anyway (read under the lock for it, locks._read_seats) keeps
    # its clock for that write (store._awaiting_changes): one UPDATE fewer. Not an absent
    # player's: their return may make the store read the seats again (_player_back).
    if changed and not seat.absent and any(s is seat for s in game.__dict__.get("_locked_seats") or ()):
        game.__dict__.setdefault("_clocks_unwritten", []).append(seat)
        changed = []
    _player_back(game, seat, changed)


def _player_back(game: Game, seat: Seat, also_save: list[str] = ()) -> None:
    """The seat's player is present: reset its timeout count and absence (saved with the
    fields ``also_save``; no write when nothing changed); when no seat is absent any more
    the votes to end the game are dropped. Caller holds the game row lock, ``seat`` read
    under it."""
    was_absent = seat.absent
    changed = [*also_save, *(name for name, value in (("timeouts_in_a_row", 0), ("absent", False))
                             if getattr(seat, name) != value)]
    seat.timeouts_in_a_row, seat.absent = 0, False
    if changed:
        seat.save(update_fields=changed)
    if was_absent and not Seat.objects.filter(game=game, absent=True).exists():
        Seat.objects.filter(game=game).update(votes_to_end=False)
        game.__dict__.pop("_locked_seats", None)  # the seats read under the lock are out of date now


def _locked_player_clock(user) -> PlayerClock:
    """The user's vacation record, created if missing, locked for this transaction."""
    PlayerClock.objects.get_or_create(user=user)
    return PlayerClock.objects.select_for_update().get(user=user)


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
    player_clock = _locked_player_clock(user)
    if player_clock.vacation_since is not None:
        return
    if vacation_days_left(player_clock, now) <= 0:
        raise VacationError(gettext("You have used all your vacation days for this year."))
    player_clock.vacation_seconds_used = vacation_used_seconds(player_clock, now)
    player_clock.vacation_year, player_clock.vacation_since = now.year, now
    player_clock.save(update_fields=["vacation_since", "vacation_year", "vacation_seconds_used"])
    for _, seat in _each_clock_seat(user):
        if seat.clock_started_at is not None:
            clock.stop(seat, now)
            seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline"])
    touch_live(user=user)  # every page of theirs shows the vacation (and the clock stopped)


@transaction.atomic
def vacation_stop(*, user, now: dt.datetime | None = None) -> None:
    """End the user's vacation: the days used are counted and the clocks of the seats
    awaited meanwhile start again from their banks. Idempotent."""
    now = now or timezone.now()
    player_clock = _locked_player_clock(user)
    if player_clock.vacation_since is None:
        return
    player_clock.vacation_seconds_used = vacation_used_seconds(player_clock, now)
    player_clock.vacation_year, player_clock.vacation_since = now.year, None
    player_clock.save(update_fields=["vacation_since", "vacation_year", "vacation_seconds_used"])
    for _, seat in _each_clock_seat(user):
        if seat.awaiting and seat.clock_started_at is None:
            clock.start(seat, now)
            # reminders were held back during the vacation: the next sweep looks again
            seat.next_reminder_at = now  # a seat of this user's: never a bot
            seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline", "next_reminder_at"])
    touch_live(user=user)
