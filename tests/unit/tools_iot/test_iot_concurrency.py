"""run_many overlaps independent history queries and keeps results in order."""

from __future__ import annotations

import pytest

from assetops.profiling import profiling
from tools.framework import ToolCall, ToolContext, call_tool, run_many
from tools.framework import cache as cache_module


async def test_run_many_overlaps_eight_history_queries_and_keeps_order(ctx: ToolContext) -> None:
    days = [f"2020-06-{d:02d}" for d in range(1, 9)]
    calls = [
        ToolCall("iot.history", {"site_name": "MAIN", "asset_id": "Chiller 9", "start": day, "final": f"{day}T06:00:00"})
        for day in days
    ]
    with profiling() as profile:
        results = await run_many(calls, context=ctx)
    assert [r.output["observations"][0]["timestamp"][:10] for r in results] == days
    assert all(r.status == "ok" and not r.cached for r in results)
    records = [t for t in profile.tool_calls if t.tool == "history"]
    assert len(records) == 8
    # Concurrent execution: every call started before the first one finished.
    assert max(r.started_at for r in records) < min(r.finished_at for r in records)
    # The database queries of all calls landed in the surrounding profile.
    assert len(profile.queries) >= 8


async def test_run_many_reports_each_status_separately(ctx: ToolContext) -> None:
    calls = [
        ToolCall("iot.sites", {}),
        ToolCall("iot.history", {"site_name": "MAIN", "asset_id": "Chiller 9"}),
        ToolCall("iot.nope", {}),
        ToolCall("iot.assets", {"site_name": "MAIN"}),
    ]
    results = await run_many(calls, context=ctx)
    assert [r.status for r in results] == ["ok", "error", "error", "ok"]
    assert "'start'" in results[1].error
    assert "Unknown tool 'iot.nope'" in results[2].error


async def test_the_worker_thread_window_query_is_recorded_in_the_profile(
    ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the data version and the asset catalogue remembered, the window query is the only statement.
    monkeypatch.setattr(cache_module, "DATA_VERSION_TTL_S", 3600.0)
    await call_tool("iot.sites", {}, context=ctx)
    args = {"site_name": "MAIN", "asset_id": "Chiller 9", "start": "2020-06-01", "final": "2020-06-02"}
    with profiling() as profile:
        result = await call_tool("iot.history_csv", args, context=ctx)
    assert result.status == "ok" and result.rows == 96
    assert [q.kind for q in profile.queries] == ["SELECT"]
