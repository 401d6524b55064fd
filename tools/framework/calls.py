"""The one call path: validate, cache lookup, run with a timeout, record, return. Never raises."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from assetops.profiling import Profile, ToolCallRecord, current_profile, profiling
from tools.framework import cache as result_cache_module
from tools.framework import singleflight
from tools.framework.context import ToolContext, tool_context, use_tool_context
from tools.framework.cpu import run_cpu
from tools.framework.errors import ToolError
from tools.framework.file_keys import in_flight_key
from tools.framework.result import Status, ToolCall, ToolResult, error_output, json_default
from tools.framework.spec import ToolSpec
from tools.framework.validation import validate_args

log = logging.getLogger(__name__)

DEFAULT_BATCH_CONCURRENCY = 8
_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")
_TWENTY_DIGITS = "0" * 20
_rows: ContextVar[list[int] | None] = ContextVar("assetops_tool_rows", default=None)


def note_rows(count: int) -> None:
    """Tell the call path how many stored rows the running tool touched (shows up in the record)."""
    bucket = _rows.get()
    if bucket is not None:
        bucket.append(int(count))


@dataclass(frozen=True, slots=True)
class EncodedOutput:
    """A tool output that comes with its JSON text, so the call path skips its own round trip.

    For tools that already hold a compact encoding of a big result (e.g. orjson on plain
    dicts/lists/str/float). `value` must equal `json.loads(text)` and belong to no one else.
    """

    value: Any
    text: str


def decode_json(text: str) -> Any:
    """`json.loads`, with orjson's speed where it gives the same result (a cached week of history:
    several times faster).

    orjson refuses NaN and Infinity (only Python's json writes them) and reads integers beyond
    64 bits as floats; such texts (any run of 20 digits) take the slow path. The digit check maps
    every digit to 0 and looks for twenty zeros: a C-speed scan, unlike a regex over ~10k numbers.
    """
    if _TWENTY_DIGITS not in text.translate(_DIGITS_TO_ZERO):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def _normalise(spec: ToolSpec, raw: Any) -> tuple[Any, str]:
    """(output, its JSON text): one round trip, so the in-process output is exactly what an MCP
    client parses; the text is what the result cache stores."""
    if spec.returns_json_string and isinstance(raw, str):
        try:
            return json.loads(raw), raw
        except json.JSONDecodeError:
            return raw, json.dumps(raw)
    if isinstance(raw, EncodedOutput):
        return raw.value, raw.text
    text = json.dumps(raw, default=json_default)
    return json.loads(text), text


async def _invoke(spec: ToolSpec, values: dict[str, Any], child: Profile, rows: list[int]) -> tuple[Any, str]:
    _rows.set(rows)
    with profiling(child):
        try:
            if spec.is_async:
                raw = await spec.fn(**values)
            else:
                raw = await run_cpu(spec.fn, **values)
        except ToolError as exc:
            raw = error_output(exc.message)
    return _normalise(spec, raw)


# This call's database time [ms, queries]: set per call_tool (each parallel call runs in its own
# task, so its own copy of the context), filled when the tool's queries merge into the turn profile.
_call_db: ContextVar[list[float] | None] = ContextVar("assetops_call_db", default=None)


def _merge_child(parent: Profile | None, child: Profile) -> int | None:
    own = _call_db.get()
    if own is not None:
        own[0] += sum(q.latency_ms for q in child.queries)
        own[1] += len(child.queries)
    if parent is not None:
        parent.queries.extend(child.queries)
        parent.llm_calls.extend(child.llm_calls)
    return sum(q.rows for q in child.queries) if child.queries else None


async def _execute(
    spec: ToolSpec, values: dict[str, Any], ctx: ToolContext
) -> tuple[Any, str | None, Status, int | None]:
    """Run the tool; return (output, its JSON text when it completed, status, rows)."""
    timeout = spec.timeout_s or ctx.settings.tool_timeout_s
    child, rows = Profile(), list[int]()
    status: Status
    text: str | None = None
    try:
        output, text = await asyncio.wait_for(_invoke(spec, values, child, rows), timeout)
        status = "error" if isinstance(output, dict) and "error" in output else "ok"
    except TimeoutError:
        output, status = error_output(f"{spec.name} timed out after {timeout:g} s; narrow the request."), "timeout"
    except Exception as exc:  # the contract: nothing raises to the caller
        log.exception("tool %s failed", spec.full_name)
        output, status = error_output(f"{spec.name} failed: {type(exc).__name__}: {exc}"), "error"
    query_rows = _merge_child(current_profile(), child)
    return output, text, status, (sum(rows) if rows else query_rows)


async def _run_remote(spec: ToolSpec, values: dict[str, Any], url: str, ctx: ToolContext) -> tuple[Any, Status]:
    from tools.mcp_client import call_remote_tool

    timeout = spec.timeout_s or ctx.settings.tool_timeout_s
    try:
        output = await asyncio.wait_for(call_remote_tool(url, spec.name, values), timeout)
    except TimeoutError:
        return error_output(f"{spec.name} timed out after {timeout:g} s at {url}."), "timeout"
    except Exception as exc:  # transport failures become results, like every other error
        return error_output(f"{spec.name}: remote server {url} failed: {type(exc).__name__}: {exc}"), "error"
    return output, "error" if isinstance(output, dict) and "error" in output else "ok"


async def _cached_or_run(
    spec: ToolSpec, values: dict[str, Any], ctx: ToolContext
) -> tuple[Any, Status, int | None, bool]:
    remote = ctx.settings.remote_tool_servers.get(spec.server)
    if remote:
        output, status = await _run_remote(spec, values, remote, ctx)
        return output, status, None, False
    version = await result_cache_module.data_version(ctx) if spec.cacheable or spec.input_files else None
    key = result_cache_module.cache_key(spec, values, ctx, version) if spec.cacheable and version is not None else None
    if key is not None:
        hit = result_cache_module.result_cache().get(key)
        if hit is not None:
            output = decode_json(hit)
            if result_cache_module.still_valid(output):
                return output, "ok", None, True
    flight_key = key if key is not None else in_flight_key(spec, values, ctx, version)
    if flight_key is None:
        output, text, status, rows = await _execute(spec, values, ctx)
        return output, status, rows, False
    (output, text, status, rows), was_shared = await singleflight.shared(
        flight_key, lambda: _execute(spec, values, ctx)
    )
    if was_shared:  # a fresh copy for this caller, like a cache hit
        return (decode_json(text) if text is not None else output), status, None, True
    if key is not None and status == "ok" and text is not None:
        result_cache_module.result_cache().set(key, text)
    return output, status, rows, False


def _record(result: ToolResult, db: list[float]) -> None:
    profile = current_profile()
    if profile is None:
        return
    profile.tool_calls.append(
        ToolCallRecord(
            server=result.server, tool=result.tool, args=result.args, status=result.status,
            latency_ms=result.latency_ms, started_at=result.started_at, finished_at=result.finished_at,
            error=result.error, rows=result.rows, reused=result.cached, specialist=result.specialist,
            db_ms=round(db[0], 3), db_queries=int(db[1]),
        )
    )


async def call_tool(
    name: str,
    args: dict[str, Any] | None = None,
    *,
    specialist: str | None = None,
    context: ToolContext | None = None,
) -> ToolResult:
    """Validate, answer from the cache or run the tool with its timeout, record it, return the result."""
    from tools.registry import find_tool

    started, started_iso = time.perf_counter(), datetime.now(UTC).isoformat()
    name = name if isinstance(name, str) else repr(name)
    spec = find_tool(name)
    server, _, tool_name = (spec.server, ".", spec.name) if spec else name.rpartition(".")
    values, problem = validate_args(spec, args) if spec else (None, _unknown_tool_message(name))
    output: Any
    status: Status
    rows, cached = None, False
    db: list[float] = [0.0, 0.0]
    db_token = _call_db.set(db)
    if problem is not None:
        output, status = error_output(problem), "error"
    else:
        assert spec is not None and values is not None
        try:
            ctx = context or tool_context()
            with use_tool_context(ctx):
                output, status, rows, cached = await _cached_or_run(spec, values, ctx)
        except Exception as exc:  # e.g. an unreachable database while reading the data version
            log.exception("call path of %s failed", spec.full_name)
            output, status = error_output(f"{spec.name} could not run: {type(exc).__name__}: {exc}"), "error"
    finished = time.perf_counter()
    error = output.get("error") if isinstance(output, dict) and status != "ok" else None
    result = ToolResult(
        name=spec.full_name if spec else name, server=server, tool=tool_name,
        args=dict(args) if isinstance(args, dict) else {},
        status=status, output=output, error=str(error) if error is not None else None,
        latency_ms=round((finished - started) * 1000.0, 3), started_at=started, finished_at=finished,
        started_iso=started_iso, rows=rows, cached=cached, specialist=specialist,
    )
    _call_db.reset(db_token)
    _record(result, db)
    return result


def _unknown_tool_message(name: str) -> str:
    from tools.registry import all_tools

    known = ", ".join(s.full_name for s in all_tools())
    return f"Unknown tool '{name}'. Known tools: {known}."


async def _share_data_version(ctx: ToolContext) -> None:
    """Read the data version once before a batch: it is remembered for a moment, so the calls
    share it instead of each sending the same query at the same time."""
    try:
        await result_cache_module.data_version(ctx)
    except Exception:  # each call then reports the failure in its own result; the batch never raises
        log.debug("reading the data version before a batch failed", exc_info=True)


async def run_many(
    calls: Sequence[ToolCall | tuple[str, dict[str, Any]]],
    *,
    specialist: str | None = None,
    context: ToolContext | None = None,
    max_concurrency: int = DEFAULT_BATCH_CONCURRENCY,
) -> list[ToolResult]:
    """Run a batch concurrently (at most `max_concurrency` at a time); results come back in order.

    I/O tools overlap on the event loop; sync/cpu-bound tools run in the bounded CPU pool. Each
    result has its own status: one failure never cancels the others.
    """
    ctx = context or tool_context()
    gate = asyncio.Semaphore(max(1, max_concurrency))
    if len(calls) > 1:
        await _share_data_version(ctx)

    async def one(call: ToolCall | tuple[str, dict[str, Any]]) -> ToolResult:
        name, args = (call.name, call.args) if isinstance(call, ToolCall) else call
        async with gate:
            return await call_tool(name, args, specialist=specialist, context=ctx)

    return list(await asyncio.gather(*(one(c) for c in calls)))
