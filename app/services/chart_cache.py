"""Rendered charts kept as PNG files under <data_dir>/charts, keyed by artifact id and data version.

A chart depends only on the artifact's data file and the drawing code, so the key is the artifact
id, the file's size and modification time, and CHART_VERSION (bump it when charts.py draws
differently). A reload of the page then reads files instead of re-plotting every chart. Files
for an artifact's older data versions are replaced when a new one is written.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from pathlib import Path

CHART_VERSION = "2"
_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_locks: dict[str, asyncio.Lock] = {}


def chart_key(artifact_id: str, data_file: Path) -> str:
    """The cache file name of an artifact's chart for its current data file."""
    stat = data_file.stat()
    return f"{_SAFE.sub('_', artifact_id)}-{stat.st_size}-{stat.st_mtime_ns}-v{CHART_VERSION}.png"


async def cached_chart(cache_dir: Path, artifact_id: str, data_file: Path,
                       render: Callable[[], bytes | None]) -> bytes | None:
    """The chart PNG from the cache, rendering it (off the event loop) once on a miss; None when
    the data has no chartable shape. Concurrent requests for one chart render it once."""
    target = cache_dir / chart_key(artifact_id, data_file)
    if target.is_file():
        return target.read_bytes()
    lock = _locks.setdefault(target.name, asyncio.Lock())
    async with lock:
        if target.is_file():
            return target.read_bytes()
        png = await asyncio.to_thread(render)
        if png is not None:
            _store(cache_dir, target, png)
    _locks.pop(target.name, None)
    return png


def _store(cache_dir: Path, target: Path, png: bytes) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    prefix = target.name.rsplit("-", 3)[0] + "-"
    for old in cache_dir.glob(f"{prefix}*.png"):  # an older data version of the same artifact
        old.unlink(missing_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(png)
    partial.replace(target)  # atomic: a reader never sees half a file
