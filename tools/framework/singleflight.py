"""Identical in-flight tool calls share one execution, across sessions.

The result cache answers a call that already finished; this covers the call that is still running:
under load, sessions asking about the same chiller and window issue the same telemetry reads at the
same moment, and each used to run its own copy. The first caller (the leader) runs the call; others
with the same cache key await its result. Keys are the result cache's, so only cacheable tools
share, and a leader that is cancelled makes its followers run the call themselves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
_IN_FLIGHT: dict[tuple[int, str], asyncio.Future[Any]] = {}
_STATS = {"leaders": 0, "followers": 0}


async def shared(key: str, run: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
    """(result, True when another caller's execution was shared) for the call identified by `key`."""
    loop = asyncio.get_running_loop()
    slot = (id(loop), key)
    pending = _IN_FLIGHT.get(slot)
    if pending is not None:
        try:
            _STATS["followers"] += 1
            return await asyncio.shield(pending), True
        except asyncio.CancelledError:
            if not pending.cancelled():
                raise  # this follower itself was cancelled
        # the leader was cancelled: run it ourselves (as a new leader below)
    future: asyncio.Future[Any] = loop.create_future()
    _IN_FLIGHT[slot] = future
    _STATS["leaders"] += 1
    try:
        result = await run()
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody followed
        raise
    else:
        future.set_result(result)
        return result, False
    finally:
        if _IN_FLIGHT.get(slot) is future:
            del _IN_FLIGHT[slot]


def stats() -> dict[str, int]:
    """Leaders (executions) and followers (calls that shared one) since the process started."""
    return dict(_STATS)
