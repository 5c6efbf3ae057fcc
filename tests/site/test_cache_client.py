"""The Redis cache (orleans_site.cache) keeps one redis client per connection pool."""
from orleans_site.cache import FailOpenRedisCache


def test_the_redis_cache_builds_one_client_per_connection_pool_not_one_per_operation():
    cache = FailOpenRedisCache("redis://127.0.0.1:1/0", {})  # nothing listens: no connection is made
    first = cache._cache.get_client("a", write=True)
    assert cache._cache.get_client("b", write=True) is first
    assert cache._cache.get_client("a").connection_pool is first.connection_pool  # a single server
    assert cache.get("a") is None  # and it still fails open


import os  # noqa: E402

import pytest  # noqa: E402

import uuid  # noqa: E402

from orleans_site.cache import LocalCopy, LocalFirstRedisCache  # noqa: E402

needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL; .ci/run sets it)")


def _local_first(prefix: str | None = None, **options) -> LocalFirstRedisCache:
    return LocalFirstRedisCache(os.environ.get("REDIS_URL", "redis://127.0.0.1:1/0"),
                                {"KEY_PREFIX": prefix or f"test-local-first-{uuid.uuid4().hex}", "OPTIONS": options})


def _two_processes(prefix: str) -> tuple[LocalFirstRedisCache, LocalFirstRedisCache]:
    """Two caches sharing Redis under ``prefix``, each with its own copy (two processes)."""
    one, other = _local_first(prefix), _local_first(prefix)
    other._local = LocalCopy(100, 2**20, 60)
    return one, other


@needs_redis
def test_a_local_first_cache_shares_its_entries_through_redis_and_answers_again_from_its_own_copy():
    one, other = _two_processes("test-local-first-shared")
    try:
        one.set_many({"a": {"html": "<p>a</p>"}, "b": "<p>b</p>"}, 60)
        one.set("c", ("digest", "<p>c</p>"), 60)
        one.flush_writes()  # written behind the request: in Redis once flushed
        assert other.get_many(["a", "b", "c", "missing"]) == {"a": {"html": "<p>a</p>"}, "b": "<p>b</p>",
                                                               "c": ("digest", "<p>c</p>")}
        redis = other._cache.get_client(None, write=True)
        redis.delete(*(other.make_and_validate_key(key) for key in "abc"))  # gone from Redis...
        assert other.get_many(["a", "b"]) == {"a": {"html": "<p>a</p>"}, "b": "<p>b</p>"}  # ...kept here
        assert other.get("c") == ("digest", "<p>c</p>") and one.get("c") == ("digest", "<p>c</p>")
        value = other.get("a")
        value["html"] = "changed by its reader"
        assert other.get("a") == {"html": "<p>a</p>"}  # each read has its own value
        other.delete("a")
        assert other.get("a") is None
    finally:
        one.delete_many(list("abc"))  # not clear(): that empties the whole Redis database


@needs_redis
def test_a_local_first_cache_keeps_its_copy_within_its_bounds_and_the_entries_timeouts():
    cache = _local_first(LOCAL_ENTRIES=2)
    try:
        cache.set_many({"a": 1, "b": 2}, 60)
        cache.get("a")  # a is used: b goes first
        cache.set("c", 3, 60)
        assert set(cache._local.entries) == {cache.make_and_validate_key(k) for k in "ac"}
        cache.set("short", 4, 0)  # Django's "not kept"
        assert cache.get("short") is None
    finally:
        cache.delete_many(["a", "b", "c", "short"])


def test_a_local_first_cache_fails_open_and_keeps_its_own_writes_while_redis_is_down():
    cache = LocalFirstRedisCache("redis://127.0.0.1:1/0", {})  # nothing listens
    cache.set_many({"a": "<p>a</p>"}, 60)
    assert cache.get_many(["a", "b"]) == {"a": "<p>a</p>"}
    assert cache.get("b", "default") == "default"
    cache.clear()
    assert cache.get("a") is None


def test_the_cache_objects_of_one_process_share_one_copy():
    one, other = _local_first("test-local-first-threads"), _local_first("test-local-first-threads")  # two threads
    assert one._local is other._local
    one.set("a", "<p>a</p>", 60)  # Redis is not reached (REDIS_URL unset) or shares it anyway
    assert other.get("a") == "<p>a</p>"
    other.delete("a")
    assert one.get("a") is None


@needs_redis
def test_a_local_only_read_finds_this_processs_copies_and_nothing_only_redis_holds():
    one, other = _two_processes("test-local-first-local-only")
    try:
        one.set("mine", "<p>rendered here</p>", 60)
        other.set("theirs", "<p>rendered there</p>", 60)
        other.flush_writes()
        assert one.get_many(["mine", "theirs"], local_only=True) == {"mine": "<p>rendered here</p>"}
        assert one.get_many(["mine", "theirs"]) == {"mine": "<p>rendered here</p>", "theirs": "<p>rendered there</p>"}
    finally:
        one.delete_many(["mine", "theirs"])


@needs_redis
def test_writes_reach_redis_behind_the_request_in_order_and_at_once_when_too_many_wait(monkeypatch):
    from orleans_site import cache as site_cache

    one, other = _two_processes("test-local-first-behind")
    try:
        for n in range(50):
            one.set("k", f"<p>{n}</p>", 60)  # the same key again and again: the last write wins in Redis too
        one.flush_writes()
        assert other.get("k") == "<p>49</p>"

        class Full:
            def submit(self, write):
                return False

            def flush(self):
                pass

        monkeypatch.setattr(site_cache, "write_behind", lambda server: Full())
        one.set("now", "<p>written by the request</p>", 60)  # no flush: made before set returned
        assert other.get("now") == "<p>written by the request</p>"
    finally:
        one.delete_many(["k", "now"])


def test_a_forked_process_writes_through_a_writer_of_its_own(monkeypatch):
    from orleans_site import cache as site_cache

    parent = site_cache.write_behind("redis://example:6379/0")
    assert site_cache.write_behind("redis://example:6379/0") is parent
    monkeypatch.setattr(site_cache.os, "getpid", lambda: -1)  # a child after fork
    child = site_cache.write_behind("redis://example:6379/0")
    assert child is not parent and child.thread.is_alive()
