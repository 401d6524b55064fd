"""Failure specialist handlers over a real SQLite artifact store, with the tool layer scripted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import ToolOutcome
from specialists.failure import FailureSpecialist
from specialists.failure.handlers_knowledge import mapping_calls, merge_mappings
from specialists.failure.signatures import CONDENSER_FOULING, NO_FAULT, SENSOR_DRIFT
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

MODES = [
    "Compressor Overheating: Failed due to Normal wear, overheating",
    "Heat Exchangers: Fans: Degraded motor or worn bearing due to Normal use",
    "Evaporator Water side fouling",
    "Condenser Water side fouling",
    "Condenser Improper water side flow rate",
    "Purge Unit Excessive purge",
    "Refrigerant Operated Control Valve Failed spring",
]


def fmsr(name: str, args: dict[str, Any]) -> ToolOutcome:
    if name == "fmsr.get_failure_modes":
        return ToolOutcome(name, args, "ok", {"asset_name": args["asset_name"], "failure_modes": MODES})
    if name == "fmsr.get_failure_mode_sensor_mapping":
        rows = [
            {
                "asset_name": args["asset_name"],
                "failure_mode": m,
                "sensor": s,
                "relevancy_answer": "Yes" if "Power" in s or "fouling" in m else "No",
                "relevancy_reason": "r",
                "temporal_behavior": "t",
            }
            for m in args["failure_modes"]
            for s in args["sensors"]
        ]
        return ToolOutcome(
            name, args, "ok", {"metadata": {}, "fm2sensor": {}, "sensor2fm": {}, "full_relevancy": rows}
        )
    return ToolOutcome(name, args, "error", error=f"unscripted {name}")


def no_history(name: str, args: dict[str, Any]) -> ToolOutcome:
    """The store has no older telemetry (the year-on-year baseline is unavailable)."""
    assert name == "iot.history_csv", name
    return ToolOutcome(name, args, "error", error=f"no observations for {args['asset_id']} in that window")


def test_mapping_calls_respect_the_five_modes_ten_sensors_limit() -> None:
    sensors = [f"{ASSET} S{i}" for i in range(12)]
    calls = mapping_calls(ASSET, MODES, sensors)
    assert len(calls) == 4
    assert all(len(a["failure_modes"]) <= 5 and len(a["sensors"]) <= 10 for _, a in calls)
    merged = merge_mappings([fmsr(n, a).output for n, a in calls])
    assert set(merged["relevance"]) == set(MODES)
    assert all(len(v) == 12 for v in merged["relevance"].values())


async def test_sensor_mapping_fetches_modes_then_runs_all_chunks_in_one_parallel_batch(
    tmp_path: Path,
) -> None:
    ctx, tools, _ = await make_context(tmp_path, fmsr)
    task = SpecialistTask(
        "failure", "sensor_mapping", asset_ids=[ASSET], sensors=[f"S{i}" for i in range(12)]
    )
    result = await FailureSpecialist().run(task, ctx)
    assert result.status == "ok"
    assert tools.names() == [["fmsr.get_failure_modes"], ["fmsr.get_failure_mode_sensor_mapping"] * 4]
    artifact = await ctx.store.get(result.artifact_ids[0])
    assert artifact is not None and artifact.kind == "sensor_mapping"
    ctx.visible_artifacts.append(artifact)
    again = await FailureSpecialist().run(task, ctx)
    assert again.reused_artifact_ids == [artifact.id] and len(tools.batches) == 2  # reused: no new call


async def test_failure_modes_are_reused_from_an_earlier_artifact(tmp_path: Path) -> None:
    ctx, tools, _ = await make_context(tmp_path, fmsr)
    task = SpecialistTask("failure", "failure_modes", asset_ids=[ASSET])
    first = await FailureSpecialist().run(task, ctx)
    stored = await ctx.store.get(first.artifact_ids[0])
    assert stored is not None and stored.results["failure_modes"] == MODES
    ctx.visible_artifacts.append(stored)
    second = await FailureSpecialist().run(task, ctx)
    assert second.reused_artifact_ids == [stored.id] and len(tools.batches) == 1


async def test_diagnose_without_telemetry_fetches_the_week_itself(tmp_path: Path) -> None:
    ctx, tools, work = await make_context(tmp_path, no_tools)
    tools.answer = HistoryStore(chiller_frame(days=30, seed=12), work)
    result = await FailureSpecialist().run(SpecialistTask("failure", "diagnose", asset_ids=[ASSET]), ctx)
    assert result.status == "ok" and not result.follow_ups
    assert tools.names()[:2] == [["iot.history_csv"], ["utilities.csv_stats"]] and set(tools.callers) == {"failure"}
    made = [await ctx.store.get(i) for i in result.artifact_ids]
    assert [a.kind for a in made if a is not None][:1] == ["diagnose"]
    assert any(a is not None and a.kind == "telemetry_window" for a in made)


async def test_diagnose_ranks_from_the_telemetry_artifact_and_revises_on_new_evidence(tmp_path: Path) -> None:
    healthy = chiller_frame(days=30, seed=11)
    ctx, tools, work = await make_context(tmp_path, no_history)
    first_artifact = telemetry_artifact(
        write_csv(healthy, work / "healthy.csv"), healthy, artifact_id="artifact_dc_1"
    )
    ctx.visible_artifacts.append(first_artifact)
    await ctx.store.put(first_artifact)
    first = await FailureSpecialist().run(SpecialistTask("failure", "diagnose", asset_ids=[ASSET]), ctx)
    # Nothing moved within the window: the same weeks a year earlier were asked for, and were not there.
    assert first.status == "ok" and tools.names() == [["iot.history_csv"]]
    hypotheses = await ctx.store.get(first.artifact_ids[0])
    assert hypotheses is not None and hypotheses.results["hypotheses"][0]["failure_mode"] == NO_FAULT

    fouled = chiller_frame(days=30, seed=11)
    extra = 1 + 0.12 * ramp(fouled, 0.4) * fouled["Chiller % Loaded"] / 100
    fouled["Power Input"] *= extra
    fouled["Chiller Efficiency"] *= extra
    newer = telemetry_artifact(write_csv(fouled, work / "fouled.csv"), fouled, artifact_id="artifact_dc_2")
    ctx.visible_artifacts += [hypotheses, newer]
    window = TimeWindow(newer.window_start, newer.window_end)  # type: ignore[arg-type]
    second = await FailureSpecialist().run(
        SpecialistTask("failure", "diagnose", asset_ids=[ASSET], window=window), ctx
    )
    revised = await ctx.store.get(second.artifact_ids[0])
    assert revised is not None
    ranked = revised.results["hypotheses"]
    assert ranked[0]["failure_mode"] == CONDENSER_FOULING
    low, high = ranked[0]["confidence_range"]
    assert 0 <= low <= ranked[0]["probability"] <= high <= 1
    assert revised.results["changes"][0].startswith("The leading hypothesis changed")
    assert revised.results["previous_hypotheses_id"] == hypotheses.id
    assert revised.results["discriminator"]


async def test_sensor_validity_separates_a_drifting_supply_sensor_with_numbers(tmp_path: Path) -> None:
    frame = chiller_frame(days=30, seed=12)
    frame["Supply Temperature"] += 1.5 * ramp(frame, 0.3)
    ctx, _, work = await make_context(tmp_path, no_tools)
    artifact = telemetry_artifact(write_csv(frame, work / "drift.csv"), frame)
    ctx.visible_artifacts.append(artifact)
    await ctx.store.put(artifact)
    task = SpecialistTask(
        "failure", "sensor_validity", asset_ids=[ASSET], sensors=[f"{ASSET} Supply Temperature"]
    )
    result = await FailureSpecialist().run(task, ctx)
    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None
    verdict = stored.results["verdicts"][0]
    assert verdict["verdict"] == "sensor_drift" and verdict["shift"] > 0.5
    assert "Return Temperature" in verdict["coupled_z"]
    diagnosis = await FailureSpecialist().run(SpecialistTask("failure", "diagnose", asset_ids=[ASSET]), ctx)
    assert SENSOR_DRIFT in diagnosis.summary.split(";")[0]


async def test_an_unknown_action_is_a_failed_result(tmp_path: Path) -> None:
    ctx, _, _ = await make_context(tmp_path, no_tools)
    result = await FailureSpecialist().run(SpecialistTask("failure", "predict_weather"), ctx)
    assert result.status == "failed" and "diagnose" in result.summary


async def test_a_fault_present_all_window_long_is_found_against_the_same_weeks_a_year_earlier(
    tmp_path: Path,
) -> None:
    last_year = chiller_frame(days=30, seed=13, start=pd.Timestamp("2020-06-01", tz="UTC"))
    this_year = chiller_frame(days=30, seed=14)
    fouled = 1 + 0.12 * this_year["Chiller % Loaded"] / 100  # fully developed before the window began
    this_year["Power Input"] *= fouled
    this_year["Chiller Efficiency"] *= fouled
    ctx, tools, work = await make_context(tmp_path, no_tools)
    for name, frame in (("last_year", last_year), ("this_year", this_year)):
        artifact = telemetry_artifact(
            write_csv(frame, work / f"{name}.csv"), frame, artifact_id=f"artifact_dc_{name}"
        )
        await ctx.store.put(artifact)
        ctx.visible_artifacts.append(artifact)
    end = this_year.index[-1] + pd.Timedelta(minutes=15)
    window = TimeWindow(this_year.index[0].to_pydatetime(), end.to_pydatetime())
    task = SpecialistTask("failure", "diagnose", asset_ids=[ASSET], window=window)
    result = await FailureSpecialist().run(task, ctx)
    stored = await ctx.store.get(result.artifact_ids[0])
    assert stored is not None and tools.batches == []  # last year's telemetry was already in the session
    assert stored.results["hypotheses"][0]["failure_mode"] == CONDENSER_FOULING
    assert stored.results["reference_source"] == "artifact_dc_last_year"


async def test_a_question_about_one_mode_is_answered_from_a_wider_mapping_with_its_sensors(tmp_path: Path) -> None:
    ctx, tools, _ = await make_context(tmp_path, fmsr)
    sensors = [f"{ASSET} Power Input", f"{ASSET} Tonnage"]
    wide = await FailureSpecialist().run(
        SpecialistTask("failure", "sensor_mapping", asset_ids=[ASSET], sensors=sensors), ctx
    )
    stored = await ctx.store.get(wide.artifact_ids[0])
    assert stored is not None
    ctx.visible_artifacts.append(stored)
    narrow = SpecialistTask(
        "failure", "sensor_mapping", asset_ids=[ASSET], sensors=sensors,
        params={"failure_modes": ["Purge Unit Excessive purge"]},
    )
    result = await FailureSpecialist().run(narrow, ctx)
    assert result.artifact_ids and not result.reused_artifact_ids
    assert result.summary == f"{ASSET}: sensors that reveal Purge Unit Excessive purge: Power Input."
    assert len(tools.batches) == 2  # the modes list and the wide mapping only: no new call
