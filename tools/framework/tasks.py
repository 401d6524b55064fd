"""Worker tasks: pure, GIL-bound functions that may run in this process or in a worker process.

A task is a module-level function marked with `@worker_task`, taking JSON-ready keyword arguments
and returning a `TaskOutput`: a small JSON `meta` plus an opaque `payload` (usually JSON text the
caller splices into the tool output). Run in this process it may also hand back `value`, the
payload already as Python objects, so the caller skips decoding it. The worker process (and
only it) resolves tasks by name, and only marked functions in `tools.*` modules.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from assetops.profiling import Profile, QueryRecord, profiling

# Modules a worker process may import to find a task: the tool layer, nothing else.
TASK_MODULE_PREFIX = "tools."
_MARK = "__assetops_worker_task__"

TaskFn = Callable[..., "TaskOutput"]


@dataclass(frozen=True)
class TaskOutput:
    """What a task returns. `value`, when set, equals the decoded `payload` (in-process runs only)."""

    meta: dict[str, Any] = field(default_factory=dict)
    payload: bytes = b""
    value: Any = None


class TaskError(RuntimeError):
    """A task failed inside a worker process; the message carries the original exception."""


def worker_task(fn: TaskFn) -> TaskFn:
    """Mark `fn` as safe to run in a worker process (module-level, JSON arguments, TaskOutput)."""
    setattr(fn, _MARK, True)
    return fn


def task_name(fn: TaskFn) -> str:
    """`module:function`, the name a worker process resolves the task by."""
    return f"{fn.__module__}:{fn.__qualname__}"


def resolve_task(name: str) -> TaskFn:
    """The marked task function called `name`; ValueError for anything else."""
    module_name, _, function_name = name.partition(":")
    if not module_name.startswith(TASK_MODULE_PREFIX) or not function_name or "." in function_name:
        raise ValueError(f"not a worker task name: {name!r}")
    fn = getattr(importlib.import_module(module_name), function_name, None)
    if fn is None or not getattr(fn, _MARK, False):
        raise ValueError(f"{name!r} is not a registered worker task")
    return fn  # type: ignore[no-any-return]


def run_recorded(fn: TaskFn, kwargs: dict[str, Any]) -> tuple[TaskOutput, list[dict[str, Any]]]:
    """Run a task under its own profile; return its output and its database queries as dicts."""
    with profiling(Profile()) as profile:
        output = fn(**kwargs)
    return output, [asdict(query) for query in profile.queries]


def query_records(raw: list[dict[str, Any]]) -> list[QueryRecord]:
    """The queries a worker reported, back as `QueryRecord`s."""
    return [QueryRecord(**query) for query in raw]


@worker_task
def ping(*, delay_s: float = 0.0) -> TaskOutput:
    """Where a task ran (`pid`), after `delay_s` seconds: health checks and tests of the pool."""
    if delay_s > 0:
        time.sleep(delay_s)
    return TaskOutput(meta={"pid": os.getpid()})
