"""The six tsfm tools through the framework's call path: schemas, happy paths and actionable errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from tests.conftest import require_shared
from tests.unit.timeseries.fixtures import sine_frame
from tools.framework import ToolContext, call_tool, contract_view
from tools.registry import get_tool

TSAD_COLUMNS = ["timestamp", "value", "upper_bound", "lower_bound", "anomaly_score", "anomaly_label", "split", "KPI"]


def _write(ctx: ToolContext, frame: pd.DataFrame, name: str = "data.csv") -> str:
    frame.to_csv(ctx.workdir / name, index=False)
    return name


async def _ok(name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await call_tool(f"tsfm.{name}", args)
    assert result.status == "ok", result.error
    return result.output


async def _error(name: str, args: dict[str, Any]) -> str:
    result = await call_tool(f"tsfm.{name}", args)
    assert result.status == "error", result.output
    return result.error or ""


def test_schemas_equal_the_contract(tsfm_ctx: ToolContext) -> None:
    contract = json.loads(require_shared("contract/tools.json").read_text())["servers"]["tsfm"]
    for name, expected in contract.items():
        schema = contract_view(get_tool(f"tsfm.{name}").input_schema)
        assert {"required": schema["required"], "properties": schema["properties"]} == expected, name


async def test_tasks_and_models_are_listed(tsfm_ctx: ToolContext) -> None:
    tasks = await _ok("get_ai_tasks", {})
    assert [t["task_id"] for t in tasks["tasks"]][:2] == ["tsfm_integrated_tsad", "tsfm_forecasting"]
    models = (await _ok("get_tsfm_models", {}))["models"]
    assert {m["model_id"]: m["model_checkpoint"] for m in models}["ttm_energy_512_96"] == "ttm_512_96"


async def test_integrated_tsad_writes_the_contract_csv_in_the_work_dir(tsfm_ctx: ToolContext) -> None:
    frame = sine_frame(6)
    frame.loc[450:, "value"] += 6.0
    name = _write(tsfm_ctx, frame)
    output = await _ok("run_integrated_tsad", {"dataset_path": name, "timestamp_column": "timestamp",
                                               "target_columns": ["value"], "false_alarm": 0.02})
    path = Path(output["results_file"])
    assert path.is_relative_to(tsfm_ctx.workdir)
    rows = pd.read_csv(path)
    assert list(rows.columns) == TSAD_COLUMNS == output["columns"]
    assert output["total_records"] == len(rows) and output["anomaly_count"] == int(rows["anomaly_label"].sum())
    assert frame["timestamp"][450] in set(rows.loc[rows["anomaly_label"], "timestamp"])


async def test_forecast_then_tsad_fit_then_inference_with_the_saved_detector(tsfm_ctx: ToolContext) -> None:
    name = _write(tsfm_ctx, sine_frame(4))
    common = {"dataset_path": name, "timestamp_column": "timestamp", "target_columns": ["value"]}
    forecast = await _ok("run_tsfm_forecasting", {**common, "include_dataquality_summary": True})
    assert forecast["dataquality_summary"]["frequency_sampling_min"] == 15.0
    fitted = await _ok("run_tsad", {**common, "tsfm_output_json": forecast["results_file"],
                                    "ad_model_save": "detectors/value"})
    assert (tsfm_ctx.workdir / "detectors" / "value" / "config.json").is_file()
    applied = await _ok("run_tsad", {**common, "tsfm_output_json": forecast["results_file"], "task": "inference",
                                     "ad_model_checkpoint": "detectors/value"})
    assert applied["total_records"] == fitted["total_records"]
    assert set(pd.read_csv(applied["results_file"])["split"]) == {"test"}


async def test_inference_without_a_saved_detector_is_an_error(tsfm_ctx: ToolContext) -> None:
    name = _write(tsfm_ctx, sine_frame(3))
    common = {"dataset_path": name, "timestamp_column": "timestamp", "target_columns": ["value"]}
    forecast = await _ok("run_tsfm_forecasting", common)
    args = {**common, "tsfm_output_json": forecast["results_file"], "task": "inference"}
    assert "needs ad_model_checkpoint" in await _error("run_tsad", args)
    (tsfm_ctx.workdir / "empty").mkdir()
    assert "No saved anomaly detector" in await _error("run_tsad", {**args, "ad_model_checkpoint": "empty"})


async def test_finetuned_checkpoint_is_usable_by_path(tsfm_ctx: ToolContext) -> None:
    name = _write(tsfm_ctx, sine_frame(8))
    common = {"dataset_path": name, "timestamp_column": "timestamp", "target_columns": ["value"]}
    tuned = await _ok("run_tsfm_finetuning", {**common, "n_finetune": 0.3, "n_test": 0.2})
    assert Path(tuned["model_checkpoint"]).is_relative_to(tsfm_ctx.workdir / "tuned_models")
    performance = json.loads(Path(tuned["results_file"]).read_text())["performance"]
    assert set(performance) >= {"target", "forecast", "metric", "value", "split"}
    forecast = await _ok("run_tsfm_forecasting", {**common, "model_checkpoint": tuned["model_checkpoint"]})
    assert forecast["model_checkpoint"] == tuned["model_checkpoint"]


@pytest.mark.parametrize(
    ("tool", "extra", "expected"),
    [
        ("run_tsfm_forecasting", {"target_columns": ["missing"]}, "['missing'] not in index"),
        ("run_integrated_tsad", {"target_columns": ["missing"]}, "['missing'] not in index"),
        ("run_tsfm_forecasting", {"target_columns": []}, "target_columns must not be empty"),
        ("run_tsfm_forecasting", {"model_checkpoint": "ttm_nope"}, "Unknown model_checkpoint 'ttm_nope'"),
        ("run_tsfm_forecasting", {"model_checkpoint": "ttm_512_96"}, "assetops tsfm pretrain"),
        ("run_tsfm_forecasting", {"dataset_path": "/etc/passwd"}, "outside the work directory"),
        ("run_tsfm_forecasting", {"dataset_path": "../x.csv"}, "outside the work directory"),
        ("run_integrated_tsad", {"ad_model_type": "isolation_forest"}, "ad_model_type must be one of"),
    ],
)
async def test_bad_arguments_give_actionable_errors(
    tsfm_ctx: ToolContext, tool: str, extra: dict[str, Any], expected: str
) -> None:
    name = _write(tsfm_ctx, sine_frame(2))
    args = {"dataset_path": name, "timestamp_column": "timestamp", "target_columns": ["value"], **extra}
    assert expected in await _error(tool, args)


async def test_too_little_data_for_the_context_length_is_explained(tsfm_ctx: ToolContext) -> None:
    name = _write(tsfm_ctx, sine_frame(1).head(50))
    message = await _error("run_tsfm_forecasting", {"dataset_path": name, "timestamp_column": "timestamp",
                                                    "target_columns": ["value"]})
    assert "context length requirement (96 rows)" in message


async def test_run_tsad_rejects_an_unknown_task(tsfm_ctx: ToolContext) -> None:
    name = _write(tsfm_ctx, sine_frame(2))
    (tsfm_ctx.workdir / "f.json").write_text("{}")
    message = await _error("run_tsad", {"dataset_path": name, "tsfm_output_json": "f.json", "task": "train",
                                        "timestamp_column": "timestamp", "target_columns": ["value"]})
    assert message == "task must be 'fit' or 'inference'"


async def test_a_json_history_result_is_a_valid_dataset(tsfm_ctx: ToolContext) -> None:
    frame = sine_frame(2)
    payload = {"observations": frame.to_dict(orient="records")}
    (tsfm_ctx.workdir / "history.json").write_text(json.dumps(payload))
    output = await _ok("run_tsfm_forecasting", {"dataset_path": "history.json", "timestamp_column": "timestamp",
                                                "target_columns": ["value"]})
    assert output["windows"] == len(frame) - 96 + 1


async def test_an_unsupported_file_type_is_named(tsfm_ctx: ToolContext) -> None:
    (tsfm_ctx.workdir / "data.parquet").write_bytes(b"x")
    message = await _error("run_tsfm_forecasting", {"dataset_path": "data.parquet", "timestamp_column": "timestamp",
                                                    "target_columns": ["value"]})
    assert "Invalid file type received: '.parquet'" in message
