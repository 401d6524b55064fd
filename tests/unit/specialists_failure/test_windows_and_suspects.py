"""Diagnosis on the short window of a trip day, and sensor validity on names carried over from
an earlier question (held-out QA defects 5 and 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import ToolOutcome
from specialists.failure import FailureSpecialist
from specialists.failure.handlers_diagnosis import WIDENED_DAYS
from specialists.failure.signatures import CONDENSER_FLOW, CONDENSER_FOULING, NO_FAULT
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


def _last_day(frame: pd.DataFrame) -> TimeWindow:
    end = frame.index[-1] + pd.Timedelta(minutes=15)
    return TimeWindow((end - pd.Timedelta(days=1)).to_pydatetime(), end.to_pydatetime(), "yesterday")


async def test_a_diagnosis_of_one_day_compares_the_weeks_before_and_names_the_slow_fault(
    tmp_path: Path,
) -> None:
    days = WIDENED_DAYS + 5  # the session already holds the months the diagnosis widens to
    frame = chiller_frame(days=days, seed=31)
    extra = 1 + 0.15 * ramp(frame, 1 - 21 / days) * frame["Chiller % Loaded"] / 100  # grows over three weeks
    frame["Power Input"] *= extra
    frame["Chiller Efficiency"] *= extra
    ctx, tools, work = await make_context(tmp_path, no_tools)
    artifact = telemetry_artifact(write_csv(frame, work / "month.csv"), frame)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    window = _last_day(frame)
    task = SpecialistTask(
        "failure", "diagnose", asset_ids=[ASSET], window=window, params={"year_on_year": False}
    )

    result = await FailureSpecialist().run(task, ctx)

    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None and tools.batches == []  # the month was already in the session
    assert stored.results["hypotheses"][0]["failure_mode"] == CONDENSER_FOULING
    assert stored.window_start == window.end - pd.Timedelta(days=WIDENED_DAYS)
    assert any("widened" in line for line in stored.observations)


async def test_the_same_day_alone_cannot_see_the_slow_fault(tmp_path: Path) -> None:
    """The control for the test above: with only the day in the session the window stays as asked."""
    frame = chiller_frame(days=35, seed=31)
    extra = 1 + 0.15 * ramp(frame, 0.35) * frame["Chiller % Loaded"] / 100
    frame["Power Input"] *= extra
    frame["Chiller Efficiency"] *= extra
    day = frame[frame.index >= frame.index[-1] - pd.Timedelta(hours=23, minutes=45)]
    ctx, tools, work = await make_context(tmp_path, no_history_there)
    artifact = telemetry_artifact(write_csv(day, work / "day.csv"), day)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    task = SpecialistTask(
        "failure", "diagnose", asset_ids=[ASSET], window=_last_day(frame), params={"year_on_year": False}
    )

    result = await FailureSpecialist().run(task, ctx)

    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None
    asked_for = [name for batch in tools.names() for name in batch]
    assert asked_for and set(asked_for) == {"iot.history_csv"}  # asked for the months before (in parts)
    assert stored.results["hypotheses"][0]["failure_mode"] == NO_FAULT
    assert stored.window_start == task.window.start  # type: ignore[union-attr]


async def test_a_window_the_chiller_hardly_ran_in_is_diagnosed_from_its_last_running_weeks(tmp_path: Path) -> None:
    """Off for the ten days asked about: the diagnosis looks back for the weeks it last ran (fetched in
    its own name) instead of failing with nothing to compare, and says so."""
    frame = chiller_frame(days=60, seed=34)
    end = frame.index[-1] + pd.Timedelta(minutes=15)
    idle = frame.index >= end - pd.Timedelta(days=10)
    frame.loc[idle, ["Chiller % Loaded", "Tonnage", "Power Input", "Chiller Efficiency"]] = 0.0
    ctx, tools, work = await make_context(tmp_path, no_tools)
    artifact = telemetry_artifact(write_csv(frame[idle], work / "idle.csv"), frame[idle])
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    tools.answer = HistoryStore(frame, work)
    task = SpecialistTask("failure", "diagnose", asset_ids=[ASSET], params={"year_on_year": False},
                          window=TimeWindow((end - pd.Timedelta(days=10)).to_pydatetime(), end.to_pydatetime()))

    result = await FailureSpecialist().run(task, ctx)

    assert result.status == "ok" and set(tools.callers) == {"failure"}
    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None and any("the chiller hardly ran in the asked" in line for line in stored.observations)


def no_history_there(name: str, args: dict[str, Any]) -> ToolOutcome:
    """The history tool finds nothing before the day."""
    return ToolOutcome(name, args, "error", error="no data in the requested window")


async def test_sensor_validity_on_carried_over_load_and_efficiency_judges_the_drifting_temperature(
    tmp_path: Path,
) -> None:
    frame = chiller_frame(days=60, seed=32)
    frame["Return Temperature"] += 1.5 * ramp(frame, 0.0)  # 0.25 degF per ~10 days, alone
    ctx, _, work = await make_context(tmp_path, no_tools)
    artifact = telemetry_artifact(write_csv(frame, work / "drift.csv"), frame)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    task = SpecialistTask(
        "failure",
        "sensor_validity",
        asset_ids=[ASSET],
        sensors=[f"{ASSET} Chiller % Loaded", f"{ASSET} Chiller Efficiency"],
    )

    result = await FailureSpecialist().run(task, ctx)

    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None
    verdicts = {v["sensor"]: v for v in stored.results["verdicts"]}
    assert verdicts["Return Temperature"]["verdict"] == "sensor_drift"
    assert "Chiller % Loaded" not in verdicts and "too few running samples" not in result.summary
    assert "Not judged for sensor drift (Chiller % Loaded, Chiller Efficiency)" in result.summary


async def test_a_diagnosis_of_a_trip_names_the_stop_and_the_sensor_that_died(tmp_path: Path) -> None:
    frame = chiller_frame(days=30, seed=33)
    stop = frame.index[-1] - pd.Timedelta(hours=8)
    after = frame.index > stop
    frame.loc[after, ["Chiller % Loaded", "Tonnage", "Power Input", "Chiller Efficiency"]] = 0.0
    frame.loc[frame.index > stop - pd.Timedelta(minutes=15), "Condenser Water Flow"] = float("nan")
    frame.loc[stop - pd.Timedelta(hours=2) : stop, "Chiller % Loaded"] = 85.0  # high, steady load at the stop
    ctx, _, work = await make_context(tmp_path, no_tools)
    artifact = telemetry_artifact(write_csv(frame, work / "trip.csv"), frame)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    task = SpecialistTask("failure", "diagnose", asset_ids=[ASSET], params={"year_on_year": False})

    result = await FailureSpecialist().run(task, ctx)

    assert "Event: it stopped abruptly at" in result.summary
    assert "Condenser Water Flow stopped reporting" in result.summary


async def test_a_sudden_fault_on_the_asked_day_is_judged_on_that_day_alone(tmp_path: Path) -> None:
    """A step loss of condenser flow on the asked day is one day of the last running week: the week's
    medians do not move, so the day alone is compared with the same baseline."""
    frame = chiller_frame(days=WIDENED_DAYS + 5, seed=32)
    asked = _last_day(frame)
    on_the_day = frame.index >= pd.Timestamp(asked.start)
    frame.loc[on_the_day, "Condenser Water Flow"] *= 0.6
    frame.loc[on_the_day, "Power Input"] *= 1.04
    ctx, tools, work = await make_context(tmp_path, no_tools)
    artifact = telemetry_artifact(write_csv(frame, work / "months.csv"), frame)
    await ctx.store.put(artifact)
    ctx.visible_artifacts.append(artifact)
    task = SpecialistTask("failure", "diagnose", asset_ids=[ASSET], window=asked, params={"year_on_year": False})

    result = await FailureSpecialist().run(task, ctx)

    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None and tools.batches == []
    assert stored.results["hypotheses"][0]["failure_mode"] == CONDENSER_FLOW
    assert pd.Timestamp(stored.results["recent"][0]) == pd.Timestamp(asked.start)
    assert any("asked day alone" in line for line in stored.observations)


def test_a_validity_line_names_the_coupled_signals_it_checked() -> None:
    from specialists.common.validity import ValidityVerdict
    verdict = ValidityVerdict("Return Temperature", "sensor_drift", 0.8, 3.1,
                              coupled={"Supply Temperature": 0.2, "Tonnage": -0.4, "Power Input": 0.1})
    line = verdict.describe()
    assert "0 of its coupled signals (Supply Temperature, Tonnage, Power Input) followed: sensor drift" in line
