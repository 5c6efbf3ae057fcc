"""Repairing a stored game from its log: the snapshot rebuilt by replay (``games_verify --fix``).

The log is the record; the snapshot is a cache of it. When the log replays cleanly under the
engine now registered for the game's rules (every move accepted, the same events), the
snapshot, version and engine pin are rewritten from the replay, and a game the replay says
is over is finished with the replayed result. A log that does not replay is never
"repaired": that needs a person.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.errors import ServiceError
from games.integrity import replay_log
from games.models import GameStatus
from games.services.live import touch_live
from games.services.locks import GameId, _lock_game
from games.services.store import _sync_awaiting, store_seat_results
from games.tasks import resolve_game_task
from orleans_site.tasks import enqueue_on_commit


class NotRepairable(ServiceError):
    """The game's log does not replay under this engine, so its snapshot cannot be rebuilt."""

    default_code = "not_repairable"


@dataclass(frozen=True)
class Repair:
    """What ``game_rebuild_snapshot`` rewrote: the moves replayed and the engine version now pinned."""

    game_id: str
    moves: int
    engine_version: str


@transaction.atomic
def game_rebuild_snapshot(*, game_id: GameId) -> Repair:
    """Rebuild ``game_id``'s snapshot from its log (``games.integrity.replay_log``).

    Writes ``state``, ``version`` (the number of moves), ``engine_version`` (the current
    engine's: the log replays under it), the seats' awaited decisions, and, when the replayed
    game is over, ``status``/``outcome``/``finished_at``. A game finished early by vote keeps
    its status and result. Raises ``GameNotFound`` and ``NotRepairable`` (the reason: the
    first move that does not replay), changing nothing.
    """
    game = _lock_game(game_id)
    if game.status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
        raise NotRepairable(f"the game is {game.status}: there is nothing played to replay")
    counted = game.status == GameStatus.FINISHED  # already in its players' records
    rules_engine, state, moves, divergence = replay_log(game)
    if divergence is not None:
        raise NotRepairable(divergence.why)
    game.state = rules_engine.to_json(state)
    game.version = moves
    game.engine_version = rules_engine.ENGINE_VERSION
    if rules_engine.is_over(state):
        game.status = GameStatus.FINISHED
        game.finished_at = game.finished_at or timezone.now()
        game.outcome = rules_engine.outcome(state)
    game.save(update_fields=["state", "version", "engine_version", "status", "finished_at", "outcome"])
    touch_live([game.pk])  # it may finish at the version the open pages show
    _sync_awaiting(game, state)
    if game.status == GameStatus.FINISHED:
        store_seat_results(game, counted=counted)
    if game.status == GameStatus.ACTIVE and rules_engine.needs_resolution(state):
        enqueue_on_commit(resolve_game_task, str(game.pk), game.version)
    return Repair(str(game.pk), moves, game.engine_version)
