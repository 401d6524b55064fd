"""The turn state is typed end to end: the checkpointers of the deployment (SQLite embedded,
PostgreSQL) give back the plan, results, decision and focus as the same dataclasses, equal to what
was stored, after the saver is closed and opened again."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from assetops.domain.turn import Focus, SpecialistResult, SpecialistTask, TimeWindow, TurnDecision
from assetops.settings import Settings
from graph.builder import build_graph
from graph.checkpoint import open_checkpointer
from tests.conftest import make_settings

pytestmark = pytest.mark.integration

ZONE = ZoneInfo("America/New_York")
WINDOW = TimeWindow(datetime(2021, 3, 1, tzinfo=ZONE), datetime(2021, 6, 1, tzinfo=ZONE), "this spring")
HISTORY = SpecialistTask("data", "history", asset_ids=["Chiller 4"], window=WINDOW,
                         sensors=["Chiller 4 Power Input"], goal="Chiller 4 telemetry", status="done")
ANOMALY = SpecialistTask("timeseries", "anomaly_detection", asset_ids=["Chiller 4"], window=WINDOW,
                         params={"sensors": ["Power Input"], "threshold": 0.9}, depends_on=[0], status="failed",
                         attempts=1, reason="tsfm timed out")
TYPED_STATE: dict[str, Any] = {
    "plan": [HISTORY, ANOMALY],
    "results": [
        SpecialistResult("data", "history", "ok", "Chiller 4 drew more power.", artifact_ids=["artifact_dc_1"],
                         task_index=0, step=1),
        SpecialistResult("timeseries", "anomaly_detection", "failed", "Needs telemetry first.",
                         errors=["telemetry not available yet"], follow_ups=[HISTORY], task_index=1, step=2,
                         retryable=True),
    ],
    "decision": TurnDecision(kind="run", message="", intent="anomaly", assumptions=["Spring is March to May."],
                             shape="yes_no", scope="asset"),
    "focus": Focus(site="MAIN", asset_ids=["Chiller 4"], window=WINDOW, hypotheses=["Condenser fouling"],
                   scope="asset", pending_offer="draft_wo"),
}


async def _round_trip(settings: Settings, thread: str) -> dict[str, Any]:
    config: Any = {"configurable": {"thread_id": thread}}
    async with open_checkpointer(settings) as saver:
        await build_graph(saver).aupdate_state(config, TYPED_STATE, as_node="respond")
    async with open_checkpointer(settings) as saver:  # a fresh connection: only what was stored comes back
        snapshot = await build_graph(saver).aget_state(config)
    return {key: snapshot.values[key] for key in TYPED_STATE}


def _assert_same(back: dict[str, Any]) -> None:
    assert back == TYPED_STATE
    assert isinstance(back["decision"], TurnDecision) and isinstance(back["focus"], Focus)
    assert all(isinstance(t, SpecialistTask) for t in back["plan"])
    assert all(isinstance(r, SpecialistResult) for r in back["results"])
    assert isinstance(back["results"][1].follow_ups[0], SpecialistTask)
    assert back["plan"][1].window.start == WINDOW.start and back["plan"][1].window.start.utcoffset() is not None
    assert asdict(back["plan"][1]) == asdict(ANOMALY)


async def test_typed_turn_state_survives_the_sqlite_checkpointer(tmp_path: Path) -> None:
    _assert_same(await _round_trip(make_settings(tmp_path), "typed-sqlite"))


async def test_typed_turn_state_survives_the_postgres_checkpointer(pg_schema_url: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, database_url=pg_schema_url)
    assert settings.is_postgres
    _assert_same(await _round_trip(settings, f"typed-pg-{tmp_path.name}"))
