"""run_integrated_tsad with conditional columns: the driver-model path through the tool call path."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests.unit.timeseries.fixtures import DRIVERS, chiller_frame
from tools.framework import ToolContext, call_tool

TSAD_COLUMNS = ["timestamp", "value", "upper_bound", "lower_bound", "anomaly_score", "anomaly_label", "split", "KPI"]


def _dataset(ctx: ToolContext, frame: pd.DataFrame) -> str:
    shown = frame.assign(timestamp=frame["ts"].map(pd.Timestamp.isoformat)).drop(columns="ts")
    shown.to_csv(ctx.workdir / "chiller.csv", index=False)
    return "chiller.csv"


async def test_a_slow_fault_is_reported_as_a_sustained_shift_with_off_rows_excluded(tsfm_ctx: ToolContext) -> None:
    frame = chiller_frame(40, fault_from_day=22)
    result = await call_tool("tsfm.run_integrated_tsad", {
        "dataset_path": _dataset(tsfm_ctx, frame), "timestamp_column": "timestamp",
        "target_columns": ["Power Input"], "conditional_columns": DRIVERS, "n_calibration": 0.5})
    assert result.status == "ok", result.error
    output = result.output
    rows = pd.read_csv(output["results_file"])
    assert list(rows.columns) == TSAD_COLUMNS
    model = output["conditional_models"]["Power Input"]
    assert model["conditional_columns"] == DRIVERS
    assert model["excluded_off_rows"] + model["outside_calibration_range_rows"] + len(rows) == len(frame)
    assert "off rows are neither fitted nor scored" in model["running_rule"]
    shift = output["sustained_anomalies"][0]
    assert shift["KPI"] == "Power Input" and shift["direction"] == "above"
    assert shift["change_start"] >= str(frame["ts"].iloc[22 * 96].date())
    assert output["model_checkpoint"] is None  # no forecaster was needed


async def test_without_conditional_columns_the_output_has_no_driver_model_keys(tsfm_ctx: ToolContext) -> None:
    frame = chiller_frame(4)
    result = await call_tool("tsfm.run_integrated_tsad", {
        "dataset_path": _dataset(tsfm_ctx, frame), "timestamp_column": "timestamp", "target_columns": ["Power Input"]})
    assert result.status == "ok", result.error
    assert "conditional_models" not in result.output and Path(result.output["results_file"]).is_file()


async def test_a_missing_conditional_column_is_named(tsfm_ctx: ToolContext) -> None:
    frame = chiller_frame(4)
    result = await call_tool("tsfm.run_integrated_tsad", {
        "dataset_path": _dataset(tsfm_ctx, frame), "timestamp_column": "timestamp",
        "target_columns": ["Power Input"], "conditional_columns": ["Tonnage"]})
    assert result.status == "error" and "Tonnage" in (result.error or "")
