"""``/healthz``: database, broker, beat and worker heartbeats as JSON, 200 or 503 (issue 8).

Redis is replaced by a small in-memory stand-in (``FakeRedis``); the real path (beat ->
Redis -> worker) is what the stamps record, exercised here through the task and the
publish signal themselves.
"""
import time

import pytest
import redis
from django.db import OperationalError

from orleans_site import health


class FakeRedis:
    """The three Redis commands /healthz and the heartbeats use; ``down`` makes them fail."""

    def __init__(self):
        self.data, self.down = {}, False

    def _check(self):
        if self.down:
            raise redis.exceptions.ConnectionError("Connection refused")

    def ping(self):
        self._check()
        return True

    def set(self, key, value, ex=None):
        self._check()
        self.data[key] = value

    def mget(self, *keys):
        self._check()
        return [self.data.get(key) for key in keys]


@pytest.fixture
def fake_redis(settings, monkeypatch):
    settings.REDIS_URL = "redis://fake/0"
    fake = FakeRedis()
    monkeypatch.setattr(health, "redis_client", lambda: fake)
    return fake


@pytest.fixture
def eager(settings):
    """The embedded default: no REDIS_URL (even when the suite runs against real services)."""
    settings.REDIS_URL = ""


def _get(client):
    response = client.get("/healthz")
    return response.status_code, response.json()


@pytest.mark.django_db
def test_in_eager_mode_the_site_is_healthy_and_says_eager(client, eager):
    status, body = _get(client)
    assert status == 200 and body["status"] == "ok"
    assert body["checks"]["database"]["ok"]
    assert {body["checks"][name]["detail"] for name in ("broker", "beat", "worker")} == {"eager"}


@pytest.mark.django_db
def test_an_unreachable_database_answers_503(client, monkeypatch, eager):
    def broken():
        raise OperationalError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", broken)
    status, body = _get(client)
    assert status == 503 and body["status"] == "fail"
    assert not body["checks"]["database"]["ok"]
    assert "connection refused" in body["checks"]["database"]["detail"]


@pytest.mark.django_db
def test_fresh_beat_and_worker_heartbeats_are_healthy(client, fake_redis):
    health._beat_stamp(sender=health.HEARTBEAT_TASK)  # what beat's publish does
    health.heartbeat_task()  # what the worker runs
    status, body = _get(client)
    assert status == 200, body
    assert body["checks"]["worker"]["ok"] and body["checks"]["beat"]["ok"]


@pytest.mark.django_db
def test_publishing_another_task_is_no_beat_heartbeat(client, fake_redis):
    health._beat_stamp(sender="games.tasks.resolve_game_task")
    health.heartbeat_task()
    status, body = _get(client)
    assert status == 503
    assert body["checks"]["beat"] == {"ok": False, "detail": "no heartbeat yet"}


@pytest.mark.django_db
def test_a_stale_worker_heartbeat_answers_503(client, fake_redis, settings):
    settings.HEALTHZ_MAX_AGE_SECONDS = 180
    fake_redis.data[health.BEAT_KEY] = str(time.time())
    fake_redis.data[health.WORKER_KEY] = str(time.time() - 600)
    status, body = _get(client)
    assert status == 503
    assert body["checks"]["beat"]["ok"] and not body["checks"]["worker"]["ok"]
    assert body["checks"]["worker"]["age_seconds"] >= 600


@pytest.mark.django_db
def test_a_broker_that_is_down_answers_503_and_heartbeats_do_not_raise(client, fake_redis):
    fake_redis.down = True
    health.heartbeat_task()  # logged, not raised
    status, body = _get(client)
    assert status == 503
    assert not body["checks"]["broker"]["ok"] and "Connection refused" in body["checks"]["broker"]["detail"]
    assert body["checks"]["database"]["ok"]


@pytest.mark.django_db
def test_healthz_needs_no_login_and_is_never_cached(client, eager):
    response = client.get("/healthz")
    assert response.status_code == 200  # anonymous
    assert "no-store" in response["Cache-Control"]
    assert client.post("/healthz").status_code == 405
