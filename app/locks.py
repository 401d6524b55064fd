"""One turn at a time per session: a Redis lock when configured (shared by replicas), else in-process."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from collections.abc import AsyncIterator
from typing import Any

from redis.exceptions import RedisError

from assetops.cache import FallbackCache

# A running turn renews its lock every RENEW_EVERY_S (see app.services.turns), so a killed process's
# lock expires within LOCK_TTL_MS instead of blocking the session for long.
LOCK_TTL_MS = 30 * 1000
RENEW_EVERY_S = 10.0


_HOST = socket.gethostname()


def holder_is_dead(token: str) -> bool:
    """True when a lock token names a process of this host that is not running (or this very pid,
    which cannot hold it yet: a reused pid of a dead holder)."""
    host, _, rest = token.partition(":")
    pid_text = rest.partition(":")[0]
    if host != _HOST or not pid_text.isdigit():
        return False  # another host's (or an old-format) lock: only its TTL can end it
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class SessionBusy(Exception):
    """Another turn of the session is running."""


class SessionLocks:
    """Acquire with `async with locks.hold(session_id):`; raises SessionBusy when already held."""

    def __init__(self, cache: FallbackCache) -> None:
        self.cache = cache
        self._local: set[str] = set()

    @contextlib.asynccontextmanager
    async def hold(self, session_id: str) -> AsyncIterator[None]:
        lease = await self.acquire(session_id)
        try:
            yield
        finally:
            await self.release(lease)

    async def acquire(self, session_id: str) -> tuple[str, str, bool]:
        """Take the lock (SessionBusy when held); returns the lease to `release`."""
        # host:pid in the token lets a restarted process on this host tell a dead holder's lock from a live one.
        token = f"{_HOST}:{os.getpid()}:{secrets.token_hex(8)}"
        return session_id, token, await self._acquire(session_id, token)

    async def release(self, lease: tuple[str, str, bool]) -> None:
        """Give a lease back."""
        await self._release(*lease)

    async def renew(self, lease: tuple[str, str, bool]) -> None:
        """Extend a held Redis lock by LOCK_TTL_MS (only while it is still ours); best effort."""
        session_id, token, use_redis = lease
        client: Any = self.cache.client
        if not use_redis or client is None:
            return
        with contextlib.suppress(RedisError, OSError):
            await client.eval("if redis.call('get', KEYS[1]) == ARGV[1] then "
                              "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end",
                              1, f"assetops:lock:{session_id}", token, LOCK_TTL_MS)

    async def held_elsewhere(self, session_id: str) -> bool:
        """True when a live process holds the shared lock of `session_id`; False without Redis.

        A lock whose holder was a process on this host that no longer runs (killed, restarted) is
        stale: it is deleted here, so the session does not wait for the lock's TTL."""
        client: Any = self.cache.client
        if client is None or not self.cache.using_redis:
            return False
        key = f"assetops:lock:{session_id}"
        try:
            raw = await client.get(key)
            if raw is None:
                return False
            token = raw.decode() if isinstance(raw, bytes) else str(raw)
            if not holder_is_dead(token):
                return True
            await client.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
                              "else return 0 end", 1, key, token)
            return False
        except (RedisError, OSError):
            return False

    async def _acquire(self, session_id: str, token: str) -> bool:
        if session_id in self._local:
            raise SessionBusy(session_id)
        client: Any = self.cache.client
        if client is not None and self.cache.using_redis:
            try:
                if not await client.set(f"assetops:lock:{session_id}", token, nx=True, px=LOCK_TTL_MS):
                    raise SessionBusy(session_id)
                self._local.add(session_id)
                return True
            except (RedisError, OSError):
                pass  # Redis down: fall back to the in-process lock (one replica keeps serving)
        self._local.add(session_id)
        return False

    async def _release(self, session_id: str, token: str, use_redis: bool) -> None:
        self._local.discard(session_id)
        if not use_redis:
            return
        client: Any = self.cache.client
        with contextlib.suppress(RedisError, OSError):
            # Delete only our own lock (compare-and-delete), never one a later holder took after expiry.
            await client.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
                              "else return 0 end", 1, f"assetops:lock:{session_id}", token)
