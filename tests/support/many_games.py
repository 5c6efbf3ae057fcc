"""Many games straight in the database (no services, no engine), for the tests that
compare a page's queries with 3 and with 30 games. The rows are what the lists read:
status, seats, an outcome; no state."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from django.utils import timezone

from games.models import ChatChannel, ChatMessage, Game, GameStatus, Seat
from games.services.store import store_seat_results

_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"


def _game(users, status: str, index: int, **fields) -> Game:
    fields.setdefault("max_seats", max(2, len(users)))
    game = Game.objects.create(name=f"Game {status} {index}", creator=users[0], status=status, **fields)
    Seat.objects.bulk_create(Seat(game=game, user=user, order=order) for order, user in enumerate(users))
    return game


def finished_games(users, count: int, *, start: int = 0) -> list[Game]:
    """``count`` finished public games of ``users`` (seat order as given), with the outcome of
    the imported fixture of as many players (copied onto the seats), finished a minute apart."""
    outcome = json.loads((_FIXTURES / f"{len(users)}p-default.json").read_text())["outcome"]
    now = timezone.now()
    games = [_game(users, GameStatus.FINISHED, i, outcome=outcome, finished_at=now - dt.timedelta(minutes=i))
             for i in range(start, start + count)]
    for game in games:
        store_seat_results(game)
    return games


def waiting_games(users, count: int, *, start: int = 0) -> list[Game]:
    """``count`` active games of ``users`` awaiting the first user's plan, each with a chat
    message of the second user that the first has not read."""
    games = [_game(users, GameStatus.ACTIVE, i) for i in range(start, start + count)]
    Seat.objects.filter(game__in=games, user=users[0]).update(awaiting="plan", awaiting_since=timezone.now())
    ChatMessage.objects.bulk_create(ChatMessage(game=game, author=users[1], channel=ChatChannel.PLAYERS,
                                                text="your turn") for game in games)
    return games


def open_games(users, count: int, *, start: int = 0) -> list[Game]:
    """``count`` open public games with a free seat, ``users`` seated."""
    return [_game(users, GameStatus.OPEN, i, max_seats=4) for i in range(start, start + count)]
