"""In-flight keys for tools whose answer depends on files in the work directory.

The TTM tools and `utilities.csv_stats` read a file named in their arguments, so they are not in the
result cache (a rewritten file must give a fresh answer). Under load, sessions asking about the
same chiller and window still issue the very same call on the very same file at the same moment,
and each ran its own copy of a seconds-long inference. Their key here is the result cache's key
plus the identity of every input file (inode, size, modification time): two calls that share a key
read the same bytes, so one execution can answer both. A file argument that does not resolve to an
existing path inside the work directory is keyed by its value: the tool reports that problem
itself, the same for every caller.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from tools.framework.cache import cache_key
from tools.framework.context import ToolContext
from tools.framework.errors import ToolError
from tools.framework.paths import resolve_in_workdir
from tools.framework.spec import ToolSpec


def file_identity(spec: ToolSpec, values: dict[str, Any], workdir: Path) -> list[str]:
    """Per argument of `spec.input_files`: its value, plus `inode:size:mtime` when it names an existing
    path inside the work directory (a base model name such as "ttm_96_28" or a bad path stays a plain
    value: the tool answers it, with the same result or error for every caller)."""
    parts: list[str] = []
    for name in spec.input_files:
        value = values.get(name)
        part = f"{name}={value!r}"
        if isinstance(value, str) and value.strip():
            try:
                stat = resolve_in_workdir(name, value, workdir=workdir, must_exist=True).stat()
                part += f":{stat.st_ino}:{stat.st_size}:{stat.st_mtime_ns}"
            except (ToolError, OSError):
                pass
        parts.append(part)
    return parts


def in_flight_key(spec: ToolSpec, values: dict[str, Any], ctx: ToolContext, version: str | None) -> str | None:
    """The single-flight key of a call to a tool with `input_files` (None for other tools)."""
    if not spec.input_files:
        return None
    identity = file_identity(spec, values, ctx.workdir)
    base = cache_key(spec, values, ctx, version or "")
    return "assetops:inflight:" + hashlib.sha256("\n".join([base, *identity]).encode()).hexdigest()
