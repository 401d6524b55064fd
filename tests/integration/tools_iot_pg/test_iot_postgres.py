"""The iot tools on PostgreSQL: the same contract shapes, timestamps and caps as on SQLite.

Each run creates (and drops) its own database, so it never touches tables other tests use.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pandas as pd
import psycopg
import pytest

from assetops.profiling import profiling
from tests.unit.tools_iot.small_fleet import SmallFleet, build_small_fleet
from tools.framework import ToolCall, ToolContext, call_tool, clear_result_cache, run_many

pytestmark = pytest.mark.integration
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
C9 = {"site_name": "MAIN", "asset_id": "Chiller 9"}


def _admin() -> psycopg.Connection:
    try:
        return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"PostgreSQL not reachable at {ADMIN_URL}: {exc}")


@pytest.fixture(scope="module")
def pg_fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SmallFleet]:
    name = f"assetops_tools_{uuid.uuid4().hex[:10]}"
    with _admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield build_small_fleet(tmp_path_factory.mktemp("pg_fleet"), f"postgresql://postgres@127.0.0.1:5432/{name}")
    finally:
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
async def pg_ctx(pg_fleet: SmallFleet) -> AsyncIterator[ToolContext]:
    clear_result_cache()
    context = ToolContext.from_settings(pg_fleet.settings)
    yield context
    await context.db.close()
    clear_result_cache()


async def test_history_on_postgres_matches_the_contract_shapes(pg_ctx: ToolContext) -> None:
    args = {**C9, "start": "2020-11-01T00:00:00-04:00", "final": "2020-11-01T03:00:00-05:00"}
    out = (await call_tool("iot.history", args, context=pg_ctx)).output
    stamps = [o["timestamp"] for o in out["observations"]]
    assert len(stamps) == 16
    assert stamps[0] == "2020-11-01T00:00:00-04:00" and stamps[-1] == "2020-11-01T02:45:00-05:00"


async def test_history_cap_on_postgres(pg_ctx: ToolContext) -> None:
    out = (await call_tool("iot.history", {**C9, "start": "2020-06-01"}, context=pg_ctx)).output
    assert out["total_observations"] == 1000 and out["truncated"] is True


async def test_history_csv_on_postgres_equals_the_sqlite_file(pg_ctx: ToolContext, pg_fleet: SmallFleet) -> None:
    args = {**C9, "start": "2020-06-01", "final": "2020-06-03"}
    out = (await call_tool("iot.history_csv", args, context=pg_ctx)).output
    frame = pd.read_csv(Path(out["csv_path"]))
    assert len(frame) == 192
    c9 = pg_fleet.telemetry[pg_fleet.telemetry["asset_id"] == "Chiller 9"].reset_index(drop=True)
    first = int((c9["ts"] < pd.Timestamp("2020-06-01T04:00:00Z")).sum())
    assert frame["Chiller 9 Tonnage"].tolist() == [9000.0 + first + i for i in range(192)]


async def test_run_many_on_postgres_overlaps_and_records(pg_ctx: ToolContext) -> None:
    calls = [ToolCall("iot.history", {**C9, "start": f"2020-06-{d:02d}", "final": f"2020-06-{d:02d}T06:00:00"})
             for d in range(1, 9)]
    with profiling() as profile:
        results = await run_many(calls, context=pg_ctx)
    assert all(r.status == "ok" for r in results)
    records = [t for t in profile.tool_calls if t.tool == "history"]
    assert max(r.started_at for r in records) < min(r.finished_at for r in records)
    assert sum(1 for q in profile.queries if q.kind == "SELECT") >= 8
