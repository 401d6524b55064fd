"""Timeseries specialist handlers over a real SQLite artifact store, with the TSFM tools scripted.

The scripted tools write result files in the contract's formats (TSAD CSV, forecast JSON) so the
handlers' reading and summarising runs for real.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import ToolOutcome
from specialists.timeseries import TimeseriesSpecialist
from tests.unit.specialists_timeseries.synthetic import (
    ASSET,
    HistoryStore,
    chiller_frame,
    make_context,
    no_tools,
    ramp,
    telemetry_artifact,
    write_csv,
)

TSAD_COLUMNS = [
    "timestamp",
    "value",
    "upper_bound",
    "lower_bound",
    "anomaly_score",
    "anomaly_label",
    "split",
    "KPI",
]


class FakeTsfm:
    """Writes contract-shaped result files into the work dir; fails on request."""

    def __init__(self, work: Path, *, missing_column: str | None = None) -> None:
        self.work = work
        self.missing_column = missing_column

    def __call__(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        if name == "tsfm.get_ai_tasks":
            return ToolOutcome(
                name,
                args,
                "ok",
                {
                    "tasks": [
                        {
                            "task_id": "tsfm_integrated_tsad",
                            "task_description": "Time series Anomaly detection",
                        }
                    ]
                },
            )
        if name == "tsfm.get_tsfm_models":
            return ToolOutcome(
                name, args, "ok", {"models": [{"model_id": "ttm_96_28", "model_description": "ctx 96"}]}
            )
        targets = args["target_columns"]
        if self.missing_column in targets:
            return ToolOutcome(name, args, "error", error=f"['{self.missing_column}'] not in index")
        if name == "tsfm.run_integrated_tsad":
            return ToolOutcome(name, args, "ok", {"status": "success", "results_file": self._tsad(targets)})
        if name == "tsfm.run_tsfm_forecasting":
            return ToolOutcome(name, args, "ok", {"status": "success", "results_file": self._forecast(args)})
        return ToolOutcome(name, args, "error", error=f"unscripted {name}")

    def _tsad(self, targets: list[str]) -> str:
        times = pd.date_range("2021-06-01", periods=40, freq="15min", tz="UTC").astype(str)
        rows = []
        for kpi in targets:
            labels = np.zeros(40, dtype=bool)
            labels[10:13] = True
            rows.append(
                pd.DataFrame(
                    {
                        "timestamp": times,
                        "value": 10.0,
                        "upper_bound": 9.0,
                        "lower_bound": 1.0,
                        "anomaly_score": np.where(labels, 0.99, 0.1),
                        "anomaly_label": labels,
                        "split": "test",
                        "KPI": kpi,
                    }
                )
            )
        path = self.work / f"tsad_{len(list(self.work.glob('tsad_*')))}.csv"
        pd.concat(rows)[TSAD_COLUMNS].to_csv(path, index=False)
        return str(path)

    def _forecast(self, args: dict[str, Any]) -> str:
        steps = int(args.get("forecast_horizon") or 28)
        times = pd.date_range("2021-07-01", periods=steps, freq="15min", tz="UTC").map(
            lambda t: t.isoformat()
        )
        values = [[[100.0 + i + j for j in range(len(args["target_columns"]))] for i in range(steps)]]
        path = self.work / f"forecast_{len(list(self.work.glob('forecast_*')))}.json"
        path.write_text(
            json.dumps(
                {
                    "target_prediction": values,
                    "timestamp": [list(times)],
                    "target_columns": args["target_columns"],
                }
            )
        )
        return str(path)


async def _with_telemetry(tmp_path: Path, answer: Any, assets: tuple[str, ...] = (ASSET,)) -> Any:
    ctx, tools, work = await make_context(tmp_path, answer)
    for number, asset in enumerate(assets):
        frame = chiller_frame(days=10, seed=number)
        artifact = telemetry_artifact(
            write_csv(frame, work / f"t{number}.csv", asset),
            frame,
            asset_id=asset,
            artifact_id=f"artifact_dc_{number}",
        )
        await ctx.store.put(artifact)
        ctx.visible_artifacts.append(artifact)
    return ctx, tools, work


async def test_capabilities_run_both_catalogue_tools_in_one_batch(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = FakeTsfm(work)
    result = await TimeseriesSpecialist().run(SpecialistTask("timeseries", "capabilities"), ctx)
    assert result.status == "ok"
    assert tools.names() == [["tsfm.get_ai_tasks", "tsfm.get_tsfm_models"]]
    assert "ttm_96_28" in result.summary


async def test_anomaly_detection_reuses_analysed_sensors_and_runs_only_the_missing_ones(
    tmp_path: Path,
) -> None:
    ctx, tools, work = await _with_telemetry(tmp_path, no_tools)
    tools.answer = FakeTsfm(work)
    first = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"]), ctx
    )
    assert first.status == "ok"
    report = await ctx.store.get(first.artifact_ids[0])
    assert report is not None and report.kind == "anomaly_detection"
    power = report.results["per_sensor"][f"{ASSET} Power Input"]
    assert (power["anomalies"], power["periods_total"]) == (3, 1)
    ctx.visible_artifacts.append(report)
    second = await TimeseriesSpecialist().run(
        SpecialistTask(
            "timeseries",
            "anomaly_detection",
            asset_ids=[ASSET],
            sensors=["Power Input", "Chiller Efficiency"],
        ),
        ctx,
    )
    assert tools.batches[-1][0][1]["target_columns"] == [f"{ASSET} Chiller Efficiency"]
    merged = await ctx.store.get(second.artifact_ids[0])
    assert merged is not None and set(merged.results["per_sensor"]) == {
        f"{ASSET} Power Input",
        f"{ASSET} Chiller Efficiency",
    }
    assert merged.results["reused_sensors"] == [f"{ASSET} Power Input"]


async def test_a_missing_target_column_is_dropped_and_retried_once(tmp_path: Path) -> None:
    ctx, tools, work = await _with_telemetry(tmp_path, no_tools)
    tools.answer = FakeTsfm(work, missing_column=f"{ASSET} Chiller Efficiency")
    result = await TimeseriesSpecialist().run(
        SpecialistTask(
            "timeseries",
            "anomaly_detection",
            asset_ids=[ASSET],
            sensors=["Power Input", "Chiller Efficiency"],
        ),
        ctx,
    )
    assert len(tools.batches) == 2
    assert tools.batches[1][0][1]["target_columns"] == [f"{ASSET} Power Input"]
    assert result.status == "ok" and result.artifact_ids


async def test_forecasts_for_two_assets_run_in_one_batch_and_state_the_rollout(
    tmp_path: Path,
) -> None:
    ctx, tools, work = await _with_telemetry(tmp_path, no_tools, assets=(ASSET, "Chiller 3"))
    tools.answer = FakeTsfm(work)
    task = SpecialistTask(
        "timeseries",
        "forecast",
        asset_ids=[ASSET, "Chiller 3"],
        sensors=["Tonnage"],
        params={"horizon": "two weeks"},
    )
    result = await TimeseriesSpecialist().run(task, ctx)
    assert tools.names() == [["tsfm.run_tsfm_forecasting", "tsfm.run_tsfm_forecasting"]]
    assert all(
        args["forecast_horizon"] == 1344 and args["autoregressive_modeling"] for _, args in tools.batches[0]
    )
    assert result.status == "ok" and len(result.artifact_ids) == 2
    assert "14.0 days" in result.summary and "autoregressively" in result.summary


async def test_trend_stats_need_no_tool_and_flag_the_drifting_sensor(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    frame = chiller_frame(days=28, seed=5)
    frame["Return Temperature"] += 2.0 * ramp(frame, 0.3)
    artifact = telemetry_artifact(write_csv(frame, work / "drift.csv"), frame)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    result = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "trend_stats", asset_ids=[ASSET]), ctx
    )
    assert tools.batches == [] and result.reused_artifact_ids == [artifact.id]
    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None and "drift_up" in stored.results["per_sensor"]["Return Temperature"]["flags"]
    assert (
        len(stored.results["moved_alone"]) == 1 and "Return Temperature" in stored.results["moved_alone"][0]
    )
    bins = await TimeseriesSpecialist().run(SpecialistTask("timeseries", "load_bins", asset_ids=[ASSET]), ctx)
    thresholds = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "threshold_suggestion", asset_ids=[ASSET]), ctx
    )
    assert bins.status == thresholds.status == "ok" and tools.batches == []
    assert "kW/ton" in bins.summary and "sigma" in thresholds.summary


async def test_without_telemetry_the_specialist_fetches_the_window_itself(tmp_path: Path) -> None:
    """No telemetry in the session: the specialist fetches it in its own name and goes on, instead
    of failing and waiting for the supervisor to run the data specialist and retry it."""
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = HistoryStore(chiller_frame(days=30), work, other=FakeTsfm(work))
    result = await TimeseriesSpecialist().run(SpecialistTask("timeseries", "forecast", asset_ids=[ASSET]), ctx)
    assert result.status == "ok" and not result.follow_ups and not result.errors
    assert tools.names() == [["iot.history_csv"], ["utilities.csv_stats"], ["tsfm.run_tsfm_forecasting"]]
    assert set(tools.callers) == {"timeseries"}
    fetched = [a for a in [await ctx.store.get(i) for i in result.artifact_ids] if a and a.kind == "telemetry_window"]
    assert len(fetched) == 1 and fetched[0].id not in result.reused_artifact_ids  # made by this task, not reused


async def test_with_no_telemetry_to_fetch_the_result_says_so(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = HistoryStore(chiller_frame(days=3), work)  # nothing in the week before the reference date
    result = await TimeseriesSpecialist().run(SpecialistTask("timeseries", "forecast", asset_ids=[ASSET]), ctx)
    assert result.status == "failed" and not result.follow_ups
    assert "No telemetry to analyse" in result.summary and "no observations" in result.summary


class FakeTuning(FakeTsfm):
    """Forecasts the dataset's own last 28 samples with a known error: 2.0 zero-shot, 0.5 when tuned."""

    def __call__(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        if name == "tsfm.run_tsfm_finetuning":
            checkpoint = str(self.work / "tuned_models" / "c9" / "fewshot" / "checkpoint-10")
            return ToolOutcome(
                name,
                args,
                "ok",
                {
                    "status": "success",
                    "model_checkpoint": checkpoint,
                    "results_file": str(self.work / "metrics.json"),
                },
            )
        if name == "tsfm.run_tsfm_forecasting":
            data = pd.read_csv(args["dataset_path"]).tail(28)
            error = 0.5 if "checkpoint-10" in str(args.get("model_checkpoint")) else 2.0
            values = [[[float(v) + error] for v in data[args["target_columns"][0]]]]
            path = self.work / f"forecast_{len(list(self.work.glob('forecast_*')))}.json"
            path.write_text(
                json.dumps(
                    {
                        "target_prediction": values,
                        "timestamp": [list(data["timestamp"])],
                        "target_columns": args["target_columns"],
                    }
                )
            )
            return ToolOutcome(name, args, "ok", {"status": "success", "results_file": str(path)})
        return super().__call__(name, args)


async def test_finetune_reports_before_and_after_on_the_same_tail_and_evaluation_reuses_the_checkpoint(
    tmp_path: Path,
) -> None:
    ctx, tools, work = await _with_telemetry(tmp_path, no_tools)
    tools.answer = FakeTuning(work)
    tuned = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "finetune", asset_ids=[ASSET], sensors=["Tonnage"]), ctx
    )
    assert tools.names()[:2] == [
        ["tsfm.run_tsfm_finetuning", "tsfm.run_tsfm_forecasting"],
        ["tsfm.run_tsfm_forecasting"],
    ]
    artifact = await ctx.store.get(tuned.artifact_ids[0])
    assert artifact is not None and artifact.results["checkpoint"].endswith("checkpoint-10")
    assert artifact.results["before"][0]["mae"] == 2.0 and artifact.results["after"][0]["mae"] == 0.5
    assert "MAE 2.00 -> 0.50" in tuned.summary

    ctx.visible_artifacts.append(artifact)
    telemetry = ctx.visible_artifacts[0]
    window_end = telemetry.window_end
    assert window_end is not None
    task = SpecialistTask(
        "timeseries",
        "evaluate_forecast",
        asset_ids=[ASSET],
        sensors=["Tonnage"],
        window=TimeWindow(window_end - pd.Timedelta(days=1), window_end),
    )
    evaluation = await TimeseriesSpecialist().run(task, ctx)
    assert evaluation.status == "ok", evaluation.summary
    assert [args.get("model_checkpoint") for _, args in tools.batches[-1]] == [
        artifact.results["checkpoint"],
        "ttm_96_28",
    ]
    assert "MAE 0.500" in evaluation.summary and "zero-shot MAE 2.000" in evaluation.summary
