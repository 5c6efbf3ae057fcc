"""``python manage.py bench_pages [--quick]``: the site's page figures of issue 14, each as
product / baseline / ratio measured in the same run (run last by ``make bench``).

It writes users and games into the configured database (``make bench``: a scratch one; see
``notifications.bench.fixtures`` for what it builds):

- a 4-player game at move ~250, the same game at move 10, and a long game played to its
  last round with every action-phase decision taken back twice and made again (1,000+
  moves); a copy of the move-250 game for the submits;
- the first player of these games has 1,200 finished 4-player games (the profile) and
  there are open public games (home, lobby).

Latency is timed in-process with Django's test ``Client`` (``DEBUG`` off, the site's whole
middleware stack, sessions in the database), baseline and product interleaved, each figure
the median of several rounds' mean. The baselines (``notifications.bench.views``) are served
by the harness's urlconf only. First the engine's random 4-player games per second
(before the run loads the machine); then the games are built and the latency figures
taken; then the reminder and deadline sweeps and throughput under gunicorn (``--servers``;
default 2 sync workers, then 2 gthread workers of 4 threads) on ``--port`` (default 8107).
The last line is one JSON object of the ratios.
This is a measurement, not a test.
"""
from __future__ import annotations

import contextlib
import copy
import datetime as dt
import json
import os
import random
import re
import secrets
import statistics
import time
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import engine
from engine.bench import ROUNDS as ENGINE_ROUNDS, games_per_second, interpreter
from engine.simulate import choose, play_game
from games import services
from games.management.commands.playtest import tasks_not_inline
from games.models import Game, Seat
from games.rules import load_game
from games.tasks import enforce_deadlines_task
from notifications.bench import fixtures, load
from notifications.services import reminders_record
from notifications.tasks import send_reminders_task

#: Issue 14's targets (ratios, except the engine's games per second).
TARGETS = {"page_ratio": 3.0, "page_growth_ratio": 1.2, "submit_ratio": 3.0, "poll_ratio": 1.2,
           "page_rps_ratio": 0.3, "profile_ratio": 3.0, "engine_games_per_s": 40.0}
#: ``(figure, higher is better)`` for the "target" column.
_AT_LEAST = {"page_rps_ratio", "engine_games_per_s"}
#: A start tag carrying a region fingerprint, its attributes in any order (the site writes
#: ``data-region-hash`` right after the tag name, before the root's ``id``).
_REGION_TAG = re.compile(r'<[a-zA-Z][\w-]*\s[^>]*?\bdata-region-hash="[0-9a-f]+"[^>]*>')
_ID = re.compile(r'\sid="([^"]+)"')
_HASH = re.compile(r'\bdata-region-hash="([0-9a-f]+)"')
HTMX = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"
#: Seconds of product requests a latency round aims at (a slow page gets fewer per round).
ROUND_BUDGET_S = 0.3


@dataclass
class Figure:
    """One product figure against its baseline: median ms of each, and queries per request
    (the product's as ``(fewest, most)`` of the requests counted)."""

    name: str
    product_ms: float
    baseline_ms: float
    product_queries: tuple[int, int]
    baseline_queries: int

    @property
    def ratio(self) -> float:
        """Product time over baseline time."""
        return self.product_ms / self.baseline_ms


def _no_debug_templates() -> list[dict]:
    templates = copy.deepcopy(settings.TEMPLATES)
    for backend in templates:
        # Django's engine: no debug information; Jinja2's: no check of the files per render
        option = "auto_reload" if backend["BACKEND"].endswith("Jinja2") else "debug"
        backend.setdefault("OPTIONS", {})[option] = False
    return templates


def region_hashes(html: str) -> str:
    """The ``regions`` parameter a page's ``static/js/regions.js`` sends: ``id:hash,...``."""
    pairs = ((_ID.search(tag), _HASH.search(tag).group(1)) for tag in _REGION_TAG.findall(html))
    return ",".join(f"{region_id.group(1)}:{digest}" for region_id, digest in pairs if region_id)


def parse_servers(spec: str) -> list[tuple[int, int]]:
    """``"2,2x4"`` -> ``[(2, 1), (2, 4)]``: ``(workers, threads)`` per gunicorn setup.
    Raises ``CommandError`` for anything else."""
    servers = []
    for item in spec.split(","):
        match = re.fullmatch(r"\s*(\d+)(?:x(\d+))?\s*", item)
        if not match or int(match.group(1)) < 1 or int(match.group(2) or 1) < 1:
            raise CommandError(f"--servers: {item!r} is not W or WxT (workers, threads)")
        servers.append((int(match.group(1)), int(match.group(2) or 1)))
    return servers


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]

    def add_arguments(self, parser):
        parser.add_argument("--quick", action="store_true", help="fewer rounds and shorter load runs (~1 minute)")
        parser.add_argument("--port", type=int, default=8107, help="port of the gunicorn runs")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--no-gunicorn", action="store_true", help="skip the throughput figures")
        parser.add_argument("--servers", default="2,2x4",
                            help="gunicorn setups for the throughput figures, comma-separated: W (W sync "
                                 "workers) or WxT (W gthread workers of T threads); the first gives page_rps_ratio")

    def handle(self, *args, quick: bool, port: int, seed: int, no_gunicorn: bool, servers: str, **options):
        self.rounds, self.per_round = (3, 3) if quick else (7, 5)
        self.load_seconds = 1.5 if quick else 3.0
        self.run = secrets.token_hex(3)
        # first, on the machine as the run finds it (as ``make bench`` runs engine.bench first):
        # right after the gunicorn runs it read a third lower in the same run
        self.out(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; interpreter {interpreter()}")
        engine_games_per_s = self.engine_speed(10 if quick else 20, 1)  # engine.bench's games
        t0 = time.perf_counter()
        with tasks_not_inline():
            self.build(seed, finished=1200)
            self.out(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; built the games in {time.perf_counter() - t0:.1f} s: move {self.page_game.version} "
                     f"(page), {self.early_game.version} (early), {self.long_game.version} (long; "
                     f"{self.long_rounds} rounds), {self.finished} finished games for the profile")
            with override_settings(ROOT_URLCONF="notifications.bench.urls", DEBUG=False,
                                   TEMPLATES=_no_debug_templates()):
                figures = self.latency()
            sweeps = self.sweeps(quick)
        summary = self.summary(figures)
        if no_gunicorn:
            summary["page_rps_ratio"] = None
        else:
            summary["page_rps_ratio"] = self.throughput(port, parse_servers(servers))
        summary["engine_games_per_s"] = engine_games_per_s
        summary.update(sweeps)
        self.out(f"load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
                 f"(other work on the machine slows both sides of a ratio, not always alike)")
        self.targets(summary)
        self.stdout.write(json.dumps({key: summary[key] for key in TARGETS}))

    def out(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()

    # --- the data ---------------------------------------------------------------------------
    def build(self, seed: int, finished: int) -> None:
        """The players, the games at move ~250, 10 and 1,000+, the profile's finished games
        and the lobby's open tables."""
        tag = f"pages-{self.run}"
        self.players = fixtures.make_users(tag, 4)
        opponents = fixtures.make_users(f"{tag}-rival", 10)
        self.page_game = fixtures.advance(fixtures.start_game(self.players, seed, f"page {tag}"), 250, seed=seed)
        self.submit_game = fixtures.advance(fixtures.start_game(self.players, seed, f"submit {tag}"), 250,
                                            seed=seed)
        self.early_game = fixtures.advance(fixtures.start_game(self.players, seed, f"early {tag}"), 10, seed=seed)
        self.long_game = fixtures.advance(fixtures.start_game(self.players, seed, f"long {tag}"), 10**6,
                                          take_backs=2, seed=seed)
        self.long_rounds = load_game(self.long_game)[1].data["round"]
        template = fixtures.advance(fixtures.start_game(self.players, seed + 1, f"finished {tag}"), 10**6,
                                    seed=seed, keep_active=False)
        self.finished = fixtures.finished_copies(template, self.players[0], opponents, finished) + 1
        hosts = fixtures.make_users(f"{tag}-host", 30)
        for n, host in enumerate(hosts):
            services.game_create(creator=host, name=f"open table {n} {tag}", max_seats=4, options={})
        self.baseline_game = services.game_create(creator=hosts[0], name=f"baseline {tag}", max_seats=4,
                                                  options={}, is_public=False)
        self.clients = {}
        for user in self.players:
            client = Client()
            client.force_login(user)
            self.clients[user.pk] = client
        if connection.vendor == "postgresql":
            # planner statistics for the data just built, as autovacuum keeps them on a live
            # site (a scratch server may run without it)
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

    def seat_client(self, game: Game, order: int) -> Client:
        """The logged-in client of the player in seat ``order`` of ``game``."""
        return self.clients[Seat.objects.get(game=game, order=order).user_id]

    # --- latency ----------------------------------------------------------------------------
    def measure(self, name: str, product, baseline, prepare=None) -> Figure:
        """Interleaved rounds of calls of ``product`` then of ``baseline`` (each a function
        making one request and returning its response); ``prepare()``, untimed, before each
        product call, gives its argument. Median over rounds of each round's mean. A round
        makes ``per_round`` calls of each, fewer of a product slower than ``ROUND_BUDGET_S``."""
        def once(call, before, around=contextlib.nullcontext) -> float:
            arg = before() if before else None
            with around():
                t0 = time.perf_counter()
                response = call(arg) if before else call()
                elapsed = time.perf_counter() - t0
            if response.status_code >= 400:
                raise RuntimeError(f"{name}: answered {response.status_code}: {response.content[:300]!r}")
            return elapsed

        def queries(call, before) -> tuple[int, float]:
            captured = CaptureQueriesContext(connection)
            elapsed = once(call, before, lambda: captured)
            return len(captured.captured_queries), elapsed

        # a product with ``prepare`` differs from call to call (a submit: the decision): count a few
        counted = [queries(product, prepare) for _ in range(3 if prepare else 1)]
        (baseline_queries, _), warm = queries(baseline, None), min(elapsed for _, elapsed in counted)
        product_queries = (min(n for n, _ in counted), max(n for n, _ in counted))
        calls = max(1, min(self.per_round, int(ROUND_BUDGET_S / max(warm, 1e-6))))
        product_ms, baseline_ms = [], []
        for _ in range(self.rounds):
            product_ms.append(sum(once(product, prepare) for _ in range(calls)) / calls * 1000)
            baseline_ms.append(sum(once(baseline, None) for _ in range(self.per_round)) / self.per_round * 1000)
        figure = Figure(name, statistics.median(product_ms), statistics.median(baseline_ms),
                        product_queries, baseline_queries)
        low, high = figure.product_queries
        self.out(f"{name:<44} {figure.product_ms:8.1f} ms / {figure.baseline_ms:6.2f} ms = {figure.ratio:6.1f}x   "
                 f"queries {low if low == high else f'{low}-{high}'} / {figure.baseline_queries}")
        return figure

    def latency(self) -> dict[str, Figure]:
        """Every latency figure, by name."""
        self.out(f"latency, in-process, {self.rounds} rounds of {self.per_round} requests "
                 f"(product / baseline = ratio; queries per request):")
        bare_client = self.clients[self.players[0].pk]
        pk = self.page_game.pk

        def bare():
            return bare_client.get(reverse("bench-page", args=[pk]))

        figures = {}
        for key, game, label in (("page", self.page_game, f"game page, 4 players, move {self.page_game.version}"),
                                 ("page_early", self.early_game, f"game page at move {self.early_game.version}"),
                                 ("page_long", self.long_game, f"game page at move {self.long_game.version}")):
            client, url = self.seat_client(game, 0), reverse("games-detail", args=[game.pk])
            figures[key] = self.measure(label, lambda c=client, u=url: c.get(u), bare)
            if key == "page":  # informational: what the caches buy (the target stays the warm figure)
                figures["page_cold"] = self.measure(
                    "  the same, first view, caches emptied", lambda _arg, c=client, u=url: c.get(u), bare,
                    prepare=caches["regions"].clear)
        # the growth: the long game's page against the early one's, interleaved (no drift between them)
        early, long = (self.seat_client(g, 0) for g in (self.early_game, self.long_game))
        early_url, long_url = (reverse("games-detail", args=[g.pk]) for g in (self.early_game, self.long_game))
        figures["growth"] = self.measure(f"  page at move {self.long_game.version} / at move {self.early_game.version}",
                                         lambda: long.get(long_url), lambda: early.get(early_url))
        figures["submit"] = self.measure_submit()
        figures["poll"] = self.measure_poll()
        main = self.clients[self.players[0].pk]
        for key, url, label in (("profile", reverse("games-profile"), f"profile, {self.finished} finished games"),
                                ("home", reverse("home"), "home"),
                                ("lobby", reverse("games-lobby"), "lobby, 30 open tables")):
            figures[key] = self.measure(label, lambda u=url: main.get(u), bare)
        return figures

    def measure_submit(self) -> Figure:
        """A decision through the real view (HTMX, with the region hashes of the page the
        player has loaded) against the bare submit (lock, one UPDATE, small template)."""
        game_pk = self.submit_game.pk

        def prepare():
            game = Game.objects.get(pk=game_pk)
            rules_engine, state = load_game(game)
            while rules_engine.needs_resolution(state):
                services.game_resolve(game_id=game_pk, expected_version=game.version)
                game = Game.objects.get(pk=game_pk)
                rules_engine, state = load_game(game)
            awaited = rules_engine.awaiting(state)
            seat = min(awaited)
            client = self.seat_client(game, seat)
            page = client.get(reverse("games-detail", args=[game_pk])).content.decode()
            action = choose(self.rng, awaited[seat], rules_engine.legal_actions(state, seat), state.data, seat)
            return client, {"action": json.dumps(action), "expected_version": game.version,
                            "regions": region_hashes(page)}

        def submit(arg):
            client, data = arg
            # URL-encoded, as htmx 2 posts a form without files (the test client's default is multipart)
            return client.post(reverse("games-act", args=[game_pk]), urlencode(data), content_type=FORM, **HTMX)

        bare_client, bare_url = self.clients[self.players[0].pk], reverse("bench-submit", args=[self.baseline_game.pk])
        self.rng = random.Random(11)
        return self.measure("decision submit (real view, HTMX)", submit, lambda: bare_client.post(bare_url),
                            prepare)

    def measure_poll(self) -> Figure:
        """The unchanged poll of a seat's open tab against the lean poll (user, version, 204)."""
        game = self.page_game
        client = self.seat_client(game, 0)
        page = client.get(reverse("games-detail", args=[game.pk])).content.decode()
        chat = re.search(r"[?&]v=\d+&amp;c=(\d+)", page)
        query = {"v": game.version, "c": chat.group(1) if chat else "0", "regions": region_hashes(page)}
        url, lean = reverse("games-poll", args=[game.pk]), reverse("bench-poll", args=[game.pk])
        return self.measure("unchanged poll (204)", lambda: client.get(url, query, **HTMX),
                            lambda: client.get(lean, {"v": game.version}, **HTMX))

    # --- sweeps -----------------------------------------------------------------------------
    def sweeps(self, quick: bool) -> dict:
        """The reminder sweep over 3,000 waiting seats (twice: first run, then nothing new
        due) and the deadline sweep with seats past their deadline."""
        tag = f"sweep-{self.run}"
        users = fixtures.make_users(tag, 4)
        seats = fixtures.waiting_seats(users, 750, waited=dt.timedelta(days=3))
        timings = []
        for _ in range(2):
            with CaptureQueriesContext(connection) as captured:
                t0 = time.perf_counter()
                recorded = send_reminders_task()
                timings.append(((time.perf_counter() - t0) * 1000, recorded, len(captured.captured_queries)))
        (first, n1, q1), (second, n2, q2) = timings
        t0 = time.perf_counter()
        reminders_record()  # what the next run spends recording, without handing ids to delivery
        recording = (time.perf_counter() - t0) * 1000
        self.out(f"reminder sweep, {seats} waiting seats: first run {first:.0f} ms ({n1} due, {q1} queries), "
                 f"next run {second:.0f} ms ({n2} handed to delivery again, {q2} queries; "
                 f"its recording alone {recording:.0f} ms)")
        games = []
        for n in range(5 if quick else 20):
            pair = fixtures.make_users(f"{tag}-clock{n}", 2)
            games.append(fixtures.start_game(pair, n, f"deadline {tag} {n}", pace="fast"))
        due = fixtures.past_deadline(games)
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            timed_out = enforce_deadlines_task()
            elapsed = (time.perf_counter() - t0) * 1000
        per = max(timed_out, 1)
        self.out(f"deadline sweep, {due} seats due: {elapsed:.0f} ms, {timed_out} timed out: "
                 f"{elapsed / per:.1f} ms and {len(captured.captured_queries) / per:.1f} queries per seat")
        return {"reminder_first_ms": round(first), "reminder_next_ms": round(second),
                "deadline_ms_per_seat": round(elapsed / per, 1)}

    # --- throughput -------------------------------------------------------------------------
    def throughput(self, port: int, servers: list[tuple[int, int]]) -> float | None:
        """Requests per second under gunicorn for each of ``servers`` (``(workers, threads)``;
        threads 1: sync workers, else gthread): the game page and the bare view with 10 and
        50 clients, then a mix of open tabs (50 clients; of every 10 requests 9 unchanged
        polls and one game page). Returns the page / bare ratio of the first server at 50
        clients."""
        seat = self.seat_client(self.page_game, 0)
        cookie = "; ".join(f"{k}={v.value}" for k, v in seat.cookies.items())
        page = reverse("games-detail", args=[self.page_game.pk])
        bare = f"/bench/page/{self.page_game.pk}/"
        poll = f"{reverse('games-poll', args=[self.page_game.pk])}?v={self.page_game.version}&c=0"
        self.out(f"throughput under gunicorn, DEBUG off, {self.load_seconds:g} s per run "
                 f"(page / bare = ratio; p95 ms; errors):")
        ratio = None
        for workers, threads in servers:
            label = f"{workers} sync workers" if threads == 1 else f"{workers} gthread workers x {threads} threads"
            with load.serve(port, workers=workers, threads=threads):
                for clients in (10, 50):
                    runs = {}
                    for key, path in (("page", page), ("bare", bare)):
                        load.drive(port, [path], cookie, clients=clients, seconds=0.3)  # warm-up
                        runs[key] = load.drive(port, [path], cookie, clients=clients, seconds=self.load_seconds)
                    p, b = runs["page"], runs["bare"]
                    r = p.rps / b.rps if b.rps else 0.0
                    self.out(f"  {label}, {clients} clients: {p.rps:6.1f} / {b.rps:6.1f} req/s = {r:.2f}x; "
                             f"p95 {p.p95_ms:.0f} / {b.p95_ms:.0f} ms; errors {p.errors} / {b.errors}")
                    if ratio is None and clients == 50:
                        ratio = round(r, 3)
                mixed = load.drive(port, [poll] * 9 + [page], cookie, clients=50, seconds=self.load_seconds)
                self.out(f"  {label}, 50 open tabs (9 polls : 1 page): {mixed.rps:6.1f} req/s; "
                         f"median {mixed.median_ms:.0f} ms, p95 {mixed.p95_ms:.0f} ms; errors {mixed.errors}")
        return ratio

    # --- engine -----------------------------------------------------------------------------
    def engine_speed(self, games: int, seed: int) -> float:
        """Complete random 4-player games per second on one core, as ``engine.bench`` measures
        it (``engine.bench.games_per_second``: ``engine.simulate``'s random games of seeds
        ``seed``, ``seed + 1``..., each game's median time over its passes, by the CPU time of
        this process: what one core spends, so other work on the machine slows it less). Run
        first, before the bench loads the machine. The wall-time rate and the median of the
        passes' own rates (the figure of earlier runs) are printed beside it."""
        speed = games_per_second(lambda options, sd: play_game(options, sd, check=False),
                                 engine.GameOptions(players=4), games, seed)
        self.out(f"engine: {games} random 4-player games, each game's median of {ENGINE_ROUNDS} passes: "
                 f"{speed.cpu:.1f} games/s by CPU time ({speed.wall:.1f} by wall time; the median of the "
                 f"passes' own rates {speed.cpu_rounds:.1f}: {', '.join(f'{r:.1f}' for r in speed.cpu_passes)})")
        return round(speed.cpu, 1)

    # --- summary ----------------------------------------------------------------------------
    def summary(self, figures: dict[str, Figure]) -> dict:
        """The ratios of the JSON line from the latency figures."""
        return {
            "page_ratio": round(figures["page"].ratio, 2),
            "page_growth_ratio": round(figures["growth"].ratio, 2),
            "submit_ratio": round(figures["submit"].ratio, 2),
            "poll_ratio": round(figures["poll"].ratio, 2),
            "profile_ratio": round(figures["profile"].ratio, 2),
            "home_ratio": round(figures["home"].ratio, 2),
            "lobby_ratio": round(figures["lobby"].ratio, 2),
        }

    def targets(self, summary: dict) -> None:
        """One line per target: the figure, the target, met or not."""
        self.out("targets (issue 14):")
        for key, target in TARGETS.items():
            value = summary.get(key)
            if value is None:
                self.out(f"  {key:<20} not measured")
                continue
            met = value >= target if key in _AT_LEAST else value <= target
            sign = ">=" if key in _AT_LEAST else "<="
            self.out(f"  {key:<20} {value:>8}  target {sign} {target:<5} {'met' if met else 'NOT met'}")
