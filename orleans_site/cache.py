"""A Redis cache that fails open: when Redis is unreachable, reads miss and writes are
dropped, with a warning, instead of raising (issue 8).

The default cache holds allauth's rate-limit counters (settings, "Cache"). With Redis down a
raising cache turned every login into a 500; failing open means logins go on working,
unlimited, until Redis is back. Sessions and game data never live in the cache.

The "regions" cache (rendered regions and page parts, keyed by what they show) is a
``LocalFirstRedisCache``: each process keeps a copy of the entries it reads and writes.
"""
from __future__ import annotations

import functools
import logging
import os
import queue
import threading
import time
from collections import OrderedDict
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
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


class LocalCopy:
    """A process's copy of a ``LocalFirstRedisCache``'s entries: key -> serialized entry,
    each until ``time.monotonic()`` passes its expiry; at most ``most`` entries and
    ``most_bytes`` bytes, the least recently used dropped first. Thread-safe."""

    def __init__(self, most: int, most_bytes: int, seconds: float):
        self.most, self.most_bytes, self.seconds = most, most_bytes, seconds
        self.entries: OrderedDict[str, tuple[float, Any]] = OrderedDict()  # key -> (expires, serialized)
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: str):
        """The serialized entry of ``key``, or None."""
        with self.lock:
            kept = self.entries.get(key)
            if kept is None:
                return None
            if kept[0] <= time.monotonic():
                self._drop(key)
                return None
            self.entries.move_to_end(key)
            return kept[1]

    def put(self, key: str, blob, timeout: float | None) -> None:
        """Keep ``blob`` (a serialized entry) for ``timeout`` seconds at most (None: as long
        as the copy keeps any)."""
        seconds = self.seconds if timeout is None else min(timeout, self.seconds)
        size = _size(blob)
        with self.lock:
            self._drop(key)
            if seconds <= 0 or size > self.most_bytes:
                return
            self.entries[key] = (time.monotonic() + seconds, blob)
            self.size += size
            while len(self.entries) > self.most or self.size > self.most_bytes:
                self._drop(next(iter(self.entries)))

    def forget(self, keys) -> None:
        """Drop the entries of ``keys``."""
        with self.lock:
            for key in keys:
                self._drop(key)

    def clear(self) -> None:
        """Drop every entry."""
        with self.lock:
            self.entries.clear()
            self.size = 0

    def _drop(self, key: str) -> None:
        # caller holds the lock
        kept = self.entries.pop(key, None)
        if kept is not None:
            self.size -= _size(kept[1])


def _size(blob) -> int:
    return len(blob) if isinstance(blob, bytes) else 8  # an int is stored as itself


class WriteBehind:
    """A process's writer to Redis (the regions cache's writes; ``orleans_site.tasks``'
    task publishes have one of their own): a daemon thread that runs the writes handed to it
    (functions of no argument), one after another in the order handed, so a request does
    not wait for Redis's answer. At most ``most`` writes wait (each holds its serialized
    entries); ``submit`` refuses more, and the caller then writes itself, maybe before
    writes still waiting (harmless for keys that name their content). Writes still waiting
    when the process ends are lost (entries other processes render again). Thread-safe;
    a forked process starts a writer of its own (``write_behind``)."""

    def __init__(self, most: int, name: str = "cache-writer"):
        self.waiting: queue.Queue = queue.Queue(maxsize=most)
        self.thread = threading.Thread(target=self._run, name=f"orleans-{name}", daemon=True)
        self.thread.start()

    def submit(self, write) -> bool:
        """Hand ``write`` over; False (not taken) if ``most`` writes wait already."""
        try:
            self.waiting.put_nowait(write)
        except queue.Full:
            return False
        return True

    def flush(self, seconds: float = 5.0) -> None:
        """Return once every write handed over before the call has run, or after ``seconds``
        (Redis unreachable: each waiting write gives up after its own timeout)."""
        done, deadline = threading.Event(), time.monotonic() + seconds
        try:
            self.waiting.put(done.set, timeout=seconds)
        except queue.Full:
            return
        done.wait(max(0.0, deadline - time.monotonic()))  # one deadline for both waits

    def _run(self) -> None:
        while True:
            write = self.waiting.get()
            try:
                write()
            except Exception:  # a write guards its own Redis errors; anything else must not stop the writer
                logger.exception("a write behind the request failed")  # a cache write or a task publish
            finally:
                self.waiting.task_done()


#: This process's writers, by (process id, name): a forked child never uses its parent's.
_WRITERS: dict[tuple, WriteBehind] = {}
#: How many writes may wait for Redis in a process (each holds a few kilobytes).
WRITE_BEHIND_MOST = 1000


def write_behind(name: str, thread: str = "cache-writer") -> WriteBehind:
    """This process's ``WriteBehind`` named ``name`` (made on first use, its thread named
    ``orleans-<thread>``): the regions cache's is named after its Redis LOCATION;
    ``orleans_site.tasks`` has one for its task publishes."""
    key = (os.getpid(), name)
    writer = _WRITERS.get(key)
    if writer is None:
        with _COPIES_LOCK:
            writer = _WRITERS.get(key)
            if writer is None:
                writer = _WRITERS[key] = WriteBehind(WRITE_BEHIND_MOST, thread)
    return writer


def flush_write_behind(name: str, seconds: float = 5.0) -> None:
    """``WriteBehind.flush`` of this process's writer ``name``, if it has made one."""
    writer = _WRITERS.get((os.getpid(), name))
    if writer is not None:
        writer.flush(seconds)


#: Each process's copies: (LOCATION, KEY_PREFIX) -> ``LocalCopy``. Django makes a cache
#: object per thread; every thread of a process shares its copy.
_COPIES: dict[tuple, LocalCopy] = {}
_COPIES_LOCK = threading.Lock()


class LocalFirstRedisCache(FailOpenRedisCache):
    """``FailOpenRedisCache`` with a copy, in this process, of the entries it wrote or read
    lately (``LocalCopy``, one per process and cache whatever the threads): a read it holds
    makes no round trip to Redis. Only for a cache whose keys name their content, whose
    entry under a key never changes (the site's "regions" cache: each key is the
    fingerprint of what its value is made of, or holds the game's version and snapshot
    hash), so a copy is never stale; Redis shares each entry with the site's other
    processes. A change another process makes under a key (a delete, an expiry, an
    ``incr``) is not seen by a copy taken before it.

    The copy holds the serialized entry (each read returns a value of its own, as from
    Redis), for at most the entry's timeout and ``LOCAL_SECONDS``, and at most
    ``LOCAL_ENTRIES`` entries and ``LOCAL_BYTES`` bytes per process, the least recently
    used dropped first. OPTIONS ``LOCAL_ENTRIES``, ``LOCAL_BYTES`` and ``LOCAL_SECONDS``
    set them. ``delete``, ``delete_many``, ``add``, ``incr`` and ``clear`` drop the copies
    they touch (in this process only). A write while Redis is down is kept in the copy
    alone.

    Writes go to the copy at once and to Redis behind the request (``WriteBehind``, OPTION
    ``WRITE_BEHIND``, on by default): another process may miss an entry for the
    milliseconds its write waits, and renders it itself. The other operations first wait
    for the writes handed over before them (``flush_writes``), so they keep their order."""

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS", {}))
        most = int(options.pop("LOCAL_ENTRIES", 2000))
        most_bytes = int(options.pop("LOCAL_BYTES", 64 * 2**20))
        seconds = float(options.pop("LOCAL_SECONDS", 600))
        self._behind = bool(options.pop("WRITE_BEHIND", True))
        super().__init__(server, {**params, "OPTIONS": options})
        self._server = str(server)
        with _COPIES_LOCK:
            self._local = _COPIES.setdefault((str(server), self.key_prefix), LocalCopy(most, most_bytes, seconds))

    # --- reads ------------------------------------------------------------------------------
    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        blob = self._local.get(key)
        if blob is None:
            blob = self._guard("get", None, lambda: self._cache.get_client(key).get(key))
            if blob is None:
                return default
            self._local.put(key, blob, None)
        return self._cache._serializer.loads(blob)

    def get_many(self, keys, version=None, *, local_only: bool = False):
        """``BaseCache.get_many``; ``local_only``: from this process's copy alone, no round
        trip to Redis (for keys that are most likely new, which only this process may have
        made: an entry another process made is then missed)."""
        names = {self.make_and_validate_key(key, version=version): key for key in keys}
        found, missing = {}, []
        for key in names:
            blob = self._local.get(key)
            if blob is None:
                missing.append(key)
            else:
                found[key] = blob
        if missing and not local_only:
            blobs = self._guard("get_many", [None] * len(missing), lambda: self._cache.get_client(None).mget(missing))
            for key, blob in zip(missing, blobs, strict=True):
                if blob is not None:
                    found[key] = blob
                    self._local.put(key, blob, None)
        loads = self._cache._serializer.loads
        return {names[key]: loads(blob) for key, blob in found.items()}

    def has_key(self, key, version=None):
        return self._local.get(self.make_and_validate_key(key, version=version)) is not None or super().has_key(
            key, version)

    # --- writes -----------------------------------------------------------------------------
    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self.set_many({key: value}, timeout, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        if not data:
            return []
        timeout = self.get_backend_timeout(timeout)
        dumps = self._cache._serializer.dumps
        blobs = {self.make_and_validate_key(key, version=version): dumps(value) for key, value in data.items()}
        for key, blob in blobs.items():
            self._local.put(key, blob, timeout)

        def write():
            client = self._cache.get_client(None, write=True)
            if timeout == 0:  # Django's meaning: not kept
                client.delete(*blobs)
                return
            pipeline = client.pipeline()
            pipeline.mset(blobs)
            if timeout is not None:
                for key in blobs:
                    pipeline.expire(key, timeout)
            pipeline.execute()

        guarded = functools.partial(self._guard, "set_many", None, write)
        if not (self._behind and write_behind(self._server).submit(guarded)):
            guarded()
        return []

    def flush_writes(self) -> None:
        """Return once this process's writes to Redis handed over so far have been made."""
        if self._behind:
            write_behind(self._server).flush()

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self.flush_writes()
        self._local.forget([self.make_and_validate_key(key, version=version)])
        return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        self.flush_writes()
        self._local.forget([self.make_and_validate_key(key, version=version)])
        return super().incr(key, delta, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        self.flush_writes()
        return super().touch(key, timeout, version)

    def delete(self, key, version=None):
        self.flush_writes()
        self._local.forget([self.make_and_validate_key(key, version=version)])
        return super().delete(key, version)

    def delete_many(self, keys, version=None):
        self.flush_writes()
        self._local.forget([self.make_and_validate_key(key, version=version) for key in keys])
        return super().delete_many(keys, version)

    def clear(self):
        self.flush_writes()
        self._local.clear()
        return super().clear()
