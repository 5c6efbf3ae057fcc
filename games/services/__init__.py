"""The single write path for games, one concern a module.

- ``lobby``: game_create, seat_join, seat_leave, game_start, game_cancel, game_expire_open,
  game_set_public
- ``play``: game_submit_action, game_resolve, game_timeout, game_vote_end
- ``queue``: seat_queue_change (the action queue)
- ``bots``: game_bot_move (a bot's move), seat_take_back (back from the takeover bot)
- ``undo``: game_take_back (a player takes back their own last decision)
- ``ratings``: game_rate (openskill ratings from a finished rated game, once)
- ``chat``: chat_post, chat_mark_read, chat_mute, chat_set_hidden
- ``live``: touch_live (what a page shows that is not a move: ``Game.live_version``)
- ``rematch``: game_rematch, rematch_accept, rematch_decline
- ``invitations``: invitation_create, invitation_accept, invitation_decline
- ``clocks``: vacation_start, vacation_stop and the clock around a decision
- ``imports``: game_import (a finished game from its export document, replayed first)
- ``repair``: game_rebuild_snapshot (a snapshot rebuilt from a log that replays cleanly)
- ``store``: writing a move (snapshot, log row, awaited seats) for all of the above
- ``outbox``: the only place the games app calls ``notifications``

Every service is keyword-only, runs in one ``transaction.atomic`` block and locks the
game row with ``select_for_update`` before reading anything it will change. Errors a user
can cause are ``games.errors.ServiceError`` subclasses; a rules engine's ``RulesError`` passes
through unchanged; a game whose state cannot be loaded raises ``GameDamaged``
(``games.rules.load_game``). This package re-exports every public name, so
``from games import services; services.game_submit_action(...)`` keeps working.
"""
from __future__ import annotations

from games.errors import (
    AlreadySeated, GameFull, GameNotFound, InvalidGameOptions, InvitationError, InviteRequired, NoAbsentPlayer, NotAbsent, NotCreator,
    NotEnoughPlayers, NotSeated, QueueChanged, QueueError, ServiceError, StaleVersion, VacationError, WrongStatus,
)
from games.selectors import (
    open_game_cutoff, seats_past_deadline, vacation_allowance_seconds, vacation_days_left, vacation_used_seconds,
    vacations_used_up,
)  # reads that lived here before the split
from games.services.bots import game_bot_move, seat_take_back
from games.services.chat import chat_mark_read, chat_mute, chat_post, chat_set_hidden
from games.services.clocks import vacation_start, vacation_stop
from games.services.invitations import invitation_accept, invitation_create, invitation_decline
from games.services.lobby import (
    game_cancel, game_create, game_expire_open, game_set_public, game_start, seat_join, seat_leave,
)
from games.services.locks import GameId
from games.services.play import (
    MAX_TIMEOUT_ACTIONS, STALE_WINDOW, _only_others_moved_independently, game_resolve, game_submit_action,
    game_timeout, game_vote_end, moved_independently,
)
from games.services.imports import ImportRefused, game_import
from games.services.queue import ACTION_QUEUE_LIMIT, seat_queue_change
from games.services.rematch import game_rematch, rematch_accept, rematch_decline
from games.services.repair import NotRepairable, Repair, game_rebuild_snapshot
from games.services.ratings import game_rate
from games.services.undo import game_take_back

__all__ = [
    "ACTION_QUEUE_LIMIT", "MAX_TIMEOUT_ACTIONS", "STALE_WINDOW",
    "AlreadySeated", "GameFull", "GameId", "GameNotFound", "InvalidGameOptions", "InvitationError", "InviteRequired",
    "NoAbsentPlayer", "NotAbsent", "NotCreator", "NotEnoughPlayers", "NotSeated", "QueueChanged", "QueueError",
    "ServiceError", "StaleVersion", "VacationError", "WrongStatus",
    "_only_others_moved_independently",
    "chat_mark_read", "chat_mute", "chat_post", "chat_set_hidden", "game_rematch", "rematch_accept", "rematch_decline",
    "NotRepairable", "Repair", "game_rebuild_snapshot", "ImportRefused", "game_import",
    "game_bot_move", "game_cancel", "game_create", "game_expire_open", "game_resolve", "game_start", "game_submit_action",
    "game_rate", "game_set_public", "game_take_back", "game_timeout", "game_vote_end",
    "invitation_accept", "invitation_create", "invitation_decline",
    "moved_independently", "open_game_cutoff",
    "seat_join", "seat_leave", "seat_queue_change", "seat_take_back", "seats_past_deadline",
    "vacation_allowance_seconds", "vacation_days_left", "vacation_start", "vacation_stop",
    "vacation_used_seconds", "vacations_used_up",
]
