"""``python manage.py bench_async``: figures for asynchronous play (run by ``make bench``).

1. Resolution latency with a real Celery worker: for ``--games`` two-player games, the
   time from the commit of the last plan of round 1 to the state resolved by the worker
   (median and 95th percentile, milliseconds). Needs ``REDIS_URL``; otherwise skipped.
2. The digest sweep for ``--users`` users: recording the day's digests (one query pass)
   and rendering + sending them with the in-memory mail backend (seconds).

It writes users and games into the configured database: ``make bench`` points it at a
scratch database (PostgreSQL ``BENCH_PG_URL`` when it answers, else a SQLite file
``.bench.sqlite3``).
This is a measurement, not a test: it prints figures. It lives in the notifications app
because it measures notification delivery too (the games app does not import notifications).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import time
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test import override_settings
from django.utils import timezone

from games import services
from games.models import Game, GameStatus
from notifications.models import Preferences, TurnEmails
from notifications.services import digests_record, notification_deliver

PLAN = {"type": "submit_plan"}


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=50)
        parser.add_argument("--users", type=int, default=1000)
        parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for one resolution")

    def handle(self, *args, games: int, users: int, timeout: float, **options):
        run = uuid.uuid4().hex[:8]
        summary: dict = {}
        if settings.REDIS_URL:
            summary.update(self._resolution_latency(run, games, timeout))
        else:
            self.stdout.write("resolution latency with a real worker: skipped (REDIS_URL is not set)")
        summary.update(self._digest_sweep(run, users))
        self.stdout.write(json.dumps(summary))

    # --- 1. last submission -> resolved state, through a real worker -------------------------
    def _resolution_latency(self, run: str, games: int, timeout: float) -> dict:
        log = open(os.path.join(settings.BASE_DIR, ".bench-worker.log"), "w")
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "orleans_site", "worker", "--pool", "solo",
             "--loglevel", "WARNING", "--without-heartbeat", "--without-mingle", "--without-gossip"],
            stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy(), cwd=settings.BASE_DIR,
        )
        try:
            latencies = []
            User = get_user_model()
            for i in range(games):
                a = User.objects.create_user(f"bench-{run}-a{i}", f"bench-{run}-a{i}@example.com", "x")
                b = User.objects.create_user(f"bench-{run}-b{i}", f"bench-{run}-b{i}@example.com", "x")
                game = services.game_create(creator=a, name=f"bench {run} {i}", max_seats=2, options={}, seed=i)
                services.seat_join(game_id=game.pk, user=b)
                game.refresh_from_db()
                first, second = game.seats.order_by("order")
                services.game_submit_action(game_id=game.pk, user=first.user, action=PLAN,
                                            expected_version=game.version)
                services.game_submit_action(game_id=game.pk, user=second.user, action=PLAN,
                                            expected_version=game.version + 1)
                committed_at = time.perf_counter()
                target = game.version + 3  # two plans, then the worker's resolution
                deadline = committed_at + timeout
                while Game.objects.filter(pk=game.pk, version__lt=target).exists():
                    if time.perf_counter() > deadline:
                        raise SystemExit(f"the worker did not resolve game {i} within {timeout} s "
                                         f"(see .bench-worker.log)")
                    time.sleep(0.002)
                latencies.append((time.perf_counter() - committed_at) * 1000)
            median, p95 = statistics.median(latencies), _percentile(latencies, 0.95)
            self.stdout.write(f"last submission -> resolved by the worker, {games} games: "
                              f"median {median:.1f} ms, p95 {p95:.1f} ms")
            return {"resolve_games": games, "resolve_median_ms": round(median, 1), "resolve_p95_ms": round(p95, 1)}
        finally:
            worker.terminate()
            worker.wait(timeout=20)
            log.close()

    # --- 2. the daily digest sweep for many users --------------------------------------------
    def _digest_sweep(self, run: str, users: int) -> dict:
        User = get_user_model()
        now = timezone.now()
        User.objects.bulk_create(
            [User(username=f"digest-{run}-{i}", email=f"digest-{run}-{i}@example.com") for i in range(users)]
        )
        created = list(User.objects.filter(username__startswith=f"digest-{run}-").order_by("pk"))
        Preferences.objects.bulk_create(
            [Preferences(user=u, turn_emails=TurnEmails.DIGEST, digest_hour=now.hour, time_zone="UTC")
             for u in created]
        )
        # every user waits in one active game (pairs of users share a game)
        for i in range(0, len(created) - 1, 2):
            game = services.game_create(creator=created[i], name=f"digest {run} {i}", max_seats=2,
                                        options={}, seed=i)
            services.seat_join(game_id=game.pk, user=created[i + 1])
        waiting = Game.objects.filter(name__startswith=f"digest {run}", status=GameStatus.ACTIVE).count()
        t0 = time.perf_counter()
        ids = digests_record(now=now + dt.timedelta(seconds=1))
        recorded = time.perf_counter() - t0
        t0 = time.perf_counter()
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
            sent = sum(notification_deliver(notification_id=pk) == "sent" for pk in ids)
        delivered = time.perf_counter() - t0
        self.stdout.write(f"digest sweep, {users} users in {waiting} games: record {recorded:.2f} s, "
                          f"render and send {sent} digests {delivered:.2f} s")
        return {"digest_users": users, "digest_record_s": round(recorded, 3), "digest_sent": sent,
                "digest_send_s": round(delivered, 3)}
