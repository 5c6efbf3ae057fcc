"""``/healthz``: is the site able to play games right now? (issue 8)

Four checks, answered as JSON with status 200 when all pass and 503 otherwise:

- ``database``: ``SELECT 1``;
- ``broker``: Redis answers ``PING`` (``"eager"`` when ``REDIS_URL`` is unset: tasks run in
  the web process, there is no broker, worker or beat to check);
- ``beat``: beat published ``heartbeat_task`` less than ``HEALTHZ_MAX_AGE_SECONDS`` ago;
- ``worker``: a worker ran ``heartbeat_task`` less than ``HEALTHZ_MAX_AGE_SECONDS`` ago.

Heartbeats, not ``celery inspect ping``: a ping needs remote control (off, see
orleans_site/celery.py), is a broadcast plus a wait for replies on every probe, and only
says the worker's main loop answers. The heartbeat task goes the way a game's resolution
goes (beat -> broker -> worker -> task runs), and reading both stamps is one Redis
round-trip, so load balancers may probe as often as they like. When beat is down, the
worker's stamp ages too: the ``beat`` check says which one to look at first.
"""
from __future__ import annotations

import logging
import time

from celery import shared_task
from celery.signals import before_task_publish
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

HEARTBEAT_TASK = "orleans_site.health.heartbeat_task"
WORKER_KEY = "orleans:health:worker"
BEAT_KEY = "orleans:health:beat"
STAMP_TTL_SECONDS = 7 * 24 * 3600  # stamps of a site that was switched off expire

_clients: dict[str, object] = {}


def redis_client():
    """A Redis client for ``REDIS_URL`` that fails fast (1 s timeouts, no retries).

    Returns None in eager mode (no ``REDIS_URL``). One client (one connection pool) per URL
    and process.
    """
    url = settings.REDIS_URL
    if not url:
        return None
    if url not in _clients:
        import redis

        from orleans_site.cache import fail_fast_options

        _clients[url] = redis.Redis.from_url(url, **fail_fast_options())
    return _clients[url]


def _stamp(key: str) -> None:
    """Write the current Unix time under ``key``; a Redis error is logged, not raised."""
    client = redis_client()
    if client is None:
        return
    try:
        client.set(key, f"{time.time():.3f}", ex=STAMP_TTL_SECONDS)
    except Exception as exc:  # noqa: BLE001 - a heartbeat never breaks its caller
        logger.warning("health: could not write %s: %s", key, exc)


@shared_task(name=HEARTBEAT_TASK, ignore_result=True)
def heartbeat_task() -> None:
    """Sent by beat every ``HEALTHZ_HEARTBEAT_SECONDS``; the worker stamps ``WORKER_KEY``."""
    _stamp(WORKER_KEY)


@before_task_publish.connect
def _beat_stamp(sender=None, **_kwargs) -> None:
    """Beat is the only sender of ``heartbeat_task``: publishing it stamps ``BEAT_KEY``."""
    if sender == HEARTBEAT_TASK:
        _stamp(BEAT_KEY)


def _check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure is a failed check
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}"}
    return {"ok": True, "detail": "reachable"}


def _age_check(raw, now: float, max_age: int) -> dict:
    if raw is None:
        return {"ok": False, "detail": "no heartbeat yet"}
    age = max(0.0, now - float(raw))
    return {"ok": age <= max_age, "age_seconds": round(age, 1),
            "detail": "fresh" if age <= max_age else f"older than {max_age} s"}


def _check_async() -> dict:
    """The broker, beat and worker checks (one PING and one MGET)."""
    client = redis_client()
    if client is None:
        eager = {"ok": True, "detail": "eager"}
        return {"broker": eager, "beat": eager, "worker": eager}
    try:
        client.ping()
        beat, worker = client.mget(BEAT_KEY, WORKER_KEY)
    except Exception as exc:  # noqa: BLE001 - any failure is a failed check
        unknown = {"ok": False, "detail": "broker unreachable"}
        return {"broker": {"ok": False, "detail": f"{type(exc).__name__}: {exc}"},
                "beat": unknown, "worker": unknown}
    now, max_age = time.time(), settings.HEALTHZ_MAX_AGE_SECONDS
    return {"broker": {"ok": True, "detail": "reachable"},
            "beat": _age_check(beat, now, max_age), "worker": _age_check(worker, now, max_age)}


@require_safe
@never_cache
def healthz(request):
    """``GET /healthz`` (no login): ``{"status": "ok"|"fail", "checks": {name: {"ok": bool,
    "detail": str, ["age_seconds": float]}}}``, status 200 when every check is ok, else 503."""
    checks = {"database": _check_database(), **_check_async()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "fail", "checks": checks},
                        status=200 if healthy else 503)
