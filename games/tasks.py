"""Celery tasks: thin, idempotent, keyed by (game_id, version).

Each task only fetches and calls a service; the service re-checks the version under the
row lock, so a duplicate or late delivery does nothing.
"""
from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def resolve_game_task(game_id: str, version: int) -> bool:
    """Resolve the simultaneous phase that became complete at ``version``.

    Returns True if a resolution was recorded, False if the game had moved on.
    """
    from games.services import game_resolve

    return game_resolve(game_id=game_id, expected_version=version) is not None
