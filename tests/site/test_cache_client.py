"""The Redis cache (orleans_site.cache) keeps one redis client per connection pool."""
from orleans_site.cache import FailOpenRedisCache


def test_the_redis_cache_builds_one_client_per_connection_pool_not_one_per_operation():
    cache = FailOpenRedisCache("redis://127.0.0.1:1/0", {})  # nothing listens: no connection is made
    first = cache._cache.get_client("a", write=True)
    assert cache._cache.get_client("b", write=True) is first
    assert cache._cache.get_client("a").connection_pool is first.connection_pool  # a single server
    assert cache.get("a") is None  # and it still fails open
