"""Row locks and status checks shared by every service module.

Every service runs in one ``transaction.atomic`` block and locks the game row with
``select_for_update`` before reading anything it will change, so two requests for the
same game are serialised.
"""
from __future__ import annotations

import uuid

from django.utils.translation import gettext

from games.errors import GameNotFound, NotCreator, WrongStatus
from games.models import Game, GameStatus

GameId = uuid.UUID | str


def _lock_game(game_id: GameId) -> Game:
    """Lock and return the game row (its creator read with it, not locked: the page drawn
    from the row after a write names them); must be called inside ``transaction.atomic``.
    Raises ``GameNotFound``."""
    game = Game.objects.select_for_update(of=("self",)).select_related("creator").filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(gettext("No such game."))
    return game


def _require_status(game: Game, status: GameStatus, message: str) -> None:
    """Raise ``WrongStatus(message)`` unless the game is in ``status``."""
    if game.status != status:
        raise WrongStatus(message)


def _require_creator(game: Game, user) -> None:
    """Raise ``NotCreator`` unless ``user`` created the game."""
    if game.creator_id != user.pk:
        raise NotCreator(gettext("Only the game's creator can do that."))
