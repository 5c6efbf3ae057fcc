"""Time banks: pure arithmetic on a game's pace and a seat's clock fields. Nothing here writes.

A game's pace is three numbers of seconds on ``Game``: ``clock_initial_seconds`` (each
seat's bank at the start; 0 means the game has no clock), ``clock_increment_seconds``
(added to the bank for each decision) and ``clock_cap_seconds`` (the bank never exceeds
it). A seat's clock is ``Seat.bank_seconds`` (the bank when the clock last started or
stopped), ``Seat.clock_started_at`` (when it started running; null while stopped) and
``Seat.deadline`` (``clock_started_at + bank_seconds``, kept for the deadline sweep's index).

A clock runs only while its seat is awaited and its player is not on vacation; in a
simultaneous phase every awaited seat's clock runs at once (parallel clocks). The services
in ``games.services`` call these functions under the game row lock and save the fields.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy as _

HOUR = 3600
DAY = 24 * HOUR


@dataclass(frozen=True)
class Pace:
    """A preset: initial bank, increment per decision and cap, all in seconds; ``label``
    is lazy text, read in the active language."""

    name: str
    label: str
    initial: int
    increment: int
    cap: int


def _preset(name: str, label: str, initial: int, increment: int) -> Pace:
    return Pace(name, label, initial, increment, 2 * initial)


#: The paces offered in the lobby, by name. The cap is twice the initial bank.
PACES: dict[str, Pace] = {
    "none": Pace("none", _("No clock: play at your own pace"), 0, 0, 0),
    "fast": _preset("fast", _("Fast: 24 hours, +6 hours per decision"), DAY, 6 * HOUR),
    "normal": _preset("normal", _("Normal: 3 days, +1 day per decision"), 3 * DAY, DAY),
    "slow": _preset("slow", _("Slow: 7 days, +2 days per decision"), 7 * DAY, 2 * DAY),
}

def pace_of(game) -> Pace:
    """The preset matching the game's clock fields, or a "custom" pace."""
    for pace in PACES.values():
        if (pace.initial, pace.increment, pace.cap) == (
                game.clock_initial_seconds, game.clock_increment_seconds, game.clock_cap_seconds):
            return pace
    return Pace("custom", _("Custom clock"), game.clock_initial_seconds,
                game.clock_increment_seconds, game.clock_cap_seconds)


def has_clock(game) -> bool:
    """True if the game's seats have time banks."""
    return game.clock_initial_seconds > 0


def remaining(seat, now: dt.datetime) -> int:
    """Seconds left in the seat's bank at ``now``; negative once its running clock is past
    the deadline. A stopped clock keeps ``bank_seconds``."""
    if seat.clock_started_at is None:
        return seat.bank_seconds
    return seat.bank_seconds - int((now - seat.clock_started_at).total_seconds())


def _set(seat, bank: int, now: dt.datetime, *, running: bool) -> None:
    seat.bank_seconds = bank
    seat.clock_started_at = now if running else None
    seat.deadline = now + dt.timedelta(seconds=bank) if running else None


def start(seat, now: dt.datetime) -> None:
    """Start the seat's clock at ``now`` (it was stopped)."""
    _set(seat, seat.bank_seconds, now, running=True)


def stop(seat, now: dt.datetime) -> None:
    """Stop the seat's clock, charging the time used (the bank never goes below 0)."""
    _set(seat, max(0, remaining(seat, now)), now, running=False)


def decide(seat, game, now: dt.datetime) -> None:
    """A decision by the seat: charge the time used, add the increment, cap the bank.

    The clock keeps running if it was (the seat may still be awaited, e.g. after a draw
    it plans); the services stop it when the seat is no longer awaited.
    """
    bank = min(game.clock_cap_seconds, max(0, remaining(seat, now)) + game.clock_increment_seconds)
    _set(seat, bank, now, running=seat.clock_started_at is not None)


def take_back(seat, game, now: dt.datetime) -> None:
    """The seat took back a decision (``games.services.undo``): the increment it earned is
    removed again, so deciding and taking back buys no time; the time used stays charged."""
    bank = max(0, remaining(seat, now) - game.clock_increment_seconds)
    _set(seat, bank, now, running=seat.clock_started_at is not None)


def after_timeout(seat, game, now: dt.datetime) -> None:
    """The seat was timed out: its bank is empty, and it gets the increment for its next
    wait (so an absent player is timed out once per increment, not at every sweep)."""
    bank = min(game.clock_cap_seconds, game.clock_increment_seconds)
    _set(seat, bank, now, running=seat.clock_started_at is not None)


def reminder_interval(game) -> int:
    """Seconds between two reminders of an awaited player.

    A quarter of the increment, at least ``GAMES_REMINDER_MIN_HOURS``; games without a
    clock use ``GAMES_REMINDER_NO_CLOCK_HOURS``.
    """
    if not has_clock(game):
        return settings.GAMES_REMINDER_NO_CLOCK_HOURS * HOUR
    return max(game.clock_increment_seconds // 4, settings.GAMES_REMINDER_MIN_HOURS * HOUR)


def next_reminder_at(seat, game, now: dt.datetime, *, visited: bool) -> dt.datetime:
    """When the reminder sweep should next look at an awaited seat (``Seat.next_reminder_at``).

    The next reminder-interval boundary of the wait (``awaiting_since`` + k ×
    ``reminder_interval``, strictly after ``now``), or the deadline warning's moment
    (``deadline`` − ``GAMES_DEADLINE_WARNING_HOURS``) if that comes first. ``visited``:
    the sweep has just looked at the seat at ``now`` (so a warning moment already passed
    was handled); False when the wait has just begun or the clock has just started, so
    a warning already due is due ``now``. Within a wait the deadline only moves later,
    so a time computed here is never later than the true next occasion.
    """
    interval = reminder_interval(game)
    passed = int((now - seat.awaiting_since).total_seconds()) // interval
    due = seat.awaiting_since + dt.timedelta(seconds=(passed + 1) * interval)
    if seat.deadline is not None and seat.deadline > now:
        warn_at = seat.deadline - dt.timedelta(hours=settings.GAMES_DEADLINE_WARNING_HOURS)
        if warn_at > now or not visited:
            due = min(due, max(warn_at, now))
    return due


def format_duration(seconds: int) -> str:
    """``"2 d 3 h"``, ``"5 h 12 min"``, ``"4 min"``; ``"0 min"`` for nothing left (in the
    active language: ``"2日3時間"``)."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    if days:
        return gettext("{days} d {hours} h").format(days=days, hours=hours)
    if hours:
        return gettext("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    return gettext("{minutes} min").format(minutes=minutes)
