"""Fingerprints for "this request changed nothing" and HTML normalised for comparisons."""
from __future__ import annotations

import html
import json
import re

from games.models import Game, Move, Seat


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
