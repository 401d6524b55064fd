"""The timeseries specialist against the real TSFM tools (framework call path, tiny trained TTM).

No scripted tools here: the ToolRunner's default executor runs `tsfm.*` through the tool framework
with a tool context whose models dir holds the tiny checkpoint as `ttm_96_28`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from assetops.domain.turn import SpecialistTask
from specialists.base import ToolRunner
from specialists.timeseries import TimeseriesSpecialist
from tests.conftest import make_settings
from tests.unit.specialists_timeseries.synthetic import (
    ASSET,
    chiller_frame,
    make_context,
    telemetry_artifact,
    write_csv,
)
from tools.framework import ToolContext, use_tool_context


@pytest.fixture
def tool_ctx(tmp_path: Path, tiny_checkpoint: Path) -> Iterator[ToolContext]:
    settings = make_settings(tmp_path)
    (settings.models_dir / "ttm_96_28").symlink_to(tiny_checkpoint, target_is_directory=True)
    with use_tool_context(ToolContext.from_settings(settings)) as ctx:
        yield ctx


async def test_anomaly_detection_and_forecast_run_on_the_real_tools(
    tmp_path: Path, tool_ctx: ToolContext
) -> None:
    ctx, _, work = await make_context(tmp_path, lambda name, args: None)  # type: ignore[arg-type, return-value]
    ctx.tools = ToolRunner("s1", 1, ctx.emit)  # the real framework executor
    frame = chiller_frame(days=4, seed=21)
    artifact = telemetry_artifact(write_csv(frame, work / "c9.csv"), frame)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    specialist = TimeseriesSpecialist()

    anomalies = await specialist.run(
        SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"]), ctx
    )
    assert anomalies.status == "ok", anomalies.errors
    report = await ctx.store.get(anomalies.artifact_ids[0])
    assert report is not None
    power = report.results["per_sensor"][f"{ASSET} Power Input"]
    assert power["records"] > 200 and 0 <= power["rate"] < 0.5

    forecast = await specialist.run(
        SpecialistTask(
            "timeseries", "forecast", asset_ids=[ASSET], sensors=["Tonnage"], params={"horizon": "12 hours"}
        ),
        ctx,
    )
    assert forecast.status == "ok", forecast.errors
    stored = await ctx.store.get(forecast.artifact_ids[0])
    assert stored is not None and stored.results["model_checkpoint"] == "ttm_96_28"
    summary = stored.results["per_target"][f"{ASSET} Tonnage"]
    assert pd.Timestamp(summary["from"]) > frame.index[-1]  # the forecast starts after the data
    assert "48 steps" in stored.summary and "autoregressively" in stored.summary
