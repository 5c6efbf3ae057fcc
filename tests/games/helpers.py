"""Small helpers for site tests that work with the real or the fake engine."""
from __future__ import annotations

import engine
from games.models import Game, Seat


def awaited_move(game: Game) -> tuple[Seat, dict]:
    """An awaited seat of ``game`` and its first legal action."""
    state = engine.from_json(game.state)
    for order in sorted(engine.awaiting(state)):
        actions = engine.legal_actions(state, order)
        if actions:
            return game.seats.get(order=order), actions[0]
    raise AssertionError("no seat has a legal action")


def idle_seat(game: Game) -> Seat | None:
    """A seat of ``game`` that the engine is not awaiting, if any."""
    state = engine.from_json(game.state)
    awaited = engine.awaiting(state)
    return game.seats.exclude(order__in=list(awaited)).first()


def everyone_picks(game: Game, n: int = 1) -> None:
    """Fake engine: every seat of a fresh game picks ``n`` (the phase is then complete)."""
    from games.services import game_submit_action

    for version, seat in enumerate(game.seats.order_by("order"), start=game.version):
        game_submit_action(game_id=game.pk, user=seat.user, action={"type": "pick", "n": n},
                           expected_version=version)


def play_fake_game_to_the_end(game: Game, capture, *, winner=None) -> Game:
    """Fake engine: play every round (``winner`` picks 2, the others 1), resolving each
    phase through the on-commit task; ``capture`` is django_capture_on_commit_callbacks."""
    from games.services import game_submit_action
    from tests.games.fake_engine import ROUNDS

    for _round in range(ROUNDS):
        for seat in game.seats.order_by("order"):
            game.refresh_from_db()
            with capture(execute=True):
                game_submit_action(game_id=game.pk, user=seat.user,
                                   action={"type": "pick", "n": 2 if seat.user == winner else 1},
                                   expected_version=game.version)
    game.refresh_from_db()
    assert game.is_finished
    return game
