"""Read-only queries and projections for the views. Nothing here writes.

Game pages are built only from ``engine.view(state, seat)``: templates never receive the
raw snapshot, so hidden information is filtered by the engine, not by a template.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, QuerySet

import engine
from games.models import Game, GameStatus, Move, Seat

_SEATS_WITH_USERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


def games_open_public() -> QuerySet[Game]:
    """Open public games, newest first, with ``seat_count`` and their seats."""
    return (
        Game.objects.filter(status=GameStatus.OPEN, is_public=True)
        .select_related("creator")
        .annotate(seat_count=Count("seats"))
        .prefetch_related(_SEATS_WITH_USERS)
        .defer("state")
        .order_by("-created_at")
    )


def seats_waiting_for(user) -> QuerySet[Seat]:
    """The user's seats in active games where the engine awaits their decision."""
    return (
        Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE)
        .exclude(awaiting="")
        .select_related("game")
        .defer("game__state")
        .order_by("-game__started_at")
    )


def _user_games(user, *statuses: GameStatus) -> QuerySet[Game]:
    return (
        Game.objects.filter(seats__user=user, status__in=statuses)
        .prefetch_related(_SEATS_WITH_USERS)
        .defer("state")
    )


def games_in_progress_for(user) -> QuerySet[Game]:
    """Games the user plays in that are open or active, newest first."""
    return _user_games(user, GameStatus.OPEN, GameStatus.ACTIVE).order_by("-created_at")


@dataclass
class PlayerResult:
    """One player's line in a finished game's result."""

    seat: Seat
    score: Any
    placement: int | None
    breakdown: dict | None = None


@dataclass
class FinishedGame:
    """A finished game with every player's score and placement, in placement order."""

    game: Game
    results: list[PlayerResult] = field(default_factory=list)
    viewer: PlayerResult | None = None


def _placements(outcome: dict) -> dict[int, int]:
    """Seat index -> 1-based placement (ties share one), from ``engine.outcome``'s ranking."""
    return {entry["seat"]: entry["place"] for entry in outcome.get("ranking") or []}


def finished_game_result(game: Game, user=None) -> FinishedGame:
    """Scores and placements of a finished game, read from the stored ``outcome``."""
    outcome = game.outcome or {}
    seats = list(game.seats.all())
    scores = outcome.get("scores") or []
    placements = _placements(outcome)
    result = FinishedGame(game=game)
    for seat in seats:
        breakdown = scores[seat.order] if seat.order < len(scores) else None
        line = PlayerResult(seat=seat, score=breakdown["total"] if breakdown else None,
                            placement=placements.get(seat.order), breakdown=breakdown)
        result.results.append(line)
        if user is not None and seat.user_id == user.pk:
            result.viewer = line
    result.results.sort(key=lambda r: (r.placement is None, r.placement or 0, r.seat.order))
    return result


def games_finished_for(user) -> list[FinishedGame]:
    """The user's finished games with results, most recently finished first."""
    games = _user_games(user, GameStatus.FINISHED).order_by("-finished_at")
    return [finished_game_result(game, user) for game in games]


def game_state(game: Game) -> Any:
    """The engine state of a started game (deserialised from the snapshot)."""
    return engine.from_json(game.state)


def game_view_for_seat(state: Any, seat: Seat | None) -> dict:
    """``engine.view`` for the viewer's seat (None: spectator)."""
    return engine.view(state, None if seat is None else seat.order)


def legal_actions_for_seat(state: Any, seat: Seat | None) -> list[dict]:
    """The viewer's legal actions, with a label each; empty for spectators."""
    if seat is None or engine.is_over(state):
        return []
    return [
        {"action": action, "label": engine.describe_action(action, state, seat.order)}
        for action in engine.legal_actions(state, seat.order)
    ]


def game_moves(game: Game) -> QuerySet[Move]:
    """The game's move log, oldest first."""
    return Move.objects.filter(game=game).order_by("seq")


def event_text(event: dict, names: dict[int, str]) -> str:
    """An engine event's text with ``{player}`` replaced by the seat's player name."""
    text = str(event.get("text", ""))
    seat = event.get("seat")
    if "{player}" in text:
        text = text.replace("{player}", names.get(seat, f"Seat {seat}"))
    return text


@dataclass
class RoundLog:
    """The public events of one round, oldest first."""

    round: int
    entries: list[dict] = field(default_factory=list)


def move_log(moves: list[Move], names: dict[int, str]) -> list[RoundLog]:
    """Every public event of ``moves`` (oldest first) grouped by round, newest round first.

    Rounds are numbered from 1; an event of kind ``round`` (carrying ``round``) opens the
    next group. The first entry of a move taken by the timeout policy is marked ``timed_out``,
    that of a move played from the action queue ``queued``.
    """
    rounds = [RoundLog(round=1)]
    for move in moves:
        for position, event in enumerate(move.events or []):
            if event.get("kind") == "round" and isinstance(event.get("round"), int):
                rounds.append(RoundLog(round=event["round"]))
            rounds[-1].entries.append({
                "seq": move.seq,
                "text": event_text(event, names),
                "forced": bool(event.get("forced")),
                "automatic": move.seat is None,
                # the mark belongs to the move's own line, not to what the game did after it
                "timed_out": move.timed_out and position == 0,
                "queued": move.queued and position == 0,
            })
    return [r for r in reversed(rounds) if r.entries]
