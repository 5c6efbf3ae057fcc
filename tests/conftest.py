"""Shared fixtures for the site tests: personas, clients, game factories.

Personas: alice creates games, bob joins them, carol watches (or fills a third seat),
dave is the fourth player. Everyone has a verified email address, so allauth lets them in.
"""
from __future__ import annotations

import os

import pytest

from tests.games import fake_engine as fake

PASSWORD = "orleans-test-password-42"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """No persistent connections in tests: threads (live server, Celery worker) must not
    keep a session open on the test database, or PostgreSQL cannot drop it at the end."""
    from django.conf import settings

    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture
def fake_engine():
    """The tiny fake engine (exact control of phases and the end of the game), registered
    as the ``fake`` rules and the default for games created in the test."""
    from games import rules

    rules.register("fake", fake, default=True)
    yield fake
    rules.unregister("fake")


@pytest.fixture(autouse=True)
def _celery_eager(request):
    """Tasks run in-process except in tests marked ``services`` (real worker)."""
    if request.node.get_closest_marker("services"):
        yield
        return
    from orleans_site.celery import app
    from orleans_site.tasks import flush_publishes

    flush_publishes()  # what an earlier test handed over goes to the broker, not run eagerly
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hashing with the production hasher dominates test time; tests need no strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's default language: LocaleMiddleware activates a
    request's language in the thread and leaves it there, so a page asked for in Japanese
    would otherwise turn the next test's messages Japanese."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate-limit counters and rendered regions must not leak between tests."""
    from django.core.cache import cache, caches

    from games import spectators

    cache.clear()
    caches["regions"].clear()
    spectators._read.clear()  # the lists this process read lately: another test's cache
    yield


def _make_user(django_user_model, name: str):
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def alice(db, django_user_model):
    """Creates games."""
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(db, django_user_model):
    """Joins alice's games."""
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(db, django_user_model):
    """A third player, or a spectator."""
    return _make_user(django_user_model, "carol")


@pytest.fixture
def dave(db, django_user_model):
    """A fourth player."""
    return _make_user(django_user_model, "dave")


@pytest.fixture
def client_for():
    """``client_for(user)`` -> a test client logged in as ``user``."""
    from django.test import Client

    def make(user):
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def make_game(db):
    """``make_game(creator, *joiners, seats=4, is_public=True, **options)`` -> Game.

    Creates the game through the services and seats the joiners in order; the game
    starts by itself if they fill it.
    """
    from games import services
    from games.access import make_invite_token

    def make(creator, *joiners, seats: int = 4, is_public: bool = True, **options):
        game = services.game_create(
            creator=creator, name="Test game", max_seats=seats, options=options,
            is_public=is_public,
        )
        for user in joiners:
            services.seat_join(game_id=game.pk, user=user, invite_token=make_invite_token(game))
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def migrator(transactional_db):
    """``migrator(targets)`` migrates to ``[(app, migration), ...]`` and returns that state's
    apps; at the end, back to the latest migrations."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)

    def migrate(targets):
        executor.loader.build_graph()
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    yield migrate
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def started_game(make_game, alice, bob):
    """A started two-player game between alice and bob."""
    return make_game(alice, bob, seats=2)


@pytest.fixture
def game_in_round_two(alice, bob):
    """A real-engine game between alice and bob (seed 11) played through the services into
    round 2: draws, plans, a resolution and actions in its log."""
    from tests.support.game_driver import new_started_game, play_until

    game = new_started_game(alice, bob, seed=11)
    play_until(game, lambda state: state.round >= 2)
    game.refresh_from_db()
    return game


# Marks of a test module that needs PostgreSQL, Redis and a real worker (.ci/run sets them up).
SERVICES_MARKS = [
    pytest.mark.services,
    pytest.mark.skipif(
        not os.environ.get("ORLEANS_SERVICES_TESTS") or not os.environ.get("REDIS_URL"),
        reason="needs ORLEANS_SERVICES_TESTS=1 with PostgreSQL and Redis (see .ci/run)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def celery_worker():
    """A real worker, consuming from the Redis broker in a background thread.

    This in-process harness (``celery.contrib.testing``) keeps remote control on: without a
    pub/sub consumer it does not notice that Redis was restarted under it and waits forever
    (measured with ``test_a_stopped_broker_loses_no_submission...``). The production worker,
    which runs with remote control off, is tested through a Redis restart as a real process
    in ``tests/integration/test_broker_outage.py``.
    """
    from celery.contrib.testing.worker import start_worker

    from orleans_site.celery import app

    assert not app.conf.task_always_eager
    remote_control = app.conf.worker_enable_remote_control
    app.conf.worker_enable_remote_control = True
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield app
    finally:
        app.conf.worker_enable_remote_control = remote_control


class FrozenClock:
    """A stand-in for ``django.utils.timezone.now``: fixed until moved with ``advance``."""

    def __init__(self, now) -> None:
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, **delta) -> None:
        """Move the time forward by ``datetime.timedelta(**delta)``."""
        import datetime as dt

        self.now += dt.timedelta(**delta)


@pytest.fixture
def frozen_now(monkeypatch):
    """``django.utils.timezone.now`` frozen at Wed 2030-03-06 12:00 UTC (after the real
    now, so model defaults bound to the real clock, like ``send_after``, are already due); move it with
    ``frozen_now.advance(hours=...)`` (no sleeps)."""
    import datetime as dt

    clock = FrozenClock(dt.datetime(2030, 3, 6, 12, 0, tzinfo=dt.timezone.utc))
    monkeypatch.setattr("django.utils.timezone.now", clock)
    return clock


@pytest.fixture
def clocked_game(db, frozen_now):
    """``clocked_game(creator, *joiners, pace="fast", absent_bot_level="", **options)`` -> a
    started game with a time bank (seats = creator + joiners), created through the services
    at frozen time; no bot takes over an absent player unless ``absent_bot_level`` names one
    (None: the site's default for clocked games)."""
    from games import services
    from games.access import make_invite_token

    def make(creator, *joiners, pace: str = "fast", absent_bot_level: str | None = "", **options):
        game = services.game_create(creator=creator, name="Clocked", max_seats=len(joiners) + 1,
                                    options=options, pace=pace, absent_bot_level=absent_bot_level)
        for user in joiners:
            services.seat_join(game_id=game.pk, user=user, invite_token=make_invite_token(game))
        game.refresh_from_db()
        return game

    return make
