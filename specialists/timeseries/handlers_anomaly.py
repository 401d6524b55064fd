"""The anomaly_detection action: run_integrated_tsad over the analysed window of each asset.

Reuses per-sensor results the session already has for the same asset and window, runs only the
missing sensors (one call per asset, assets in one parallel batch), with the load (and setpoint) as
conditional columns so slow faults show as a shifted relation. Long windows are cut to their last
weeks and short ones widened to a week (analysis_window); a call that failed this turn is never
repeated with the same arguments (tsfm_retry).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from artifacts.matching import CoverageQuery, covers
from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.common.frames import full_name, running_mask, short_name, spoken_name
from specialists.common.results import build_artifact, no_telemetry, result_status, tool_errors
from specialists.common.telemetry_source import (
    Telemetry,
    dataset_path,
    gather_telemetry,
    obtain_telemetry,
)
from specialists.timeseries.analysis_window import anomaly_analysis_window, longer_analysis_window
from specialists.timeseries.anomaly import summarise_anomalies
from specialists.timeseries.drivers import DEFAULT_CALIBRATION, calibration_share, conditional_drivers
from specialists.timeseries.tsfm_retry import more_data_would_help, run_tsfm

DEFAULT_AD_SENSORS = ("Power Input", "Chiller Efficiency")
ANOMALY_KIND = "anomaly_detection"  # artifact kind = the action name (planner convention)


# Set-points and run flags are commands, and the load is the driver every other sensor is
# conditioned on: none of them is a fault signal to run anomaly detection on.
COMMAND_SIGNALS = frozenset({"Setpoint Temperature", "Run Status", "Schedule", "Chiller % Loaded"})


def _targets(sensors: Sequence[str], asset_id: str) -> list[str]:
    """The sensors anomaly detection analyses: the command signals (setpoint, load) drive, they are no target."""
    return [full_name(s, asset_id) for s in sensors if short_name(s, asset_id) not in COMMAND_SIGNALS]


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


async def _analysed_telemetry(
    ctx: SpecialistContext, task: SpecialistTask
) -> tuple[list[tuple[Telemetry, str | None]], list[str]]:
    """Per asset the telemetry of the window anomaly detection analyses (capped or widened, with the
    note saying so; fetched now when the session does not hold it), and what could not be had."""
    found, problems = await gather_telemetry(ctx, task, why="anomaly detection")
    chosen: list[tuple[Telemetry, str | None]] = []
    for telemetry in found:
        plan = anomaly_analysis_window(telemetry.window)
        if not plan.changed:
            chosen.append((telemetry, None))
            continue
        analysed, problem = await obtain_telemetry(ctx, "timeseries", telemetry.asset_id, plan.window, task.sensors,
                                                   why="anomaly detection context")
        # Without the widened days the asked window is analysed as it is (the tool says if it is too short).
        chosen.append((analysed, plan.note) if analysed is not None else (telemetry, None))
        problems += [problem] if problem else []
    return chosen, problems


@dataclass
class _Run:
    """One asset's anomaly detection: the telemetry analysed, why it differs from the asked window,
    the sensors to run, the results reused, and the final call (None when everything was reused)."""

    telemetry: Telemetry
    note: str | None
    missing: list[str]
    reused: dict[str, dict[str, Any]]
    outcome: ToolOutcome | None = None


async def anomaly_detection(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """run_integrated_tsad on the telemetry window for the sensors not analysed yet; periods per sensor.

    Long windows are cut to their last MAX_ANALYSIS_DAYS and short ones widened to a week (see
    analysis_window); a call that failed this turn is never repeated with the same arguments. A
    window the model cannot calibrate on is analysed again over a longer one before the same end.
    """
    chosen, problems = await _analysed_telemetry(ctx, task)
    if not chosen:
        return no_telemetry("timeseries", task, problems)
    session_artifacts = ctx.visible_artifacts + await ctx.store.list_session(ctx.session_id)
    runs: list[_Run] = []
    for telemetry, note in chosen:
        wanted = _targets(task.sensors or DEFAULT_AD_SENSORS, telemetry.asset_id) \
            or _targets(DEFAULT_AD_SENSORS, telemetry.asset_id)  # "can they carry the load?": the load drives,
        # the readings that answer to it are what is analysed
        known = _prior_anomalies(session_artifacts, ctx, telemetry)
        runs.append(_Run(telemetry, note, [s for s in wanted if s not in known], {s: known[s] for s in wanted if s in known}))
    todo = [run for run in runs if run.missing]
    calls = [("tsfm.run_integrated_tsad", await _tsad_args(run.telemetry, run.missing)) for run in todo]
    # Two corrected retries: driver-model calibration may need a larger share, then no drivers.
    outcomes, first_attempts = await run_tsfm(ctx.tools, calls, retries=2) if calls else ([], [])
    for run, outcome in zip(todo, outcomes, strict=True):
        run.outcome = outcome
    first_attempts += await _on_longer_windows(ctx, task, todo)
    artifacts, unusable = [], []
    for run in runs:
        per_sensor = dict(run.reused)
        if run.outcome is not None and run.outcome.ok:
            for item in await asyncio.to_thread(_read_tsad, str(run.outcome.output["results_file"])):
                per_sensor[item["sensor"]] = item
        elif run.outcome is not None and more_data_would_help(run.outcome.error or ""):
            unusable.append(run.telemetry.asset_id)
        if per_sensor:
            artifacts.append(_anomaly_artifact(ctx, run.telemetry, per_sensor, run.reused, run.outcome,
                                               first_attempts, run.note))
    for artifact in artifacts:
        await ctx.store.put(artifact)
    errors = [*problems, *tool_errors([run.outcome for run in todo if run.outcome is not None])]
    return _anomaly_result(task, artifacts, [run.telemetry for run in runs], errors, unusable)


async def _on_longer_windows(ctx: SpecialistContext, task: SpecialistTask, todo: list[_Run]) -> list[ToolOutcome]:
    """Runs that failed for want of data, analysed again over a longer window before the same end (one
    parallel batch, with the same corrected retries); a success replaces the run's telemetry, call and
    note. Returns the failed calls the successes replace (provenance)."""
    retried: list[tuple[_Run, Telemetry, str]] = []
    for run in todo:
        error = run.outcome.error if run.outcome is not None and not run.outcome.ok else None
        longer = longer_analysis_window(run.telemetry.window, _reason(error)) if error and more_data_would_help(
            error) else None
        if longer is None:
            continue
        telemetry, _ = await obtain_telemetry(ctx, "timeseries", run.telemetry.asset_id, longer.window, task.sensors,
                                              why="anomaly detection over a longer window")
        if telemetry is not None and longer.note is not None:
            retried.append((run, telemetry, longer.note))
    if not retried:
        return []
    calls = [("tsfm.run_integrated_tsad", await _tsad_args(telemetry, run.missing)) for run, telemetry, _ in retried]
    outcomes, first_attempts = await run_tsfm(ctx.tools, calls, retries=2)
    replaced: list[ToolOutcome] = []
    for (run, telemetry, note), outcome in zip(retried, outcomes, strict=True):
        if outcome.ok and run.outcome is not None:
            replaced.append(run.outcome)
            run.telemetry, run.note, run.outcome = telemetry, note, outcome
    return [*replaced, *first_attempts]


def _reason(error: str | None) -> str:
    """The tool's reason in a few words: the first per-column reason of a 'No TSAD results' error."""
    text = (error or "").removeprefix("No TSAD results produced for any target column.").strip()
    return text.split(". ")[0].split("; ")[0][:160]


def _anomaly_result(
    task: SpecialistTask,
    artifacts: list[Artifact],
    analysed: list[Telemetry],
    errors: list[str],
    unusable: list[str],
) -> SpecialistResult:
    """ok / partial / failed. Data too short or gappy for the model, even over a longer window, is
    reported as partial, not failed: the analyses that depend on it (a diagnosis) can go on with trend
    and shift evidence, and retrying the same data cannot help."""
    produced = bool(artifacts)
    status = result_status(produced=produced, complete=not errors)
    summary = " ".join(a.summary for a in artifacts) or "No anomaly results: " + "; ".join(errors)
    if unusable and len(unusable) + len(artifacts) >= len(analysed):
        status = "partial"
        summary += (
            f" Anomaly detection could not run on {', '.join(unusable)}: the data has no continuous "
            "stretch as long as the model's context; conclusions rest on trend and shift statistics instead."
        )
    return SpecialistResult(
        "timeseries",
        task.action,
        status,
        summary,
        artifact_ids=[a.id for a in artifacts],
        reused_artifact_ids=list(dict.fromkeys(t.artifact.id for t in analysed)),
        errors=errors,
    )


async def _tsad_args(telemetry: Telemetry, targets: list[str]) -> dict[str, Any]:
    """Arguments of run_integrated_tsad over exactly the analysed window, with the load (and setpoint)
    as conditional columns so a slowly shifting relation is flagged (see drivers.py)."""
    args: dict[str, Any] = {
        "dataset_path": await dataset_path(telemetry),
        "timestamp_column": "timestamp",
        "target_columns": targets,
    }
    reported = [c for c in telemetry.frame.columns if telemetry.frame[c].notna().any()]
    drivers = conditional_drivers([short_name(t, telemetry.asset_id) for t in targets], reported)
    share = calibration_share(running_mask(telemetry.frame).tolist()) if drivers else None
    if drivers and share is not None:
        args["conditional_columns"] = [full_name(d, telemetry.asset_id) for d in drivers]
        if share != DEFAULT_CALIBRATION:  # the window starts idle: calibrate on more of it
            args["n_calibration"] = share
    return args


def _shift_size(shift: dict[str, Any]) -> float:
    """Sort key of a sustained shift: its size relative to the expected value, largest first."""
    relative = shift.get("relative_shift_pct")
    return -abs(float(relative)) if isinstance(relative, (int, float)) else 0.0


def _anomaly_artifact(
    ctx: SpecialistContext,
    telemetry: Telemetry,
    per_sensor: dict[str, dict[str, Any]],
    reused: dict[str, dict[str, Any]],
    outcome: ToolOutcome | None,
    first_attempts: list[ToolOutcome],
    note: str | None = None,
) -> Artifact:
    lines = [_anomaly_line(telemetry.asset_id, item) for item in per_sensor.values()]
    # Load-conditioned targets also report sustained shifts of their relation (slow faults).
    sustained = sorted(
        list(outcome.output.get("sustained_anomalies") or []) if outcome is not None and outcome.ok else [],
        key=_shift_size,  # the largest departure leads: a -0.2% tonnage wobble is no onset beside a -30% flow step
    )
    lines += [str(shift.get("message", "")) for shift in sustained if shift.get("message")]
    worst = max(per_sensor.values(), key=lambda item: item["rate"])
    conditional = bool(outcome is not None and outcome.args.get("conditional_columns"))
    # With drivers, a flag means "off its expected relation to load", which reads differently from a
    # forecast miss; a sustained shift, when found, is the finding and leads.
    spoken = spoken_name(worst["sensor"], telemetry.asset_id)  # "Chiller 6 efficiency", the asset once
    headline = (
        f"{spoken} was off its expected relation to load on {100 * worst['rate']:.1f}% of running samples"
        if conditional else f"{telemetry.asset_id}: anomaly rate {100 * worst['rate']:.1f}% on {worst['sensor']}"
    )
    summary = (
        (f"{sustained[0]['message']} " if sustained and sustained[0].get("message") else "")
        + f"{headline} ({worst['periods_total']} periods)"
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
            "sustained_shifts": sustained,
            "conditional_columns": (outcome.args.get("conditional_columns") if outcome is not None else None),
        },
        data_ref=str(outcome.output["results_file"]) if outcome is not None and outcome.ok else None,
        assumptions=[note] if note else [],
    )
