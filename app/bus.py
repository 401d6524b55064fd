"""Fan-out of a session's turn events to every websocket watching it.

In-process queues serve one worker; with Redis configured, events go through Redis pub/sub so
watchers connected to any worker process receive them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

from redis.exceptions import RedisError

from assetops.cache import FallbackCache

log = logging.getLogger(__name__)


class SessionBus:
    """publish(session, json) / subscribe(session) -> async iterator of json strings."""

    def __init__(self, cache: FallbackCache) -> None:
        self.cache = cache
        self._queues: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)

    @staticmethod
    def _channel(session_id: str) -> str:
        return f"assetops:session:{session_id}:events"

    async def publish(self, session_id: str, payload: str) -> None:
        client: Any = self.cache.client
        if client is not None and self.cache.using_redis:
            try:
                await client.publish(self._channel(session_id), payload)
                return
            except (RedisError, OSError) as exc:
                log.warning("redis publish failed (%s); delivering in-process", exc)
        for queue in list(self._queues.get(session_id, ())):
            queue.put_nowait(payload)

    @contextlib.asynccontextmanager
    async def subscribe(self, session_id: str) -> AsyncIterator[AsyncIterator[str]]:
        client: Any = self.cache.client
        if client is not None and self.cache.using_redis:
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(self._channel(session_id))
            except (RedisError, OSError):
                await pubsub.aclose()
            else:
                try:
                    yield self._redis_messages(pubsub)
                finally:
                    with contextlib.suppress(RedisError, OSError):
                        await pubsub.unsubscribe(self._channel(session_id))
                    await pubsub.aclose()
                return
        queue: asyncio.Queue[str] = asyncio.Queue()
        self._queues[session_id].add(queue)
        try:
            yield self._local_messages(queue)
        finally:
            self._queues[session_id].discard(queue)

    @staticmethod
    async def _local_messages(queue: asyncio.Queue[str]) -> AsyncIterator[str]:
        while True:
            yield await queue.get()

    @staticmethod
    async def _redis_messages(pubsub: Any) -> AsyncIterator[str]:
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is not None and message.get("type") == "message":
                data = message["data"]
                yield data.decode() if isinstance(data, bytes) else str(data)
