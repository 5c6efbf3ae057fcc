"""A Redis cache that fails open: when Redis is unreachable, reads miss and writes are
dropped, with a warning, instead of raising (issue 8).

The cache only holds allauth's rate-limit counters (settings, "Cache"). With Redis down a
raising cache turned every login into a 500; failing open means logins go on working,
unlimited, until Redis is back. Sessions and game data never live in the cache.
"""
from __future__ import annotations

import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)


def fail_fast_options() -> dict:
    """redis-py connection options that give up at once: 1 s connect/read timeouts and no
    retries. Shared by this cache and the ``/healthz`` client (orleans_site/health.py)."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return {"socket_connect_timeout": 1, "socket_timeout": 1, "retry": Retry(NoBackoff(), 0)}


WARN_EVERY_SECONDS = 60  # a login makes several cache calls: one warning a minute is enough
_last_warning: float | None = None


def _unreachable(operation: str, exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if _last_warning is None or now - _last_warning >= WARN_EVERY_SECONDS:
        _last_warning = now
        logger.warning("cache unreachable, %s skipped (rate limits not applied): %s", operation, exc)


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client keeping one ``redis.Redis`` per connection pool, where
    Django builds a new one for every operation (building it costs about what a GET on a
    local Redis does). ``redis.Redis`` is thread-safe: it takes a pooled connection per
    command."""

    def get_client(self, key=None, *, write=False):
        """The ``redis.Redis`` of the pool ``write`` picks (a primary for writes), built once
        per pool and kept; ``key`` is unused (Django's signature)."""
        index = self._get_connection_pool_index(write)
        clients = self.__dict__.setdefault("_clients", {})
        if index not in clients:
            clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return clients[index]


class FailOpenRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose Redis errors degrade.

    ``get``/``get_many`` miss, ``add`` reports success (so allauth's cache lock is "taken"
    and the request is let through), ``set``/``delete``/``touch``/``incr`` do nothing. Fails
    fast: 1 s connect/read timeouts and no retries unless OPTIONS say otherwise.
    """

    def __init__(self, server, params):
        options = {**fail_fast_options(), **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = ReusingRedisCacheClient

    def _guard(self, operation, fallback, call, *args, **kwargs):
        from redis.exceptions import RedisError

        try:
            return call(*args, **kwargs)
        except (RedisError, OSError) as exc:
            _unreachable(operation, exc)
            return fallback

    def get(self, key, default=None, version=None):
        return self._guard("get", default, super().get, key, default, version)

    def get_many(self, keys, version=None):
        return self._guard("get_many", {}, super().get_many, keys, version)

    def add(self, key, value, timeout=None, version=None):
        return self._guard("add", True, super().add, key, value, timeout, version)

    def set(self, key, value, timeout=None, version=None):
        return self._guard("set", None, super().set, key, value, timeout, version)

    def set_many(self, data, timeout=None, version=None):
        return self._guard("set_many", [], super().set_many, data, timeout, version)

    def touch(self, key, timeout=None, version=None):
        return self._guard("touch", False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._guard("delete", False, super().delete, key, version)

    def delete_many(self, keys, version=None):
        return self._guard("delete_many", None, super().delete_many, keys, version)

    def has_key(self, key, version=None):
        return self._guard("has_key", False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        return self._guard("incr", delta, super().incr, key, delta, version)

    def clear(self):
        return self._guard("clear", False, super().clear)
