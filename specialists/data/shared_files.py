"""Telemetry-file work shared by concurrent sessions: each merged window is written once, each
history CSV is parsed once.

Profiled under 20 concurrent 5-turn sessions (py-spy on the API process), 31% of the samples were
`merge_histories` writing the same merged CSV again: every session asking for the same asset and
window merges the same chunk files into the same (deterministic) file name. The merged file is a
pure function of its chunk files, so it is rebuilt only when it is missing or older than one of
them, and concurrent requests for the same target wait for the one merge in flight. Parsing the
same CSV in every session (`read_history`) is the next cost; parsed frames are kept, keyed by the
file's identity (inode, size, modification time), so a rewritten file is parsed again.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from specialists.data import frames
from tools.framework import singleflight

T = TypeVar("T")
MAX_FRAMES = 16  # a year of 15-minute samples is a few MB as a frame
MAX_DERIVED = 256  # small summaries (per-sensor numbers), not frames
_lock = threading.Lock()
_STATS = {"merges": 0, "merges_skipped": 0, "parses": 0, "parses_saved": 0, "derived": 0, "derived_saved": 0}
# One lock per key being computed: sessions arriving together wait for the first one's result
# instead of each computing it (they run in threads, so this is the threads' single-flight).
_computing: dict[Hashable, threading.Lock] = {}


def _key_lock(key: Hashable) -> threading.Lock:
    with _lock:
        return _computing.setdefault(key, threading.Lock())


def _done_computing(key: Hashable) -> None:
    with _lock:
        _computing.pop(key, None)


def _identity(path: Path) -> tuple[str, int, int, int]:
    stat = path.stat()
    return str(path.resolve()), stat.st_ino, stat.st_size, stat.st_mtime_ns


class _OnceCache:
    """A bounded LRU of values computed once per key, concurrent callers of one key waiting for the
    first (`computed` / `saved` name the counters in `stats()`)."""

    def __init__(self, limit: int, computed: str, saved: str) -> None:
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._limit, self._computed, self._saved = limit, computed, saved

    def _get(self, key: Hashable) -> tuple[bool, Any]:
        with _lock:
            if key not in self._values:
                return False, None
            self._values.move_to_end(key)
            _STATS[self._saved] += 1
            return True, self._values[key]

    def clear(self) -> None:
        """Forget every value (the caller holds `_lock`)."""
        self._values.clear()

    def get_or_compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        found, value = self._get(key)
        if found:
            return value  # type: ignore[no-any-return]
        with _key_lock((self._computed, key)):
            found, value = self._get(key)
            if not found:
                value = compute()
                with _lock:
                    _STATS[self._computed] += 1
                    self._values[key] = value
                    while len(self._values) > self._limit:
                        self._values.popitem(last=False)
        _done_computing((self._computed, key))
        return value  # type: ignore[no-any-return]


_frames = _OnceCache(MAX_FRAMES, "parses", "parses_saved")
_derived = _OnceCache(MAX_DERIVED, "derived", "derived_saved")


def read_history(path: str | Path) -> pd.DataFrame:
    """`frames.read_history(path)`, parsed once per version of the file; the caller gets its own copy."""
    frame: pd.DataFrame = _frames.get_or_compute(_identity(Path(path)), lambda: frames.read_history(path))
    return frame.copy()


def derived(path: str | Path, what: Hashable, compute: Callable[[pd.DataFrame], T]) -> T:
    """`compute(frame of path)`, computed once per version of the file and `what` (which must name
    everything else the result depends on). The result is shared: callers must not change it."""
    return _derived.get_or_compute((_identity(Path(path)), what), lambda: compute(read_history(path)))


def up_to_date(target: Path, sources: list[str]) -> bool:
    """True when `target` exists and was written after every source was."""
    try:
        written = target.stat().st_mtime_ns
        return all(Path(s).stat().st_mtime_ns <= written for s in sources)
    except OSError:
        return False


def _merge(paths: list[str], target: Path) -> Path:
    """The merged file (written unless already up to date), from cached parses of the chunks."""
    if up_to_date(target, paths):
        _STATS["merges_skipped"] += 1
        return target
    parts = [read_history(p) for p in paths]
    merged = pd.concat(parts, ignore_index=True).drop_duplicates(subset="ts").sort_values("ts")
    frames.write_history(merged, target)
    _STATS["merges"] += 1
    return target


async def merge_once(paths: list[str], target: Path) -> Path:
    """`frames.merge_histories(paths, target)` shared by concurrent callers and skipped when fresh."""
    result, _ = await singleflight.shared(f"merge:{target}", lambda: asyncio.to_thread(_merge, paths, target))
    return result


def stats() -> dict[str, int]:
    """Merges written and skipped, parses done and saved, since the process started."""
    with _lock:
        return dict(_STATS)


def clear() -> None:
    """Forget the parsed frames (tests)."""
    with _lock:
        _frames.clear()
        _derived.clear()
