"""Timeseries actions backed by the TSFM tools: capabilities, anomaly_detection, forecast.

Each handler reuses what the session already has (capabilities artifact, anomaly results for
sensors already analysed), runs only the missing tool calls as one parallel batch (one call per
asset), retries a failed call once with corrected arguments, and summarises the tool's result file
with pure functions into a compact artifact.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from artifacts.matching import CoverageQuery, covers
from artifacts.model import Artifact
from graph.types import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.timeseries.anomaly import summarise_anomalies
from specialists.timeseries.forecast import (
    MODEL_SHAPES,
    HorizonPlan,
    forecast_frames,
    plan_horizon,
    requested_steps,
    summarise_forecast,
)
from specialists.timeseries.frames import full_name, sample_minutes
from specialists.timeseries.results import build_artifact, needs_data, result_status, tool_errors
from specialists.timeseries.telemetry_source import (
    Telemetry,
    dataset_path,
    gather_telemetry,
    history_follow_up,
)
from specialists.timeseries.tsfm_retry import needs_longer_window, run_tsfm

DEFAULT_AD_SENSORS = ("Power Input", "Chiller Efficiency")
DEFAULT_FORECAST_SENSORS = ("Power Input", "Tonnage")
ANOMALY_KIND = "anomaly_detection"  # artifact kind = the action name (planner convention)


async def capabilities(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """The AI tasks and TSFM models available (one parallel batch of the two catalogue tools)."""
    earlier = next((a for a in ctx.visible_artifacts if a.kind == "capabilities"), None)
    if earlier is not None:
        return SpecialistResult(
            "timeseries", task.action, "ok", earlier.summary, reused_artifact_ids=[earlier.id]
        )
    outcomes = await ctx.tools.run(
        [("tsfm.get_ai_tasks", {}), ("tsfm.get_tsfm_models", {})], specialist="timeseries"
    )
    tasks = outcomes[0].output.get("tasks", []) if outcomes[0].ok else []
    models = outcomes[1].output.get("models", []) if outcomes[1].ok else []
    if not tasks and not models:
        return SpecialistResult(
            "timeseries",
            task.action,
            "failed",
            "The TSFM catalogue tools failed.",
            errors=tool_errors(outcomes),
        )
    summary = (
        f"Time-series tasks: {', '.join(t.get('task_description', t.get('task_id', '')) for t in tasks)}. "
        f"Models: {', '.join(m.get('model_id', '') for m in models)}."
    )
    artifact = build_artifact(
        ctx,
        "timeseries",
        "capabilities",
        asset_ids=task.asset_ids,
        window=None,
        sensors=[],
        summary=summary,
        results={"tasks": tasks, "models": models},
        calls=outcomes,
        observations=[f"{m.get('model_id')}: {m.get('model_description', '')}" for m in models],
    )
    await ctx.store.put(artifact)
    return SpecialistResult(
        "timeseries",
        task.action,
        "ok" if tasks and models else "partial",
        summary,
        artifact_ids=[artifact.id],
        errors=tool_errors(outcomes),
    )


def _prior_anomalies(
    artifacts: list[Artifact], ctx: SpecialistContext, telemetry: Telemetry
) -> dict[str, dict[str, Any]]:
    """Per-sensor anomaly results already computed in this session for this asset over this window."""
    query = CoverageQuery(
        session_id=ctx.session_id,
        asset_id=telemetry.asset_id,
        start=telemetry.window.start,
        end=telemetry.window.end,
        kinds=frozenset({ANOMALY_KIND}),
    )
    known: dict[str, dict[str, Any]] = {}
    for artifact in artifacts:
        same_window = (
            artifact.window_start == telemetry.window.start and artifact.window_end == telemetry.window.end
        )
        if covers(artifact, query) and same_window:
            known.update(artifact.results.get("per_sensor", {}))
    return known


def _anomaly_line(asset_id: str, item: dict[str, Any]) -> str:
    line = (
        f"{item['sensor']}: {item['anomalies']} anomalies in {item['records']} records "
        f"({100 * item['rate']:.1f}%), {item['periods_total']} periods"
    )
    if item.get("periods"):
        top = item["periods"][0]
        line += f"; strongest {top['start']} to {top['end']} ({top['direction']} bounds, score {top['peak_score']:.2f})"
    return line if item["sensor"].startswith(asset_id) else f"{asset_id} {line}"


def _read_tsad(path: str) -> list[dict[str, Any]]:
    return [s.as_dict() for s in summarise_anomalies(pd.read_csv(path))]


async def anomaly_detection(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """run_integrated_tsad on the telemetry window for the sensors not analysed yet; periods per sensor."""
    found, follow_ups = await gather_telemetry(ctx, task, why="anomaly detection")
    if not found:
        return needs_data("timeseries", task, follow_ups)
    session_artifacts = ctx.visible_artifacts + await ctx.store.list_session(ctx.session_id)
    plans: list[tuple[Telemetry, list[str], dict[str, dict[str, Any]]]] = []
    for telemetry in found:
        wanted = [full_name(s, telemetry.asset_id) for s in (task.sensors or DEFAULT_AD_SENSORS)]
        known = _prior_anomalies(session_artifacts, ctx, telemetry)
        plans.append(
            (telemetry, [s for s in wanted if s not in known], {s: known[s] for s in wanted if s in known})
        )
    calls = [
        (
            "tsfm.run_integrated_tsad",
            {
                "dataset_path": await dataset_path(t),
                "timestamp_column": "timestamp",
                "target_columns": missing,
            },
        )
        for t, missing, _ in plans
        if missing
    ]
    outcomes, first_attempts = await run_tsfm(ctx.tools, calls) if calls else ([], [])
    artifacts, errors, more_follow_ups = [], tool_errors(outcomes), []
    outcome_iter = iter(outcomes)
    for telemetry, missing, reused in plans:
        outcome = next(outcome_iter) if missing else None
        per_sensor = dict(reused)
        if outcome is not None and outcome.ok:
            for item in await asyncio.to_thread(_read_tsad, str(outcome.output["results_file"])):
                per_sensor[item["sensor"]] = item
        elif outcome is not None and needs_longer_window(outcome.error or ""):
            longer = TimeWindow(telemetry.window.start - timedelta(days=2), telemetry.window.end, "")
            more_follow_ups.append(
                history_follow_up([telemetry.asset_id], longer, task.sensors, "anomaly detection context")
            )
        if per_sensor:
            artifacts.append(_anomaly_artifact(ctx, telemetry, per_sensor, reused, outcome, first_attempts))
    for artifact in artifacts:
        await ctx.store.put(artifact)
    status = result_status(produced=bool(artifacts), complete=not errors and not follow_ups)
    summary = " ".join(a.summary for a in artifacts) or "No anomaly results: " + "; ".join(errors)
    return SpecialistResult(
        "timeseries",
        task.action,
        status,
        summary,
        artifact_ids=[a.id for a in artifacts],
        reused_artifact_ids=[t.artifact.id for t in found],
        errors=errors,
        follow_ups=follow_ups + more_follow_ups,
    )


def _anomaly_artifact(
    ctx: SpecialistContext,
    telemetry: Telemetry,
    per_sensor: dict[str, dict[str, Any]],
    reused: dict[str, dict[str, Any]],
    outcome: ToolOutcome | None,
    first_attempts: list[ToolOutcome],
) -> Artifact:
    lines = [_anomaly_line(telemetry.asset_id, item) for item in per_sensor.values()]
    worst = max(per_sensor.values(), key=lambda item: item["rate"])
    summary = (
        f"{telemetry.asset_id}: anomaly rate {100 * worst['rate']:.1f}% on {worst['sensor']} "
        f"({worst['periods_total']} periods)"
        + (f"; reused results for {len(reused)} sensor(s)" if reused else "")
        + "."
    )
    calls = [c for c in [*first_attempts, outcome] if c is not None and c.args.get("dataset_path")]
    return build_artifact(
        ctx,
        "timeseries",
        ANOMALY_KIND,
        asset_ids=[telemetry.asset_id],
        window=telemetry.window,
        sensors=list(per_sensor),
        summary=summary,
        observations=lines,
        calls=calls,
        results={
            "per_sensor": per_sensor,
            "anomaly_rate": worst["rate"],  # the highest per-sensor rate (read by prioritisation)
            "source": telemetry.artifact.id,
            "reused_sensors": sorted(reused),
        },
        data_ref=str(outcome.output["results_file"]) if outcome is not None and outcome.ok else None,
    )


def _read_json(path: str) -> dict[str, Any]:
    return json.loads(Path(path).read_text())


async def forecast(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """run_tsfm_forecasting after each asset's window (assets in parallel), with an honest horizon."""
    found, follow_ups = await gather_telemetry(ctx, task, why="forecasting")
    if not found:
        return needs_data("timeseries", task, follow_ups)
    calls, plans = [], []
    for telemetry in found:
        minutes = sample_minutes(telemetry.frame)
        plan = plan_horizon(
            requested_steps(task.params, minutes),
            len(telemetry.frame),
            minutes,
            task.params.get("model_checkpoint"),
        )
        context = MODEL_SHAPES.get(plan.model_checkpoint, (512, 96))[0]
        targets = [full_name(s, telemetry.asset_id) for s in (task.sensors or DEFAULT_FORECAST_SENSORS)]
        calls.append(
            (
                "tsfm.run_tsfm_forecasting",
                {
                    "dataset_path": await dataset_path(telemetry, tail_rows=2 * context),
                    "timestamp_column": "timestamp",
                    "target_columns": targets,
                    "model_checkpoint": plan.model_checkpoint,
                    "forecast_horizon": plan.forecast_steps,
                    "autoregressive_modeling": True,
                },
            )
        )
        plans.append((telemetry, plan))
    outcomes, first_attempts = await run_tsfm(ctx.tools, calls)
    artifacts = []
    for (telemetry, plan), outcome in zip(plans, outcomes, strict=True):
        if outcome.ok:
            payload = await asyncio.to_thread(_read_json, str(outcome.output["results_file"]))
            windows = forecast_frames(payload)
            if windows:
                artifacts.append(
                    _forecast_artifact(
                        ctx,
                        telemetry,
                        _coverage_note(plan, windows[-1]),
                        windows[-1],
                        outcome,
                        first_attempts,
                    )
                )
    for artifact in artifacts:
        await ctx.store.put(artifact)
    errors = tool_errors(outcomes)
    status = result_status(produced=bool(artifacts), complete=len(artifacts) == len(found) and not follow_ups)
    summary = " ".join(a.summary for a in artifacts) or "No forecast: " + "; ".join(errors)
    return SpecialistResult(
        "timeseries",
        task.action,
        status,
        summary,
        artifact_ids=[a.id for a in artifacts],
        reused_artifact_ids=[t.artifact.id for t in found],
        errors=errors,
        follow_ups=follow_ups,
    )


def _coverage_note(plan: HorizonPlan, window: pd.DataFrame) -> str:
    """The plan's note, corrected when the tool returned a shorter forecast than planned."""
    returned = len(window)
    if returned >= plan.forecast_steps:
        return plan.note
    hours = returned * plan.minutes_per_step / 60.0
    return (
        f"{plan.note} For this asset the tool returned only {returned} steps ({hours:.1f} h): "
        "its last continuous stretch of data limits the rollout."
    )


def _forecast_artifact(
    ctx: SpecialistContext,
    telemetry: Telemetry,
    note: str,
    window: pd.DataFrame,
    outcome: ToolOutcome,
    first_attempts: list[ToolOutcome],
) -> Artifact:
    per_target = summarise_forecast(window)
    lines = [
        f"{target}: {s['direction']} from {s['first']} to {s['last']} (range {s['min']}-{s['max']}) "
        f"between {s['from']} and {s['to']}"
        for target, s in per_target.items()
    ]
    horizon = TimeWindow(window.index[0].to_pydatetime(), window.index[-1].to_pydatetime(), "forecast")
    checkpoint = outcome.args.get("model_checkpoint")
    return build_artifact(
        ctx,
        "timeseries",
        "forecast",
        asset_ids=[telemetry.asset_id],
        window=horizon,
        sensors=list(per_target),
        summary=f"{telemetry.asset_id}: {note} " + "; ".join(lines[:2]),
        observations=lines,
        calls=[*first_attempts, outcome],
        results={
            "per_target": per_target,
            "model_checkpoint": checkpoint,
            "history_window": telemetry.window.to_dict(),
            "source": telemetry.artifact.id,
        },
        data_ref=str(outcome.output["results_file"]),
        assumptions=[note],
    )
