"""``manage.py playtest --players N --seed S``: play one whole game through the services.

It creates N throwaway users and a game, then plays random legal actions to the end by the
same service calls the views make (``game_create``, ``seat_join``, ``game_start``,
``game_submit_action`` with the expected version, and ``game_resolve`` when the engine
needs a resolution), and prints the final scores and the time each submission took.

Background tasks are not run inline during the playtest: the command resolves completed
phases itself, as the worker would, so a submission's time is what a player's request
costs (with ``REDIS_URL`` unset the tasks go to Celery's in-memory broker and are dropped).
"""
from __future__ import annotations

import math
import random
import secrets
import time
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from engine.simulate import choose
from games import services
from games.models import Game, GameStatus
from games.rules import load_game
from orleans_site.celery import app
from orleans_site.tasks import flush_publishes


def percentile(values: list[float], pct: float) -> float:
    """The ``pct``-th percentile (0-100) of ``values`` by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


@contextmanager
def tasks_not_inline():
    """Queue Celery tasks instead of running them inside the caller (restored on exit)."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield
    finally:
        flush_publishes()  # what waits to be published goes to the broker, not run eagerly on the publisher thread
        app.conf.task_always_eager = previous


class Command(BaseCommand):
    """Play a random game to the end through the service layer and time it."""

    help = "Play one random game through the services; print scores and ms per submission."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
        parser.add_argument("--seed", type=int, default=1,
                            help="engine seed of the game and of the random players")
        parser.add_argument("--max-submissions", type=int, default=20000,
                            help="give up after this many submissions")

    def handle(self, *args, players: int, seed: int, max_submissions: int, **options) -> None:
        with tasks_not_inline():
            game, submit_ms, resolve_ms = self.play(players, seed, max_submissions)
        self.report(game, submit_ms, resolve_ms)

    def play(self, players: int, seed: int, max_submissions: int):
        """Create the users and the game, play it out; return (game, submit ms, resolve ms)."""
        tag = f"playtest-{seed}-{secrets.token_hex(3)}"
        users = [
            # No email address: their notifications are recorded but never sent.
            get_user_model().objects.create_user(username=f"{tag}-{i + 1}", email="")
            for i in range(players)
        ]
        game = services.game_create(
            creator=users[0], name=f"Playtest {players}p seed {seed}",
            max_seats=Game.MAX_SEATS, options={}, seed=seed,
        )
        for user in users[1:]:
            services.seat_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        if game.status == GameStatus.OPEN:
            services.game_start(game_id=game.pk, user=users[0])
        seat_users = {seat.order: seat.user for seat in game.seats.select_related("user")}
        rng = random.Random(seed ^ 0x5EED)
        submit_ms: list[float] = []
        resolve_ms: list[float] = []
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != GameStatus.ACTIVE:
                return game, submit_ms, resolve_ms
            rules_engine, state = load_game(game)
            if rules_engine.needs_resolution(state):
                started = time.perf_counter()
                services.game_resolve(game_id=game.pk, expected_version=game.version)
                resolve_ms.append((time.perf_counter() - started) * 1000)
                continue
            if len(submit_ms) >= max_submissions:
                raise CommandError(f"The game did not end within {max_submissions} submissions.")
            awaited = rules_engine.awaiting(state)
            if not awaited:
                raise CommandError(f"Stuck at version {game.version}: nobody is awaited.")
            seat = rng.choice(sorted(awaited))
            legal = rules_engine.legal_actions(state, seat)
            action = choose(rng, awaited[seat], legal, state.data, seat)
            started = time.perf_counter()
            services.game_submit_action(
                game_id=game.pk, user=seat_users[seat], action=action,
                expected_version=game.version,
            )
            submit_ms.append((time.perf_counter() - started) * 1000)

    def report(self, game: Game, submit_ms: list[float], resolve_ms: list[float]) -> None:
        """Print the final placements and scores, then the timing figures."""
        names = {seat.order: seat.display_name for seat in game.seats.select_related("user")}
        outcome = game.outcome or {}
        out = self.stdout.write
        out(f'Game {game.pk} "{game.name}": {game.get_status_display().lower()} at move '
            f"{game.version} ({len(submit_ms)} submissions, {len(resolve_ms)} resolutions)")
        out("Final scores:")
        for entry in outcome.get("ranking", []):
            out(f"  {entry['place']}. {names[entry['seat']]}  {entry['total']}")
        if submit_ms:
            out(f"ms per submission: median {percentile(submit_ms, 50):.1f}, "
                f"p95 {percentile(submit_ms, 95):.1f} (n={len(submit_ms)})")
        if resolve_ms:
            out(f"ms per resolution: median {percentile(resolve_ms, 50):.1f}, "
                f"p95 {percentile(resolve_ms, 95):.1f} (n={len(resolve_ms)})")
