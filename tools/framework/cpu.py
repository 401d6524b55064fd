"""A bounded thread pool for CPU-heavy work, so it never blocks the event loop.

Threads (not processes) because the heavy parts (numpy, pandas, torch) release the GIL and the
work needs the caller's context variables (profile, tool context), which `copy_context` carries.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

CPU_WORKERS = max(2, min(8, os.cpu_count() or 2))
_executor: ThreadPoolExecutor | None = None


def cpu_executor() -> ThreadPoolExecutor:
    """The shared pool (created lazily, `CPU_WORKERS` threads)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=CPU_WORKERS, thread_name_prefix="assetops-cpu")
    return _executor


async def run_cpu(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `fn(*args, **kwargs)` in the CPU pool with the caller's context variables; await the result."""
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    call = functools.partial(context.run, fn, *args, **kwargs)
    return await loop.run_in_executor(cpu_executor(), call)
