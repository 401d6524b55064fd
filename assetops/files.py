"""Atomic file writes for the work directory.

Concurrent sessions asking for the same window or analysis write files of the same (deterministic)
name. A plain write truncates the file another session may be reading, or interleaves two writers
(found under 50 concurrent sessions: empty files, NUL-filled rows, and a SIGBUS in the service).
Writing a private temporary file and renaming it over the target makes every reader see a whole
file, old or new.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any


def atomic_write(path: Path, write: Callable[[Path], Any]) -> None:
    """Call `write(temporary_path)`, then rename the result over `path` (same directory, atomic)."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def atomic_write_text(path: Path, text: str) -> None:
    """`path.write_text(text)`, atomically."""
    atomic_write(path, lambda p: p.write_text(text, encoding="utf-8"))


def atomic_to_csv(frame: Any, path: Path, **kwargs: Any) -> None:
    """`frame.to_csv(path, **kwargs)` for a pandas DataFrame, atomically."""
    atomic_write(path, lambda p: frame.to_csv(p, **kwargs))
