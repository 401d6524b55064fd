"""Telemetry reads in worker processes answer exactly what the same reads answer in this process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assetops.profiling import profiling
from tools.framework import ToolCall, ToolContext, ToolResult, call_tool, clear_result_cache, run_many
from tools.framework import cache as cache_module
from tools.framework.workers import TaskPool, configure_task_pool, shutdown_task_pool

C9 = {"site_name": "MAIN", "asset_id": "Chiller 9"}
CASES: list[tuple[str, dict[str, Any]]] = [
    ("iot.history", {**C9, "start": "2020-06-01", "final": "2020-06-03"}),
    ("iot.history", {**C9, "start": "2020-11-01T00:00:00-04:00", "final": "2020-11-01T06:00:00-05:00"}),  # DST
    ("iot.history", {**C9, "start": "2020-06-10T14:00:00", "final": "2020-06-10T15:00:00"}),  # off-grid sample
    ("iot.history", {**C9, "start": "2020-06-01", "final": "2020-06-30"}),  # cap: truncated
    ("iot.history", {**C9, "start": "2019-01-01", "final": "2019-01-02"}),  # empty: coverage error
    ("iot.history", {"site_name": "MAIN", "asset_id": "chiller 6", "start": "2020-06-02", "final": "2020-06-03"}),
    ("iot.history_csv", {**C9, "start": "2020-06-01", "final": "2020-07-01"}),
    ("iot.history_csv", {"site_name": "MAIN", "asset_id": "Chiller 6", "start": "2020-06-01", "final": "2020-06-05"}),
    ("iot.history_csv", {**C9, "start": "2020-10-31"}),  # open end
]


@pytest.fixture
def use_pool() -> Iterator[Any]:
    """Install a pool for the test (`use_pool(processes, use_this_process)`); the default pool returns after."""
    def install(processes: int, use_this_process: bool = True) -> TaskPool:
        pool = configure_task_pool(processes, use_this_process=use_this_process)
        assert pool.wait_ready() == processes
        return pool

    yield install
    shutdown_task_pool()


def _comparable(result: ToolResult) -> tuple[str, str, bytes | None]:
    """(status, output as JSON text, CSV file bytes when the result names one)."""
    output = result.output
    csv_path = output.get("csv_path") if isinstance(output, dict) else None
    return result.status, json.dumps(output), Path(csv_path).read_bytes() if csv_path else None


async def _answers(ctx: ToolContext) -> list[tuple[str, str, bytes | None]]:
    answers = []
    for name, args in CASES:
        clear_result_cache()
        answers.append(_comparable(await call_tool(name, args, context=ctx)))
    return answers


async def test_worker_answers_equal_this_process_answers_byte_for_byte(ctx: ToolContext, use_pool: Any) -> None:
    use_pool(0)
    here = await _answers(ctx)
    pool = use_pool(1, use_this_process=False)
    in_worker = await _answers(ctx)
    assert in_worker == here
    assert [status for status, _, _ in here].count("error") == 1  # the empty window, in both
    assert any('"truncated": true' in text for _, text, _ in here)
    assert pool.ready_processes == 1


async def test_queries_run_in_a_worker_are_recorded_in_the_callers_profile(
    ctx: ToolContext, use_pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_pool(1, use_this_process=False)
    # With the data version and the asset catalogue remembered, the window query is the only statement.
    monkeypatch.setattr(cache_module, "DATA_VERSION_TTL_S", 3600.0)
    await call_tool("iot.sites", {}, context=ctx)
    with profiling() as profile:
        result = await call_tool("iot.history", {**C9, "start": "2020-06-01", "final": "2020-06-02"}, context=ctx)
    assert result.status == "ok" and result.rows == 96
    assert [query.kind for query in profile.queries] == ["SELECT"]


async def test_a_run_many_batch_over_worker_processes_matches_sequential_calls(ctx: ToolContext, use_pool: Any) -> None:
    calls = [ToolCall("iot.history", {**C9, "start": f"2020-06-{d:02d}", "final": f"2020-06-{d + 2:02d}"})
             for d in range(1, 17, 2)]
    use_pool(0)
    sequential = [_comparable(await call_tool(c.name, c.args, context=ctx)) for c in calls]
    clear_result_cache()
    use_pool(2)
    batched = [_comparable(result) for result in await run_many(calls, context=ctx)]
    assert batched == sequential
    assert all(status == "ok" for status, _, _ in batched)
