"""The shared read-only result cache, keyed by (tool, normalised args, database, data version).

Values are the results' JSON text, so every hit hands out a fresh copy and a shared backend
(Redis: `GET`/`SETEX` on the same key string) can replace the in-process LRU without changing the
call path: implement `ResultCache` and install it with `set_result_cache`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from assetops.db.tables import FleetMetaRow
from tools.framework.context import ToolContext
from tools.framework.spec import ToolSpec

DATA_VERSION_TTL_S = 1.0
# Output keys that name a file the result points to: a cached result is only valid while it exists.
FILE_OUTPUT_KEYS = ("csv_path", "results_file")


class ResultCache(Protocol):
    """Minimal store interface: JSON text per key."""

    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None: ...

    def clear(self) -> None: ...


class LRUResultCache:
    """A bounded in-process LRU (thread-safe; the CPU pool may touch it)."""

    def __init__(self, max_entries: int = 1024) -> None:
        self.max_entries = max_entries
        self._items: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> str | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def set(self, key: str, value: str) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


_cache: ResultCache = LRUResultCache()
_versions: dict[str, tuple[float, str | None]] = {}


def result_cache() -> ResultCache:
    """The installed cache."""
    return _cache


def set_result_cache(cache: ResultCache) -> None:
    """Install another backend (e.g. a Redis-backed one)."""
    global _cache
    _cache = cache


def clear_result_cache() -> None:
    """Drop every cached result and the remembered data versions."""
    _cache.clear()
    _versions.clear()


async def data_version(ctx: ToolContext) -> str | None:
    """The loaded fleet's `data_version` (remembered for `DATA_VERSION_TTL_S`); None if unreadable."""
    url = ctx.db.url
    now = time.monotonic()
    remembered = _versions.get(url)
    if remembered is not None and remembered[0] > now:
        return remembered[1]
    try:
        async with ctx.db.session() as session:
            value = await session.scalar(select(FleetMetaRow.value).where(FleetMetaRow.key == "data_version"))
    except SQLAlchemyError:  # an unmigrated database: caching is simply off
        value = None
    _versions[url] = (now + DATA_VERSION_TTL_S, value)
    return value


def cache_key(spec: ToolSpec, values: dict[str, Any], ctx: ToolContext, version: str) -> str:
    """A stable key: tool, args (sorted, defaults filled), database, work dir and data version."""
    payload = json.dumps(
        [spec.full_name, values, ctx.db.url, str(ctx.settings.work_dir), version],
        sort_keys=True,
        default=str,
    )
    return "assetops:tool:" + hashlib.sha256(payload.encode()).hexdigest()


def still_valid(output: Any) -> bool:
    """False when a cached result points to a file that no longer exists."""
    if not isinstance(output, dict):
        return True
    for key in FILE_OUTPUT_KEYS:
        path = output.get(key)
        if isinstance(path, str) and path and not Path(path).exists():
            return False
    return True
