"""Profiling primitives: a per-task recorder of LLM calls, tool calls and database queries.

The recorder travels in a context variable, so whatever runs inside a turn (tools, specialists,
the database layer) records into that turn's profile without being handed it explicitly.
asyncio copies the context into every task it creates, which is what makes parallel tool calls
land in the right profile.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class QueryRecord:
    """One SQL statement executed by the database layer."""

    kind: str  # SELECT / INSERT / UPDATE / DELETE / OTHER
    latency_ms: float
    rows: int
    error: str | None = None
    started_at: float = 0.0  # perf_counter (CLOCK_MONOTONIC: comparable across this machine's processes)


@dataclass(slots=True)
class ToolCallRecord:
    """One tool call as seen by the tool framework."""

    server: str
    tool: str
    args: dict[str, Any]
    status: str
    latency_ms: float
    started_at: float
    finished_at: float
    error: str | None = None
    rows: int | None = None
    reused: bool = False
    specialist: str | None = None
    db_ms: float = 0.0  # database time of this call's own queries (in process or in a worker)
    db_queries: int = 0


@dataclass(slots=True)
class LLMCallRecord:
    """One chat-model call."""

    model: str
    latency_ms: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    purpose: str = ""
    started_at: float = 0.0  # perf_counter


@dataclass(slots=True)
class StageRecord:
    """One timed stage of the graph itself (e.g. the supervisor's routing), measured around the node."""

    name: str
    started_at: float
    finished_at: float


@dataclass
class Profile:
    """Everything recorded for one unit of work (usually a turn)."""

    queries: list[QueryRecord] = field(default_factory=list)
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    llm_calls: list[LLMCallRecord] = field(default_factory=list)
    stages: list[StageRecord] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Totals used by the turn timings and the dashboard."""
        return {
            "db_queries": len(self.queries),
            "db_ms": round(sum(q.latency_ms for q in self.queries), 3),
            "tool_calls": len(self.tool_calls),
            "tool_ms": round(sum(t.latency_ms for t in self.tool_calls), 3),
            "llm_calls": len(self.llm_calls),
            "llm_ms": round(sum(c.latency_ms for c in self.llm_calls), 3),
            "prompt_tokens": sum(c.prompt_tokens for c in self.llm_calls),
            "completion_tokens": sum(c.completion_tokens for c in self.llm_calls),
        }


_current: ContextVar[Profile | None] = ContextVar("assetops_profile", default=None)
_enabled = True


def set_profiling_enabled(enabled: bool) -> None:
    """Switch recording on or off process-wide (on by default; off only to measure its overhead)."""
    global _enabled
    _enabled = enabled


@contextlib.contextmanager
def timed_stage(name: str) -> Iterator[None]:
    """Record the block as a stage of the current profile (no-op outside a profiled block)."""
    profile = _current.get()
    started = time.perf_counter()
    try:
        yield
    finally:
        if profile is not None:
            profile.stages.append(StageRecord(name, started, time.perf_counter()))


def current_profile() -> Profile | None:
    """The profile of the running unit of work, if one is being recorded."""
    return _current.get()


@contextlib.contextmanager
def profiling(profile: Profile | None = None) -> Iterator[Profile]:
    """Record everything that happens inside the block into `profile` (a new one by default)."""
    profile = profile or Profile()
    if not _enabled:  # profiling switched off (the overhead benchmark's baseline): record nothing
        yield profile
        return
    token = _current.set(profile)
    try:
        yield profile
    finally:
        _current.reset(token)


def record_query(kind: str, started: float, rows: int, error: str | None = None) -> None:
    """Add a query to the current profile (no-op outside a profiled block)."""
    profile = _current.get()
    if profile is not None:
        profile.queries.append(QueryRecord(kind, (time.perf_counter() - started) * 1000.0, rows, error, started))


def chat_model_name(llm: Any) -> str:
    """A chat model's name for the profile (whatever attribute its LangChain class uses)."""
    for attribute in ("model_name", "model"):
        value = getattr(llm, attribute, None)
        if isinstance(value, str) and value:
            return value
    return type(llm).__name__


def record_llm_call(llm: Any, started: float, message: Any, purpose: str) -> None:
    """Add an LLM call (model, latency since `started`, token usage of the reply message when the
    endpoint reports it) to the current profile. `message` is None for a failed call."""
    profile = _current.get()
    if profile is None:
        return
    usage = getattr(message, "usage_metadata", None) or {}
    profile.llm_calls.append(LLMCallRecord(
        model=chat_model_name(llm), latency_ms=(time.perf_counter() - started) * 1000.0,
        prompt_tokens=int(usage.get("input_tokens", 0) or 0),
        completion_tokens=int(usage.get("output_tokens", 0) or 0), purpose=purpose, started_at=started,
    ))
