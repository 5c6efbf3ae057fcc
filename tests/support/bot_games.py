"""Playing a game with bot seats through the services: the human seats play the engine
simulator's random policy, the bots play on their own (their tasks, queued on commit)."""
from __future__ import annotations

import random

from engine.simulate import choose
from games import services
from games.models import Game, GameStatus
from games.rules import load_game


def human_move(game: Game, rng: random.Random) -> bool:
    """If a human seat of ``game`` is awaited, it makes one random legal move through
    ``game_submit_action`` (the lowest such seat); True if it did."""
    game.refresh_from_db()
    rules_engine, state = load_game(game)
    awaited = rules_engine.awaiting(state)
    for seat in game.seats.filter(order__in=list(awaited), user__isnull=False).select_related("user"):
        if seat.absent and game.absent_bot_level:
            continue  # the takeover bot plays it
        action = choose(rng, awaited[seat.order], rules_engine.legal_actions(state, seat.order), state.data,
                        seat.order)
        services.game_submit_action(game_id=game.pk, user=seat.user, action=action,
                                    expected_version=game.version)
        return True
    return False


def is_active(game: Game) -> bool:
    """``game`` read again: True while it is being played."""
    game.refresh_from_db()
    return game.status == GameStatus.ACTIVE
