"""The hot cache: Redis when configured and reachable, an in-process LRU otherwise.

Redis is an accelerator, never a dependency: when it is not configured, or goes down mid-flight, the
cache logs that once and keeps serving from the in-process LRU. It retries Redis after a pause so a
restarted Redis is picked up again without restarting the service.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


class LRUCache:
    """A bounded in-process cache with per-entry expiry."""

    def __init__(self, max_entries: int = 2048) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    async def get(self, key: str) -> bytes | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        expires, value = entry
        if expires < time.monotonic():
            del self._data[key]
            return None
        self._data.move_to_end(key)
        return value

    async def set(self, key: str, value: bytes, ttl_s: int) -> None:
        self._data[key] = (time.monotonic() + ttl_s, value)
        self._data.move_to_end(key)
        while len(self._data) > self.max_entries:
            self._data.popitem(last=False)

    async def delete(self, key: str) -> None:
        self._data.pop(key, None)

    def __len__(self) -> int:
        return len(self._data)


class FallbackCache:
    """Redis first; on any Redis error switch to the LRU (logged once) and retry Redis later."""

    RETRY_AFTER_S = 30.0

    def __init__(self, redis_url: str, lru: LRUCache, *, namespace: str = "assetops") -> None:
        self.redis_url = redis_url
        self.namespace = namespace
        self.lru = lru
        self.client: aioredis.Redis | None = (
            aioredis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=1.0) if redis_url else None
        )
        self._down_since: float | None = None
        self._warned = False

    @property
    def using_redis(self) -> bool:
        """True while Redis is configured and not known to be down."""
        return self.client is not None and not self._redis_down()

    def _redis_down(self) -> bool:
        if self._down_since is None:
            return False
        if time.monotonic() - self._down_since > self.RETRY_AFTER_S:
            self._down_since = None  # time to try Redis again
            return False
        return True

    def _mark_down(self, exc: Exception) -> None:
        self._down_since = time.monotonic()
        if not self._warned:
            log.warning("Redis at %s unavailable (%s); serving from the in-process cache", self.redis_url, exc)
            self._warned = True

    def _key(self, key: str) -> str:
        return f"{self.namespace}:{key}"

    async def get(self, key: str) -> bytes | None:
        if self.client is not None and not self._redis_down():
            try:
                value = await self.client.get(self._key(key))
                return value.encode() if isinstance(value, str) else value
            except (RedisError, OSError) as exc:
                self._mark_down(exc)
        return await self.lru.get(key)

    async def set(self, key: str, value: bytes, ttl_s: int) -> None:
        if self.client is not None and not self._redis_down():
            try:
                await self.client.set(self._key(key), value, ex=ttl_s)
                return
            except (RedisError, OSError) as exc:
                self._mark_down(exc)
        await self.lru.set(key, value, ttl_s)

    async def delete(self, key: str) -> None:
        # Delete from both: an entry may have been written to the LRU while Redis was down.
        await self.lru.delete(key)
        if self.client is not None and not self._redis_down():
            try:
                await self.client.delete(self._key(key))
            except (RedisError, OSError) as exc:
                self._mark_down(exc)

    async def ping(self) -> None:
        """Raise when Redis is configured but does not answer (used by /readyz)."""
        if self.client is not None:
            await self.client.ping()

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()


def build_cache(redis_url: str, lru_size: int = 2048, namespace: str = "assetops") -> FallbackCache:
    """The service's cache: Redis-backed when `redis_url` is set, LRU-only otherwise."""
    return FallbackCache(redis_url, LRUCache(lru_size), namespace=namespace)
