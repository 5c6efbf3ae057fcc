"""The home page's "Waiting for you" list: one row per game awaiting the user.

Rows come in ``selectors.seats_waiting_for`` order (deadline, then the longest wait) and
say the decision needed and the time left; nothing here queries or writes.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from games import clock
from games.models import Game, Seat
from games.vocabulary import decision_prompt


@dataclass(frozen=True)
class WaitingRow:
    """One game waiting for the user.

    ``game`` is the row (state deferred); ``prompt`` the decision needed, in words;
    ``time_left`` the seat's bank as text (None: the game has no clock); ``clock_running``
    False while the clock is stopped (vacation); ``deadline`` and ``since`` (when the wait
    began) are datetimes or None; ``unread`` the user's unread chat messages there.
    """

    game: Game
    seat: Seat
    prompt: str
    time_left: str | None
    clock_running: bool
    deadline: dt.datetime | None
    since: dt.datetime | None
    unread: int = 0


def waiting_rows(seats: list[Seat], now: dt.datetime, unread: dict | None = None) -> list[WaitingRow]:
    """``WaitingRow`` of each awaited seat (``game`` loaded), in the order given.
    ``unread`` maps a game id to the user's unread chat messages there."""
    unread = unread or {}
    return [
        WaitingRow(
            game=seat.game, seat=seat,
            prompt=decision_prompt(seat.awaiting, seat.awaiting.replace("_", " ")),
            time_left=clock.format_duration(clock.remaining(seat, now)) if clock.has_clock(seat.game) else None,
            clock_running=seat.clock_started_at is not None, deadline=seat.deadline,
            since=seat.awaiting_since, unread=unread.get(seat.game_id, 0),
        )
        for seat in seats
    ]
