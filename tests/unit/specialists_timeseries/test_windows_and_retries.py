"""Analysed windows, retries and forecast data preparation (held-out QA defects 5, 7 and 11)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import ToolOutcome
from specialists.common.telemetry_source import regular_tail
from specialists.timeseries import TimeseriesSpecialist
from specialists.timeseries.analysis_window import (
    MAX_ANALYSIS_DAYS,
    WIDENED_DAYS,
    anomaly_analysis_window,
)
from specialists.timeseries.drivers import calibration_share, conditional_drivers
from specialists.timeseries.forecast import summarise_forecast
from specialists.timeseries.handlers_stats import PRE_EVENT_DAYS
from specialists.timeseries.handlers_tuning import idle_note
from specialists.timeseries.tsfm_retry import corrected_tsfm_args
from tests.unit.specialists_timeseries.synthetic import (
    ASSET,
    HistoryStore,
    chiller_frame,
    make_context,
    no_tools,
    telemetry_artifact,
    write_csv,
)
from tests.unit.specialists_timeseries.test_handlers import FakeTsfm, FakeTuning

CALIBRATION_ERROR = (
    "No TSAD results produced for any target column. Chiller 9 Power Input: n_calibration ({rows} points) leaves "
    "none of the {rows} aligned points to test."
)
CONTEXT_ERROR = (
    "No TSAD results produced for any target column. Data quality was poor; after filtering, no continuous "
    "segment satisfied the context length requirement (97 rows)."
)


def _window(start: str, days: float) -> TimeWindow:
    begin = pd.Timestamp(start, tz="UTC").to_pydatetime()
    return TimeWindow(begin, begin + timedelta(days=days), "")


def test_a_year_is_cut_to_its_last_weeks_and_a_day_widened_to_a_week_with_a_note() -> None:
    year = anomaly_analysis_window(_window("2020-01-01", 366))
    assert year.window.end == _window("2020-01-01", 366).end
    assert year.window.end - year.window.start == timedelta(days=MAX_ANALYSIS_DAYS)
    assert year.note is not None and f"last {MAX_ANALYSIS_DAYS} days" in year.note
    day = anomaly_analysis_window(_window("2019-07-23", 1))
    assert day.window.end - day.window.start == timedelta(days=WIDENED_DAYS)
    assert day.note is not None and "too few continuous samples" in day.note
    month = anomaly_analysis_window(_window("2021-06-01", 30))
    assert not month.changed and month.window == _window("2021-06-01", 30)


async def _held(ctx: Any, work: Path, frame: pd.DataFrame, name: str) -> None:
    artifact = telemetry_artifact(
        write_csv(frame, work / f"{name}.csv"), frame, artifact_id=f"artifact_dc_{name}"
    )
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)


async def test_anomaly_detection_on_a_long_window_hands_the_tool_only_the_last_weeks(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = FakeTsfm(work)
    frame = chiller_frame(days=90, seed=41)
    await _held(ctx, work, frame, "quarter")
    result = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"]), ctx
    )
    assert result.status == "ok"
    analysed = pd.read_csv(tools.batches[0][0][1]["dataset_path"])
    stamps = pd.to_datetime(analysed["timestamp"], utc=True)
    assert stamps.max() == frame.index[-1]
    assert stamps.min() == frame.index[-1] + pd.Timedelta(minutes=15) - pd.Timedelta(days=MAX_ANALYSIS_DAYS)
    report = await ctx.store.get(result.artifact_ids[0])
    assert report is not None and any(f"last {MAX_ANALYSIS_DAYS} days" in a for a in report.assumptions)


async def test_anomaly_detection_on_one_day_fetches_the_week_before_and_analyses_that_week(
    tmp_path: Path,
) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    frame = chiller_frame(days=10, seed=42)
    day = frame[frame.index >= frame.index[-1] - pd.Timedelta(hours=23, minutes=45)]
    await _held(ctx, work, day, "day")
    tools.answer = HistoryStore(frame, work, other=FakeTsfm(work))
    task = SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"])
    result = await TimeseriesSpecialist().run(task, ctx)
    assert result.status == "ok" and not result.follow_ups
    assert tools.names() == [["iot.history_csv"], ["utilities.csv_stats"], ["tsfm.run_integrated_tsad"]]
    (fetch,) = tools.answer.asked
    assert pd.Timestamp(fetch["final"]) - pd.Timestamp(fetch["start"]) == timedelta(days=WIDENED_DAYS)
    analysed = pd.read_csv(tools.batches[-1][0][1]["dataset_path"])
    assert len(analysed) == WIDENED_DAYS * 96
    report = await ctx.store.get(result.artifact_ids[0])
    assert report is not None and any(f"{WIDENED_DAYS} days up to the window end" in a for a in report.assumptions)


async def test_a_window_the_model_cannot_calibrate_on_is_analysed_again_over_a_longer_one(tmp_path: Path) -> None:
    """The tool cannot calibrate on the week: the specialist fetches four weeks before the same end and
    reruns, says which window it used, and the failed call is followed by a successful one."""
    frame = chiller_frame(days=35, seed=47)
    week = frame[frame.index >= frame.index[-1] - pd.Timedelta(days=7, minutes=-15)]
    ctx, tools, work = await make_context(tmp_path, no_tools)
    await _held(ctx, work, week, "week")
    fake = FakeTsfm(work)

    def short_week_fails(name: str, args: dict[str, Any]) -> ToolOutcome:
        rows = len(pd.read_csv(args["dataset_path"])) if name == "tsfm.run_integrated_tsad" else 0
        if name == "tsfm.run_integrated_tsad" and rows <= 7 * 96:
            return ToolOutcome(name, args, "error", error=CALIBRATION_ERROR.format(rows=rows))
        return fake(name, args)

    tools.answer = HistoryStore(frame, work, other=short_week_fails)
    task = SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"])
    result = await TimeseriesSpecialist().run(task, ctx)
    assert result.status == "ok" and not result.errors
    tsad = [call for batch in tools.batches for call in batch if call[0] == "tsfm.run_integrated_tsad"]
    assert len(pd.read_csv(tsad[-1][1]["dataset_path"])) == 28 * 96  # the last run: four weeks
    report = await ctx.store.get(result.artifact_ids[0])
    assert report is not None and report.window_start == week.index[-1] + pd.Timedelta(minutes=15) - timedelta(days=28)
    assert any("28 days up to the window end" in a and "could not run" in a for a in report.assumptions)


async def test_a_call_that_failed_this_turn_is_not_run_again_and_dependents_may_go_on(tmp_path: Path) -> None:
    def gappy(name: str, args: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(name, args, "error", error=CONTEXT_ERROR)

    ctx, tools, work = await make_context(tmp_path, gappy)
    ten_days = chiller_frame(days=10, seed=43)
    await _held(ctx, work, ten_days, "ten_days")
    tools.answer = HistoryStore(ten_days, work, other=gappy)  # the longer window holds nothing more
    task = SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"])
    first = await TimeseriesSpecialist().run(task, ctx)
    ran = len(tools.batches)
    second = await TimeseriesSpecialist().run(task, ctx)  # the supervisor's retry within the same turn
    assert len(tools.batches) == ran  # neither the call nor its longer-window retry runs again
    for result in (first, second):
        assert result.status == "partial" and "could not run" in result.summary and not result.follow_ups


def test_n_test_errors_move_the_test_share_the_way_the_message_says() -> None:
    args = {"dataset_path": "d.csv", "target_columns": ["Chiller 9 Tonnage"], "n_test": 0.05}
    raised = corrected_tsfm_args(
        args, "n_test leaves fewer than 28 rows per segment to test on; raise n_test (fraction or count)."
    )
    assert raised is not None and raised["n_test"] == 28.0  # one horizon per segment, as a count
    lowered = corrected_tsfm_args(
        args,
        "Too little data before the test period for training and validation windows of 124 rows; "
        "lower n_test or give a longer dataset.",
    )
    assert lowered is not None and lowered["n_test"] == 0.025


class FirstTuningFails(FakeTuning):
    """Fine-tuning fails for too few test rows until n_test is a count."""

    def __call__(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        if name == "tsfm.run_tsfm_finetuning" and float(args.get("n_test", 0)) <= 1:
            return ToolOutcome(
                name,
                args,
                "error",
                error="n_test leaves fewer than 28 rows per segment to test on; raise n_test (fraction or count).",
            )
        outcome = super().__call__(name, args)
        if name == "tsfm.run_tsfm_finetuning":
            outcome.output |= {
                "metrics_before": {"mae": 40.0, "windows": 12},
                "metrics_after": {"mae": 25.0, "windows": 12},
            }
        return outcome


async def test_fine_tuning_is_retried_with_workable_settings_and_says_so(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = FirstTuningFails(work)
    await _held(ctx, work, chiller_frame(days=10, seed=44), "ten_days")
    result = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "finetune", asset_ids=[ASSET], sensors=["Tonnage"]), ctx
    )
    assert result.status == "ok", result.summary
    tuning_args = [
        args for batch in tools.batches for name, args in batch if name == "tsfm.run_tsfm_finetuning"
    ]
    assert [a["n_test"] for a in tuning_args][-1] == 28.0
    assert "retried with n_test" in result.summary
    assert (
        "test period (12 forecast windows" in result.summary
        and "MAE 40.00 zero-shot -> 25.00" in result.summary
    )


def test_an_all_zero_evaluation_week_is_called_off_not_accurate() -> None:
    idle = pd.DataFrame({"Chiller 9 Tonnage": np.zeros(672)})
    assert "off the whole week" in idle_note(idle, "week")
    running = pd.DataFrame({"Chiller 9 Tonnage": np.full(672, 500.0)})
    assert idle_note(running, "week") == ""


def test_the_forecast_tail_is_made_continuous_up_to_the_last_reading() -> None:
    frame = chiller_frame(days=2, seed=45)[["Tonnage"]]
    frame.loc[frame.index[-10], "Tonnage"] = np.nan  # one missing reading near the end
    jittered = frame.index.to_series()
    jittered.iloc[-5] += pd.Timedelta(seconds=41)  # and one timestamp off the grid
    frame.index = pd.DatetimeIndex(jittered)
    tail = regular_tail(frame, 120)
    assert len(tail) == 120 and tail.index[-1] == frame.index[-1]
    assert (tail.index.to_series().diff().dropna() == pd.Timedelta(minutes=15)).all()
    assert tail["Tonnage"].notna().all()


def test_a_forecast_is_summarised_in_site_time_with_two_decimals() -> None:
    index = pd.date_range("2021-07-01 04:00", periods=4, freq="15min", tz="UTC")
    window = pd.DataFrame({"Tonnage": [600.123456, 610.98765, 620.5, 630.25]}, index=index)
    summary = summarise_forecast(window, tz="America/New_York")["Tonnage"]
    assert summary["from"] == "2021-07-01T00:00:00-04:00"
    assert (summary["first"], summary["max"]) == (600.12, 630.25)


async def test_readings_before_a_trip_are_trended_over_the_two_weeks_before_it(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    frame = chiller_frame(days=20, seed=46)
    end = frame.index[-1] + pd.Timedelta(minutes=15)
    trip_day = TimeWindow((end - pd.Timedelta(days=1)).to_pydatetime(), end.to_pydatetime(), "yesterday")
    await _held(ctx, work, frame[frame.index >= end - pd.Timedelta(days=1)], "day")
    tools.answer = HistoryStore(frame, work)
    task = SpecialistTask(
        "timeseries",
        "trend_stats",
        asset_ids=[ASSET],
        window=trip_day,
        params={"segment": "before_event", "event": "trip"},
    )
    result = await TimeseriesSpecialist().run(task, ctx)  # fetches the two weeks itself, then trends them
    assert result.status == "ok" and not result.follow_ups
    assert tools.names() == [["iot.history_csv"], ["utilities.csv_stats"]] and set(tools.callers) == {"timeseries"}
    report = await ctx.store.get(result.artifact_ids[0])
    assert report is not None and report.window_start == end - pd.Timedelta(days=PRE_EVENT_DAYS)
    assert "Key readings over the window: Power Input" in result.summary


def test_process_signals_are_conditioned_on_load_and_chilled_water_temperatures_on_the_setpoint() -> None:
    available = ["Chiller % Loaded", "Tonnage", "Setpoint Temperature", "Power Input", "Supply Temperature"]
    assert conditional_drivers(["Power Input", "Chiller Efficiency"], available) == [
        "Chiller % Loaded",
        "Tonnage",
    ]
    assert conditional_drivers(["Supply Temperature"], available) == [
        "Chiller % Loaded",
        "Tonnage",
        "Setpoint Temperature",
    ]
    assert conditional_drivers(["Power Input"], ["Power Input", "Chiller % Loaded"]) == ["Chiller % Loaded"]
    assert conditional_drivers(["Setpoint Temperature"], available) == []


async def test_anomaly_detection_passes_the_drivers_and_keeps_sustained_shifts(tmp_path: Path) -> None:
    class WithShift(FakeTsfm):
        def __call__(self, name: str, args: dict[str, Any]) -> ToolOutcome:
            outcome = super().__call__(name, args)
            shift = {
                "KPI": args["target_columns"][0],
                "message": "From 2021-06-05 power is 20 above its relation.",
            }
            outcome.output["sustained_anomalies"] = [shift]
            return outcome

    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = WithShift(work)
    await _held(ctx, work, chiller_frame(days=10, seed=47), "ten_days")
    result = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "anomaly_detection", asset_ids=[ASSET], sensors=["Power Input"]), ctx
    )
    args = tools.batches[0][0][1]
    assert args["conditional_columns"] == [f"{ASSET} Chiller % Loaded", f"{ASSET} Tonnage"]
    report = await ctx.store.get(result.artifact_ids[0])
    assert report is not None and report.results["sustained_shifts"][0]["KPI"] == f"{ASSET} Power Input"
    assert result.summary.startswith("From 2021-06-05")  # the sustained shift is the finding: it leads


def test_an_idle_calibration_start_gets_a_larger_calibration_share_then_no_drivers() -> None:
    error = (
        "Only 0 running calibration rows to learn 'Chiller 9 Power Input' from ['Chiller 9 Tonnage'] (at least "
        "50 needed): use a longer window or a larger n_calibration."
    )
    args = {
        "dataset_path": "d.csv",
        "target_columns": ["Chiller 9 Power Input"],
        "conditional_columns": ["x"],
    }
    larger = corrected_tsfm_args(args, error)
    assert larger is not None and larger["n_calibration"] == 0.5 and larger["conditional_columns"] == ["x"]
    plain = corrected_tsfm_args(larger, error)
    assert plain is not None and "conditional_columns" not in plain and plain["n_calibration"] == 0.5


async def test_an_idle_window_is_not_fine_tuned_on_but_scores_the_tuned_model(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = FakeTuning(work)
    await _held(ctx, work, chiller_frame(days=10, seed=48), "ten_days")
    tuned = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "finetune", asset_ids=[ASSET], sensors=["Tonnage"]), ctx
    )
    tuned_artifact = await ctx.store.get(tuned.artifact_ids[0])
    assert tuned_artifact is not None
    ctx.visible_artifacts.append(tuned_artifact)
    off = chiller_frame(days=7, seed=49, start=pd.Timestamp("2021-06-11", tz="UTC")) * 0.0
    await _held(ctx, work, off, "off_week")
    week = TimeWindow(
        off.index[0].to_pydatetime(), (off.index[-1] + pd.Timedelta(minutes=15)).to_pydatetime()
    )
    batches_before = len(tools.batches)

    result = await TimeseriesSpecialist().run(
        SpecialistTask("timeseries", "finetune", asset_ids=[ASSET], sensors=["Tonnage"], window=week), ctx
    )

    names = [name for batch in tools.batches[batches_before:] for name, _ in batch]
    assert "tsfm.run_tsfm_finetuning" not in names and "tsfm.run_tsfm_forecasting" in names
    assert (
        result.summary.startswith("Scored the session's tuned model")
        and "off the whole window" in result.summary
    )


def test_a_window_that_starts_idle_calibrates_on_more_of_it_or_not_on_drivers_at_all() -> None:
    assert calibration_share([True] * 1000) == 0.2
    idle_start = [False] * 250 + [True] * 750
    assert calibration_share(idle_start) == 0.4  # the first 400 rows hold 150 running rows
    assert calibration_share([False] * 900 + [True] * 100) is None
