"""The call path: validation messages, errors as values, timeouts, profiling, CPU pool, cache."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import Field
from sqlalchemy import update

from assetops.db.engine import sync_engine
from assetops.db.tables import FleetMetaRow
from assetops.profiling import profiling
from assetops.settings import Settings
from tests.unit.tools_iot.small_fleet import SmallFleet
from tools import registry
from tools.framework import ToolContext, ToolError, call_tool, note_rows, run_many, tool_context
from tools.framework import cache as cache_module
from tools.framework.spec import build_spec

SERVER = "testkit"
calls_made: list[str] = []


async def echo(
    name: Annotated[str, Field(description="A name. Example: x")],
    count: int = 1,
    tags: list[str] | None = None,
) -> dict[str, Any]:
    """Echo the arguments (counts its runs, so cache hits are visible)."""
    calls_made.append(name)
    note_rows(count)
    if name == "fail":
        raise ToolError("name 'fail' is not allowed; use another one")
    if name == "crash":
        raise RuntimeError("boom")
    return {"name": name, "count": count, "tags": tags, "workdir": str(tool_context().workdir)}


async def slow(seconds: float) -> dict[str, Any]:
    """Sleep, then answer."""
    await asyncio.sleep(seconds)
    return {"slept": seconds}


def crunch(n: int) -> dict[str, Any]:
    """A synchronous, CPU-bound tool: runs in the pool, not on the event loop thread."""
    return {"thread": threading.current_thread().name, "total": sum(range(n))}


async def clock() -> dict[str, Any]:
    """Not cacheable: answers differently every time."""
    calls_made.append("clock")
    return {"n": len(calls_made)}


@pytest.fixture(autouse=True)
def throwaway_tools() -> Iterator[None]:
    specs = [
        build_spec(echo, SERVER),
        build_spec(slow, SERVER, timeout_s=0.2),
        build_spec(crunch, SERVER, cpu_bound=True),
        build_spec(clock, SERVER, cacheable=False),
    ]
    for spec in specs:
        registry.register(spec)
    calls_made.clear()
    yield
    for spec in specs:
        registry.unregister(spec.full_name)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"name": "a", "colour": "red"}, "Unknown argument(s) 'colour'"),
        ({}, "Missing required argument 'name' (string)"),
        ({"name": 5}, "Argument 'name' has the wrong type: expected string"),
        ({"name": "a", "count": "many"}, "Argument 'count' has the wrong type: expected integer"),
        ({"name": "a", "tags": "x"}, "Argument 'tags' has the wrong type: expected array of string or null"),
        ({"name": "  "}, "Argument 'name' of echo must not be empty"),
    ],
)
async def test_invalid_arguments_become_error_results_naming_the_argument(
    ctx: ToolContext, args: dict[str, Any], fragment: str
) -> None:
    result = await call_tool("testkit.echo", args, context=ctx)
    assert result.status == "error"
    assert fragment in result.output["error"]
    assert result.error == result.output["error"]
    assert calls_made == []  # the tool never ran


async def test_tool_errors_and_crashes_are_results_not_exceptions(ctx: ToolContext) -> None:
    failed = await call_tool("testkit.echo", {"name": "fail"}, context=ctx)
    crashed = await call_tool("testkit.echo", {"name": "crash"}, context=ctx)
    assert failed.output == {"error": "name 'fail' is not allowed; use another one"}
    assert crashed.status == "error" and "RuntimeError: boom" in crashed.output["error"]


async def test_unknown_tool_lists_known_tools(ctx: ToolContext) -> None:
    result = await call_tool("testkit.nothing", {}, context=ctx)
    assert result.status == "error" and "testkit.echo" in result.output["error"]


async def test_bare_tool_names_resolve_when_unambiguous(ctx: ToolContext) -> None:
    result = await call_tool("crunch", {"n": 10}, context=ctx)
    assert result.name == "testkit.crunch" and result.output["total"] == 45


async def test_per_tool_timeout_gives_a_timeout_status(ctx: ToolContext) -> None:
    result = await call_tool("testkit.slow", {"seconds": 5}, context=ctx)
    assert result.status == "timeout"
    assert "timed out after 0.2 s" in result.output["error"]


async def test_defaults_are_filled_and_the_context_is_visible(ctx: ToolContext) -> None:
    result = await call_tool("testkit.echo", {"name": "a"}, context=ctx)
    assert result.output == {"name": "a", "count": 1, "tags": None, "workdir": str(ctx.settings.work_dir)}


async def test_sync_cpu_bound_tools_run_in_the_pool(ctx: ToolContext) -> None:
    result = await call_tool("testkit.crunch", {"n": 1000}, context=ctx)
    assert result.output["thread"].startswith("assetops-cpu")


async def test_calls_are_recorded_in_the_current_profile(ctx: ToolContext) -> None:
    with profiling() as profile:
        await call_tool("testkit.echo", {"name": "a", "count": 7}, specialist="data", context=ctx)
        await call_tool("testkit.echo", {"name": "fail"}, context=ctx)
    first, second = profile.tool_calls
    assert (first.server, first.tool, first.status, first.rows, first.specialist) == ("testkit", "echo", "ok", 7, "data")
    assert first.args == {"name": "a", "count": 7}
    assert first.finished_at >= first.started_at and first.latency_ms >= 0
    assert (second.status, second.error) == ("error", "name 'fail' is not allowed; use another one")


async def test_identical_calls_are_answered_from_the_cache(ctx: ToolContext) -> None:
    first = await call_tool("testkit.echo", {"name": "a"}, context=ctx)
    # Defaults are part of the normalised key: spelling them out is the same query.
    second = await call_tool("testkit.echo", {"name": "a", "count": 1}, context=ctx)
    assert (first.cached, second.cached) == (False, True)
    assert second.output == first.output
    assert calls_made == ["a"]


async def test_errors_and_uncacheable_tools_are_never_cached(ctx: ToolContext) -> None:
    for _ in range(2):
        await call_tool("testkit.echo", {"name": "fail"}, context=ctx)
        await call_tool("testkit.clock", {}, context=ctx)
    assert calls_made == ["fail", "clock", "fail", "clock"]


async def test_a_new_data_version_invalidates_the_cache(
    ctx: ToolContext, small_fleet: SmallFleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "DATA_VERSION_TTL_S", 0.0)
    await call_tool("testkit.echo", {"name": "a"}, context=ctx)
    engine = sync_engine(small_fleet.settings)
    try:
        with engine.begin() as conn:
            old = conn.execute(FleetMetaRow.__table__.select().where(FleetMetaRow.key == "data_version")).one().value
            conn.execute(update(FleetMetaRow).where(FleetMetaRow.key == "data_version").values(value=old + "-next"))
        again = await call_tool("testkit.echo", {"name": "a"}, context=ctx)
    finally:
        with engine.begin() as conn:
            conn.execute(update(FleetMetaRow).where(FleetMetaRow.key == "data_version").values(value=old))
        engine.dispose()
    assert again.cached is False and calls_made == ["a", "a"]


async def test_run_many_returns_results_in_call_order(ctx: ToolContext) -> None:
    delays = [0.15, 0.1, 0.05]  # the first call finishes last
    results = await run_many([("testkit.slow", {"seconds": d}) for d in delays], context=ctx)
    assert [r.output["slept"] for r in results] == delays


async def test_an_unreachable_database_gives_an_error_result(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, work_dir=tmp_path / "work",
                        database_url="postgresql://postgres@127.0.0.1:1/nothing_listens_here")
    context = ToolContext.from_settings(settings)
    try:
        result = await call_tool("iot.sites", {}, context=context)
    finally:
        await context.db.close()
    assert result.status == "error"
    assert "OperationalError" in result.output["error"]
