"""Helpers for the adversarial tests: database fingerprints and real-engine play-to-a-state."""
from __future__ import annotations

import html
import json
import os
import re

import pytest

import engine
from games import services
from games.models import Game, Move, Seat

HTMX = {"HTTP_HX_REQUEST": "true"}

_DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = _DATABASE_URL.startswith(("postgres://", "postgresql://", "pgsql://"))
needs_postgres = pytest.mark.skipif(
    not ON_POSTGRES,
    reason="needs DATABASE_URL=postgres://... (real row locks and concurrent connections; "
    "run by .ci/run)",
)


def game_snapshot(game_id) -> dict:
    """Everything a refused request must leave untouched for one game."""
    game = Game.objects.get(pk=game_id)
    return {
        "state": game.state,
        "version": game.version,
        "status": game.status,
        "outcome": game.outcome,
        "moves": list(
            Move.objects.filter(game_id=game_id).order_by("seq")
            .values_list("seq", "seat", "action", "events")
        ),
        "seats": list(
            Seat.objects.filter(game_id=game_id).order_by("order")
            .values_list("user_id", "order", "colour", "awaiting")
        ),
    }


def db_fingerprint() -> tuple:
    """Every Game, Seat and Move row (for "this request wrote nothing")."""
    games = sorted(
        (str(g["id"]), g["status"], g["version"], json.dumps(g["state"], sort_keys=True),
         g["is_public"], g["max_seats"], str(g["started_at"]), str(g["finished_at"]))
        for g in Game.objects.values(
            "id", "status", "version", "state", "is_public", "max_seats", "started_at",
            "finished_at")
    )
    seats = sorted(
        (str(s["game_id"]), s["user_id"], s["order"], s["colour"], s["awaiting"])
        for s in Seat.objects.values("game_id", "user_id", "order", "colour", "awaiting")
    )
    moves = sorted(
        (str(m["game_id"]), m["seq"], m["seat"]) for m in Move.objects.values("game_id", "seq", "seat")
    )
    return games, seats, moves


def state_of(game: Game):
    game.refresh_from_db()
    return engine.from_json(game.state)


def user_at(game: Game, order: int):
    return Seat.objects.select_related("user").get(game=game, order=order).user


def resolve_if_needed(game: Game) -> bool:
    """Run the resolution the on-commit task would run (tests without transactions)."""
    game.refresh_from_db()
    if game.is_active and engine.needs_resolution(engine.from_json(game.state)):
        services.game_resolve(game_id=game.pk, expected_version=game.version)
        return True
    return False


def simple_choice(kind: str, legal: list[dict]) -> dict:
    """A deterministic, quick policy: submit plans as they are, pass, else the first action."""
    for wanted in ("submit_plan", "pass", "bathhouse_done"):
        for action in legal:
            if action["type"] == wanted:
                return {"type": wanted}
    if kind == "draw":
        draws = [a for a in legal if a["type"] == "draw"]
        if draws:
            return max(draws, key=lambda a: a["count"])
    return legal[0]


def play_until(game: Game, stop, *, max_steps: int = 2000, choose=simple_choice) -> Game:
    """Play ``game`` through the services until ``stop(state)`` is true."""
    for _ in range(max_steps):
        state = state_of(game)
        if stop(state):
            return game
        if resolve_if_needed(game):
            continue
        awaited = engine.awaiting(state)
        assert awaited, "an active game always awaits someone or a resolution"
        order = min(awaited)
        action = choose(awaited[order], engine.legal_actions(state, order))
        services.game_submit_action(game_id=game.pk, user=user_at(game, order), action=action,
                                    expected_version=game.version)
    raise AssertionError("stop condition never reached")


def new_started_game(creator, *joiners, seed: int | None = None, **options) -> Game:
    """A game with ``creator`` and ``joiners`` filling every seat (so it starts), on ``seed``."""
    game = services.game_create(creator=creator, name="Adversarial game",
                                max_seats=1 + len(joiners), options=options)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in joiners:
        services.seat_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.is_active
    return game


_TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def normalised(text: str, *games: Game) -> str:
    """HTML with per-render noise removed (CSRF tokens, game ids) for comparisons."""
    text = _TOKEN.sub("<csrf>", text)
    for number, game in enumerate(games):
        text = text.replace(str(game.pk), f"<game{number}>")
    return text


def flat(text: str) -> str:
    """Unescaped HTML without whitespace, to search for JSON-ish renderings of values."""
    return re.sub(r"\s+", "", html.unescape(text))
