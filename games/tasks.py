"""Celery tasks: thin, idempotent, keyed by (game_id, version).

Each task only fetches and calls a service; the service re-checks the version under the
row lock, so a duplicate or late delivery does nothing. A game whose state cannot be
loaded (``GameDamaged``, reported to the operators once by ``games.rules.load_game``) is
skipped: the task returns normally (no retry), a sweep goes on with the other games.
"""
from __future__ import annotations

import logging

from celery import shared_task

from games.errors import GameDamaged

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def resolve_game_task(game_id: str, version: int) -> bool:
    """Resolve the simultaneous phase that became complete at ``version``.

    Returns True if a resolution was recorded, False if the game had moved on or is
    damaged.
    """
    from games.services import game_resolve

    try:
        return game_resolve(game_id=game_id, expected_version=version) is not None
    except GameDamaged:
        return False


def _resolve_stalled(game_id, version: int) -> bool:
    """One game of the stalled sweep: True if a resolution was recorded; a damaged or
    failing game is skipped (logged), never the end of the sweep."""
    try:
        return resolve_game_task(game_id, version)  # run here, not queued
    except Exception:  # noqa: BLE001 - one broken game must not stop the sweep for all
        logger.exception("resolving stalled game %s failed", game_id)
        return False


@shared_task(ignore_result=True)
def resolve_stalled_games_task() -> int:
    """Beat sweep (every 2 minutes): resolve active games that wait only for a resolution.

    An active game where no seat is awaited needs ``engine.resolve``; normally the task
    queued on commit did it, but it is lost if the broker or worker was down. Each game is
    resolved through the idempotent service at the version seen here. Returns how many
    resolutions were recorded. A damaged game is skipped (``_resolve_stalled``).
    """
    from games.selectors import games_stalled

    return sum(_resolve_stalled(pk, version) for pk, version in games_stalled())


@shared_task(ignore_result=True)
def enforce_deadlines_task() -> int:
    """Beat sweep (every minute): time out awaited seats whose time bank ran out.

    First ends the vacations that used up the year's days (their clocks start again),
    then applies the timeout policy to each seat past its deadline through the idempotent
    ``game_timeout`` service, at the game version read just before (an earlier timeout in
    the same game moves it on). The service re-checks version and deadline under the row
    lock, so a second or concurrent sweep does nothing more. A damaged game is skipped
    (reported once by ``load_game``). Returns how many seats were timed out.
    """
    from django.contrib.auth import get_user_model

    from games.models import Game
    from games.selectors import seats_past_deadline, vacations_used_up
    from games.services import game_timeout, vacation_stop

    for user in get_user_model().objects.filter(pk__in=vacations_used_up()):
        vacation_stop(user=user)
    timed_out = 0
    for game_id, order in seats_past_deadline():
        version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        if version is None:
            continue
        try:
            timed_out += bool(game_timeout(game_id=game_id, seat_order=order,
                                           expected_version=version))
        except GameDamaged:
            continue
        except Exception:  # noqa: BLE001 - one broken game must not stop the sweep for all
            logger.exception("timeout of seat %s in game %s failed", order, game_id)
    return timed_out


@shared_task(ignore_result=True)
def expire_open_games_task() -> int:
    """Beat sweep (hourly): cancel open games older than ``GAMES_OPEN_GAME_MAX_DAYS``
    days, emailing each creator. Returns how many were cancelled."""
    from games.selectors import games_open_expired
    from games.services import game_expire_open

    return sum(game_expire_open(game_id=pk) for pk in games_open_expired())
