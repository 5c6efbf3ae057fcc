"""Celery tasks: thin, idempotent, keyed by (game_id, version).

Each task only fetches and calls a service; the service re-checks the version under the
row lock, so a duplicate or late delivery does nothing. A game whose state cannot be
loaded (``GameDamaged``, reported to the operators once by ``games.rules.load_game``) is
skipped: the task returns normally (no retry), a sweep goes on with the other games.
"""
from __future__ import annotations

import logging
import time
from contextvars import ContextVar
from dataclasses import dataclass, field

from celery import shared_task
from django.conf import settings

from games.errors import GameDamaged
from orleans_site.tasks import tasks_run_eagerly

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


@dataclass
class _BotChain:
    """The bot tasks run one inside another in this thread: with eager tasks (the embedded
    default) each bot move's commit runs the next bot's task at once, inside the request."""

    runs: int = 0
    started: float = field(default_factory=time.monotonic)

    def spent(self) -> bool:
        """True once the chain made ``GAMES_BOT_CHAIN_MOVES`` runs or took
        ``GAMES_BOT_CHAIN_MS`` milliseconds."""
        return self.runs >= settings.GAMES_BOT_CHAIN_MOVES \
            or (time.monotonic() - self.started) * 1000 >= settings.GAMES_BOT_CHAIN_MS


_bot_chain: ContextVar[_BotChain | None] = ContextVar("games_bot_chain", default=None)


@shared_task(acks_late=True, ignore_result=True)
def bot_move_task(game_id: str, version: int) -> bool:
    """Play the bot move awaited at ``version`` (``services.game_bot_move``, idempotent: a
    duplicate or stale task does nothing). Returns True if a move was stored.

    Bounded: a chain of bot tasks run one inside another (eager tasks: each move's commit
    runs the next task in the same request) stops once it is ``_BotChain.spent``; the
    rest is played on the next page load or poll (``continue_bot_turn``). With a worker
    each task runs on its own and the chain goes on task by task. A failing bot move is
    logged and not raised: it must not turn the player's committed request into an error
    (``play_stalled_bots_task`` tries again).
    """
    from games.services import game_bot_move

    chain = _bot_chain.get()
    token = None
    if chain is None:
        chain = _BotChain()
        token = _bot_chain.set(chain)
    elif chain.spent():
        return False
    chain.runs += 1  # before the call: the next task of the chain runs inside it
    try:
        return game_bot_move(game_id=game_id, expected_version=version) is not None
    except GameDamaged:
        return False
    except Exception:  # noqa: BLE001 - see the docstring
        logger.exception("bot move in game %s at version %s failed", game_id, version)
        return False
    finally:
        if token is not None:
            _bot_chain.reset(token)


def continue_bot_turn(game) -> bool:
    """On a page load or poll of ``game`` (a ``Game`` row): with eager tasks, play the bot
    turns a bounded chain left over (``bot_move_task``, run here). With a worker nothing is
    done here (its chain goes on; the sweep recovers a lost task). True if a move was made."""
    if not bot_turn_pending(game):
        return False
    return bot_move_task(str(game.pk), game.version)


def bot_turn_pending(game) -> bool:
    """True if ``continue_bot_turn(game)`` would play: tasks run eagerly and ``game`` awaits a
    seat a bot plays (``selectors.bot_turn_waiting``: no query for a game without bots). Reads
    ``pk``, ``status``, ``has_bots`` and ``absent_bot_level`` only (the lean poll's row)."""
    from games.selectors import bot_turn_waiting

    if not (game.has_bots or game.absent_bot_level):  # most games: no look at Celery's settings
        return False
    return tasks_run_eagerly() and bot_turn_waiting(game)


@shared_task(ignore_result=True)
def play_stalled_bots_task() -> int:
    """Beat sweep (every 2 minutes): play the bot turns awaited for more than
    ``GAMES_BOT_STALLED_SECONDS`` (their task was lost: broker or worker down), each
    through the idempotent service at the version seen here. Returns how many moves were
    made."""
    from games.selectors import bot_turns_stalled

    return sum(bot_move_task(str(pk), version) for pk, version in bot_turns_stalled())
