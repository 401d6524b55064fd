"""Timeseries actions that tune and score forecasters: finetune, evaluate_forecast.

finetune: run_tsfm_finetuning on the window and, in the same parallel batch, a zero-shot forecast of
the held-out tail; then a forecast of that tail with the tuned checkpoint. "Before" and "after" are
the MAE/MAPE/bias of those two forecasts against the same actuals, so they compare like with like.
evaluate_forecast: forecasts of the evaluation window (plus the model context before it) with the
given or tuned checkpoint and with the zero-shot model, in one batch, scored against the actuals.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.common.frames import full_name, short_name
from specialists.common.results import build_artifact, no_telemetry, tool_errors
from specialists.common.telemetry_source import (
    Telemetry,
    dataset_path,
    find_telemetry,
    gather_telemetry,
    load_telemetry,
    obtain_telemetry,
    task_assets,
)
from specialists.timeseries.forecast import DEFAULT_MODEL, ForecastError, forecast_errors, forecast_frames
from specialists.timeseries.tsfm_retry import run_tsfm

DEFAULT_TARGETS = ("Tonnage",)
HOLDOUT_ROWS = 288  # three days at 15 minutes: the tail both models forecast for the before/after scores
CONTEXT_ROWS = 520  # enough history before an evaluation window for either pretrained context (96 / 512)


def _read_forecast(path: str) -> list[pd.DataFrame]:
    return forecast_frames(json.loads(Path(path).read_text()))


def _score_lines(label: str, errors: list[ForecastError]) -> list[str]:
    return [
        f"{label} {e.target}: MAE {e.mae:.3f}, MAPE {e.mape_pct if e.mape_pct is None else round(e.mape_pct, 1)}%, "
        f"bias {e.bias:+.3f} over {e.pairs} points"
        for e in errors
    ]


async def _scores(outcome: ToolOutcome, actuals: pd.DataFrame) -> list[ForecastError]:
    if not outcome.ok:
        return []
    windows = await asyncio.to_thread(_read_forecast, str(outcome.output["results_file"]))
    return forecast_errors(windows, actuals)


def _forecast_call(path: str, targets: list[str], checkpoint: str | None) -> tuple[str, dict[str, Any]]:
    args: dict[str, Any] = {"dataset_path": path, "timestamp_column": "timestamp", "target_columns": targets}
    if checkpoint:
        args["model_checkpoint"] = checkpoint
    return "tsfm.run_tsfm_forecasting", args


def _actuals(telemetry: Telemetry, targets: list[str], start: pd.Timestamp | None = None) -> pd.DataFrame:
    frame = telemetry.frame if start is None else telemetry.frame[telemetry.frame.index >= start]
    columns = {short_name(t, telemetry.asset_id): t for t in targets}
    return frame[[c for c in columns if c in frame.columns]].rename(columns=columns)


async def finetune(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Fine-tune a forecaster on each asset's window; report before/after scores and the checkpoint."""
    found, missing = await gather_telemetry(ctx, task, why="fine-tuning")
    if not found:
        return no_telemetry("timeseries", task, missing)
    telemetry = found[0]  # one model per task: the first asset (the planner sends one asset per finetune)
    targets = [full_name(s, telemetry.asset_id) for s in (task.sensors or DEFAULT_TARGETS)]
    idle = idle_note(_actuals(telemetry, targets), "window")
    if "off the whole" in idle:
        return await _idle_window(task, ctx, telemetry, idle)
    full_path = await dataset_path(telemetry)
    tail_path = await dataset_path(telemetry, tail_rows=HOLDOUT_ROWS + 96)
    n_rows = max(len(telemetry.frame), 1)
    save_dir = f"tuned_models/{telemetry.asset_id.replace(' ', '_')}_{telemetry.window.start:%Y%m%d}_{telemetry.window.end:%Y%m%d}"
    tune_args = {
        "dataset_path": full_path,
        "timestamp_column": "timestamp",
        "target_columns": targets,
        "save_model_dir": save_dir,
        "n_test": round(max(0.05, min(0.3, HOLDOUT_ROWS / n_rows)), 4),
        "n_finetune": float(task.params.get("n_finetune", 0.5)),
    }
    # Two corrected retries: a year of a cycling chiller can need a larger test share first and
    # then a smaller one (the errors say which way to go).
    (tuned, zero_shot), first = await run_tsfm(
        ctx.tools,
        [("tsfm.run_tsfm_finetuning", tune_args), _forecast_call(tail_path, targets, DEFAULT_MODEL)],
        retries=2,
    )
    if not tuned.ok:
        return SpecialistResult(
            "timeseries",
            task.action,
            "failed",
            f"Fine-tuning failed: {tuned.error}",
            errors=tool_errors([tuned]),
            reused_artifact_ids=[telemetry.artifact.id],
        )
    checkpoint = str(tuned.output["model_checkpoint"])
    (after_run,), more = await run_tsfm(ctx.tools, [_forecast_call(tail_path, targets, checkpoint)])
    holdout_start = telemetry.frame.index[-HOLDOUT_ROWS] if len(telemetry.frame) > HOLDOUT_ROWS else None
    actuals = _actuals(telemetry, targets, holdout_start)
    before, after = await _scores(zero_shot, actuals), await _scores(after_run, actuals)
    lines = [
        f"Checkpoint saved: {checkpoint}",
        *_score_lines("zero-shot", before),
        *_score_lines("fine-tuned", after),
    ]
    summary = (
        f"{telemetry.asset_id}: fine-tuned on {telemetry.window.start:%Y-%m-%d}..{telemetry.window.end:%Y-%m-%d}; "
        + (
            f"MAE {before[0].mae:.2f} -> {after[0].mae:.2f} on the held-out tail."
            if before and after
            else "held-out comparison unavailable."
        )
        + (idle_note(actuals, "held-out tail") if before and after else "")
        + _test_period_note(tuned.output)
        + _settings_note(first, tuned)
    )
    artifact = build_artifact(
        ctx,
        "timeseries",
        "finetune",
        asset_ids=[telemetry.asset_id],
        window=telemetry.window,
        sensors=targets,
        summary=summary,
        observations=lines,
        calls=[*first, tuned, zero_shot, *more, after_run],
        results={
            "model_checkpoint": checkpoint,
            "checkpoint": checkpoint,  # the key the planner reads
            "before": [e.as_dict() for e in before],
            "after": [e.as_dict() for e in after],
            "metrics_file": tuned.output.get("results_file"),
            "source": telemetry.artifact.id,
        },
        assumptions=[f"Before/after scored on the last {HOLDOUT_ROWS} samples of the window."],
    )
    await ctx.store.put(artifact)
    return SpecialistResult(
        "timeseries",
        task.action,
        "ok" if after else "partial",
        summary,
        artifact_ids=[artifact.id],
        reused_artifact_ids=[telemetry.artifact.id],
        errors=tool_errors([zero_shot, after_run]),
    )


async def _idle_window(
    task: SpecialistTask, ctx: SpecialistContext, telemetry: Telemetry, idle: str
) -> SpecialistResult:
    """A window where the chiller never ran holds nothing to learn. When the session already has a
    tuned model for the asset, the useful answer is how that model does on this window: score it."""
    what = f"{telemetry.asset_id} {telemetry.window.start:%Y-%m-%d}..{telemetry.window.end:%Y-%m-%d}"
    if _tuned_checkpoint(ctx, telemetry.asset_id) is None or task.window is None:
        return SpecialistResult(
            "timeseries",
            task.action,
            "failed",
            f"Not fine-tuned on {what}:{idle.replace('so the score says nothing about the model', 'nothing to learn from')}",
            errors=[f"{what}: the chiller was off the whole window"],
            reused_artifact_ids=[telemetry.artifact.id],
        )
    scored = await evaluate_forecast(replace(task, action="evaluate_forecast"), ctx)
    note = f"Scored the session's tuned model on {what} instead of fine-tuning on it (the chiller never ran there)."
    return replace(scored, action=task.action, summary=f"{note} {scored.summary}")


def _test_period_note(output: dict[str, Any]) -> str:
    """The tool's own before/after on its test period (the last part of every data segment, so it
    also covers the months the chiller ran when the window's tail was idle)."""
    before, after = output.get("metrics_before") or {}, output.get("metrics_after") or {}
    if "mae" not in before or "mae" not in after:
        return ""
    windows = after.get("windows")
    return (
        f" On the tool's test period ({windows} forecast windows across the window's data segments): "
        f"MAE {float(before['mae']):.2f} zero-shot -> {float(after['mae']):.2f} fine-tuned."
    )


def _settings_note(first_attempts: list[ToolOutcome], tuned: ToolOutcome) -> str:
    """Say which setting the retry changed when the first fine-tuning attempt failed."""
    failed = next((o for o in first_attempts if o.name == tuned.name), None)
    if failed is None:
        return ""
    changed = [f"{k} {failed.args.get(k)} -> {v}" for k, v in tuned.args.items() if failed.args.get(k) != v]
    return f" The first attempt failed ({(failed.error or '')[:120]}); retried with {', '.join(changed)}."


def _tuned_checkpoint(ctx: SpecialistContext, asset_id: str) -> str | None:
    tuned = [a for a in ctx.visible_artifacts if a.kind == "finetune" and asset_id in a.asset_ids]
    return str(max(tuned, key=lambda a: a.created_at).results["model_checkpoint"]) if tuned else None


async def _evaluation_telemetry(
    ctx: SpecialistContext, asset_id: str, window: TimeWindow, targets: list[str]
) -> tuple[Telemetry | None, list[str]]:
    """The window plus model context before it when the session has that, else the window alone
    (its first samples then serve as context); neither held: the window with context, fetched now.
    None (and why) when it cannot be had."""
    with_context = TimeWindow(
        window.start - pd.Timedelta(minutes=15 * CONTEXT_ROWS), window.end, "with context"
    )
    for wanted, notes in (
        (with_context, []),
        (window, ["The window's first samples served as model context."]),
    ):
        artifact = await find_telemetry(ctx, asset_id, wanted, targets)
        if artifact is not None:
            return await load_telemetry(artifact, asset_id, wanted), notes
    telemetry, error = await obtain_telemetry(ctx, "timeseries", asset_id, with_context, targets,
                                              why="forecast evaluation")
    return telemetry, [] if telemetry is not None else [error or f"no telemetry of {asset_id}"]


def _running_means(actuals: pd.DataFrame) -> dict[str, float]:
    """Each target's mean over the samples it was non-zero (running): what an error is measured against."""
    means = {}
    for column in actuals.columns:
        running = actuals[column][actuals[column].abs() > 1e-6]
        if len(running):
            means[str(column)] = round(float(running.mean()), 4)
    return means


def _evaluation_summary(
    asset_id: str, window: TimeWindow, scored: list[tuple[Any, list[ForecastError]]], actuals: pd.DataFrame
) -> str:
    head = scored[0]
    summary = (
        f"{asset_id} {window.start:%Y-%m-%d}..{window.end:%Y-%m-%d} with {head[0]}: "
        + (f"MAE {head[1][0].mae:.3f}, bias {head[1][0].bias:+.3f}" if head[1] else "no score")
        + (f" (zero-shot MAE {scored[1][1][0].mae:.3f})" if len(scored) > 1 and scored[1][1] else "")
        + "."
    )
    return summary + idle_note(actuals, "window")


def idle_note(actuals: pd.DataFrame, what: str) -> str:
    """What to say when the scored actuals are (nearly) all zero: an idle chiller is trivially easy
    to forecast, so a tiny error says nothing about the model."""
    running = float((actuals.abs() > 1e-6).any(axis=1).mean()) if len(actuals) else 0.0
    if running == 0.0:
        columns = ", ".join(str(c) for c in actuals.columns)
        return f" The chiller was off the whole {what} ({columns} 0 throughout), so the score says nothing about the model."
    if running < 0.1:
        return f" The chiller ran only {running:.0%} of the {what}, so the score says little."
    return ""


async def evaluate_forecast(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Forecast the task window with a (tuned) checkpoint and the zero-shot model; score both against actuals."""
    assets = task_assets(task, ctx.catalog)
    if not assets or task.window is None:
        return SpecialistResult(
            "timeseries",
            task.action,
            "failed",
            "Which asset and which evaluation window?",
            errors=["evaluate_forecast needs an asset and a window"],
        )
    asset_id, window = assets[0], task.window
    checkpoint = (
        task.params.get("model_checkpoint")
        or task.params.get("checkpoint")
        or _tuned_checkpoint(ctx, asset_id)
    )
    targets = [full_name(s, asset_id) for s in (task.sensors or DEFAULT_TARGETS)]
    telemetry, notes = await _evaluation_telemetry(ctx, asset_id, window, targets)
    if telemetry is None:
        return no_telemetry("timeseries", task, notes)
    path = await dataset_path(telemetry)
    calls = [_forecast_call(path, targets, checkpoint)] if checkpoint else []
    outcomes, first = await run_tsfm(ctx.tools, [*calls, _forecast_call(path, targets, DEFAULT_MODEL)])
    actuals = _actuals(telemetry, targets, pd.Timestamp(window.start).tz_convert("UTC"))
    scored = [(o.args.get("model_checkpoint"), await _scores(o, actuals)) for o in outcomes]
    if not any(errors for _, errors in scored):
        return SpecialistResult(
            "timeseries",
            task.action,
            "failed",
            "No forecast could be scored: " + "; ".join(tool_errors(outcomes)),
            errors=tool_errors(outcomes),
        )
    summary = _evaluation_summary(asset_id, window, scored, actuals)
    result = build_artifact(
        ctx,
        "timeseries",
        "evaluate_forecast",
        asset_ids=[asset_id],
        window=window,
        sensors=targets,
        summary=summary,
        observations=[line for label, errors in scored for line in _score_lines(str(label), errors)],
        calls=[*first, *outcomes],
        results={str(label): [e.as_dict() for e in errors] for label, errors in scored}
        | {"source": telemetry.artifact.id, "model_checkpoint": checkpoint, "actual_means": _running_means(actuals)},
        assumptions=["Every forecast step whose timestamp has an actual counts (rolling origins).", *notes]
        + ([] if checkpoint else ["No tuned checkpoint in this session: zero-shot only."]),
    )
    await ctx.store.put(result)
    return SpecialistResult(
        "timeseries",
        task.action,
        "ok",
        summary,
        artifact_ids=[result.id],
        reused_artifact_ids=[telemetry.artifact.id],
        errors=tool_errors(outcomes),
    )
