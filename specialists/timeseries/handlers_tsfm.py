"""Timeseries actions backed by the TSFM tools: capabilities and forecast (anomaly_detection lives
in handlers_anomaly).

Each handler reuses what the session already has (the capabilities artifact), runs only the missing
tool calls as one parallel batch (one call per asset), retries a failed call with corrected
arguments, and summarises the tool's result file with pure functions into a compact artifact.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pandas as pd

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.common.frames import full_name, sample_minutes
from specialists.common.results import build_artifact, no_telemetry, result_status, tool_errors
from specialists.common.telemetry_source import (
    Telemetry,
    forecast_dataset_path,
    gather_telemetry,
)
from specialists.timeseries.forecast import (
    MODEL_SHAPES,
    HorizonPlan,
    forecast_frames,
    forecast_line,
    plan_horizon,
    requested_steps,
    summarise_forecast,
)
from specialists.timeseries.tsfm_retry import run_tsfm

DEFAULT_FORECAST_SENSORS = ("Power Input", "Tonnage")


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


def _read_json(path: str) -> dict[str, Any]:
    return json.loads(Path(path).read_text())


async def forecast(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """run_tsfm_forecasting after each asset's window (assets in parallel), with an honest horizon."""
    found, missing = await gather_telemetry(ctx, task, why="forecasting")
    if not found:
        return no_telemetry("timeseries", task, missing)
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
                    "dataset_path": await forecast_dataset_path(telemetry, tail_rows=2 * context),
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
    errors = [*missing, *tool_errors(outcomes)]
    status = result_status(produced=bool(artifacts), complete=len(artifacts) == len(found) and not missing)
    summary = " ".join(a.summary for a in artifacts) or "No forecast: " + "; ".join(errors)
    return SpecialistResult(
        "timeseries",
        task.action,
        status,
        summary,
        artifact_ids=[a.id for a in artifacts],
        reused_artifact_ids=[t.artifact.id for t in found],
        errors=errors,
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


def _local(iso: str) -> str:
    """'2021-07-01T00:15:00-04:00' -> '2021-07-01 00:15' (the zone is stated once, as site time)."""
    return iso[:16].replace("T", " ")


def _forecast_artifact(
    ctx: SpecialistContext,
    telemetry: Telemetry,
    note: str,
    window: pd.DataFrame,
    outcome: ToolOutcome,
    first_attempts: list[ToolOutcome],
) -> Artifact:
    site_tz = telemetry.window.end.tzinfo
    per_target = summarise_forecast(window, tz=site_tz)
    lines = [
        forecast_line(target, s, f"between {_local(s['from'])} and {_local(s['to'])} site time")
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
