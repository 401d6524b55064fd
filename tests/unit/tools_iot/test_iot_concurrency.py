"""run_many overlaps independent history queries and keeps results in order."""

from __future__ import annotations

from assetops.profiling import profiling
from tools.framework import ToolCall, ToolContext, run_many


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
