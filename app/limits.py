"""Request limits: body size (413) as pure ASGI middleware, and a per-key rate limit (429)."""

from __future__ import annotations

import json
import time
from collections import defaultdict, deque
from typing import Any

from fastapi import HTTPException, status
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assetops.cache import FallbackCache


class BodySizeLimit:
    """Refuse request bodies over `max_bytes` with 413, by Content-Length or while streaming."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._reject(send, int(declared))
            return
        received, too_large, started = 0, False, False

        async def limited_receive() -> Message:
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Parsers catch exceptions raised here (FastAPI turns them into a 400), so the
                    # app sees a disconnect instead and its own reply is swallowed for our 413.
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_large:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not too_large:
                raise
        if too_large and not started:
            await self._reject(send, received)

    async def _reject(self, send: Send, size: int) -> None:
        body = json.dumps({"detail": f"Request body of {size:,} bytes is over the limit of {self.max_bytes:,} bytes. "
                                     "Send the relevant excerpt (or a file path in the work directory) instead."})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body.encode()})


class RateLimiter:
    """A sliding one-minute window per API key; Redis-backed (shared by replicas) when configured."""

    def __init__(self, per_minute: int, cache: FallbackCache | None = None) -> None:
        self.per_minute = per_minute
        self.cache = cache
        self._hits: dict[str, deque[float]] = defaultdict(deque)

    async def check(self, key: str) -> None:
        """Count a request of `key`; 429 with Retry-After when the minute's budget is spent."""
        count = await self._redis_count(key) if self.cache is not None and self.cache.using_redis else None
        if count is None:
            count = self._local_count(key)
        if count > self.per_minute:
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS,
                                f"Rate limit of {self.per_minute} requests per minute reached for this API key; "
                                "retry in a minute.", headers={"Retry-After": "60"})

    def _local_count(self, key: str) -> int:
        now = time.monotonic()
        hits = self._hits[key]
        while hits and now - hits[0] > 60.0:
            hits.popleft()
        hits.append(now)
        return len(hits)

    async def _redis_count(self, key: str) -> int | None:
        client: Any = self.cache.client if self.cache is not None else None
        bucket = f"assetops:rate:{key}:{int(time.time() // 60)}"
        try:
            count = await client.incr(bucket)
            if count == 1:
                await client.expire(bucket, 120)
            return int(count)
        except (RedisError, OSError):
            return None
