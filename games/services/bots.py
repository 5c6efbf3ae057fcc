"""Bots at the table (issue #10): a bot's move, and a player taking their seat back.

A bot plays a bot seat (``Seat.bot_level``) or, while its player is absent, a seat of a
game with the takeover option (``Game.absent_bot_level``); ``games.bots.playing_level``
says which. Its move is made by ``games.tasks.bot_move_task``, queued on commit whenever
such a seat is awaited (``store._queue_bot_move``), through the same write path as a
player's submission (``play._play_move``).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from games import bots
from games.errors import NotAbsent, NotSeated
from games.models import GameStatus, Move, MoveSource, Seat
from games.rules import load_game
from games.services.clocks import _player_back
from games.services.live import touch_live
from games.services.locks import GameId, _lock_game, _require_active
from games.services.play import _play_move


@transaction.atomic
def game_bot_move(*, game_id: GameId, expected_version: int) -> Move | None:
    """Play one bot's move in the game at ``expected_version``; idempotent.

    Does nothing (returns None) unless the game is active, still at ``expected_version``
    and a bot plays one of the awaited seats, so a duplicate or late task changes nothing.
    The awaited bot seat with the lowest order moves: its bot is given only the engine's
    ``view(state, seat)`` and ``legal_actions(state, seat)`` and an rng seeded from the
    game id, the version and the seat (``bots.decision_rng``). The action goes through the
    player's write path (the engine validates it) as a move of source ``bot``, and the game
    is flagged ``has_bots``. Returns the move. Raises ``GameDamaged`` for a game that cannot
    be loaded, ``GameNotFound``.
    """
    game = _lock_game(game_id)
    if game.status != GameStatus.ACTIVE or game.version != expected_version:
        return None
    rules_engine, state = load_game(game)
    awaited = Seat.objects.filter(game=game, order__in=list(rules_engine.awaiting(state))).order_by("order")
    seat = next((s for s in awaited if bots.playing_level(game, s)), None)
    if seat is None:
        return None
    action = bots.choose(game.rules, bots.playing_level(game, seat), rules_engine.view(state, seat.order),
                         rules_engine.legal_actions(state, seat.order),
                         bots.decision_rng(game.pk, game.version, seat.order))
    if not game.has_bots:
        game.has_bots = True
        game.save(update_fields=["has_bots"])
    return _play_move(game, rules_engine, state, seat, action, source=MoveSource.BOT)


@transaction.atomic
def seat_take_back(*, game_id: GameId, user) -> Seat:
    """The user takes their seat back from the bot that plays it while they are absent.

    The seat is no longer absent (its timeouts in a row start again from 0) and, when no
    seat is absent any more, the votes to end the game are dropped. Raises ``NotSeated``,
    ``WrongStatus``, ``NotAbsent`` (the seat is not absent). Returns the seat.
    """
    game = _lock_game(game_id)
    _require_active(game)
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise NotSeated(gettext("You do not have a seat at this game."))
    if not seat.absent:
        raise NotAbsent(gettext("You are playing this seat yourself already."))
    _player_back(game, seat)
    touch_live([game.pk])  # the others' pages drop the absence and the vote to end
    return seat
