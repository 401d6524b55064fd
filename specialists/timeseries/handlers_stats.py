"""Timeseries actions computed locally from telemetry artifacts: trend_stats, load_bins, threshold_suggestion.

No analysis tool calls: a telemetry window is the input (the session's, else fetched for the task,
see telemetry_source), pure functions do the work, and an artifact with compact numbers is the output.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pandas as pd

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult
from specialists.common.derived import EVAP_APPROACH, SUPPLY_OFFSET
from specialists.common.evidence import build_evidence
from specialists.common.frames import LOAD, full_name, running_mask, short_name
from specialists.common.results import build_artifact, no_telemetry, result_status
from specialists.common.telemetry_source import Telemetry, gather_telemetry
from specialists.common.trend import SensorTrend, trend_table
from specialists.common.validity import SUSPECT_Z, suspect_sensors
from specialists.common.windows import split_by_running
from specialists.timeseries.load_bins import load_bins
from specialists.timeseries.thresholds import signal_for_rule, suggest_thresholds

ALERT_KINDS = ("alert_rules", "alerts", "alert_summary")


def _columns(telemetry: Telemetry, sensors: list[str]) -> list[str]:
    wanted = [short_name(s, telemetry.asset_id) for s in sensors]
    return [c for c in telemetry.frame.columns if not wanted or c in wanted]


async def _stored_result(ctx: SpecialistContext, task: SpecialistTask, artifacts: list[Artifact],
                         found: list[Telemetry], missing: list[str],
                         errors: list[str] | None = None) -> SpecialistResult:
    """Store the artifacts and report them: the telemetry they rest on is reused, not refetched."""
    for artifact in artifacts:
        await ctx.store.put(artifact)
    errors = [*missing, *(errors or [])]
    return SpecialistResult(
        "timeseries",
        task.action,
        result_status(produced=bool(artifacts), complete=not errors),
        " ".join([a.summary for a in artifacts] + errors),
        artifact_ids=[a.id for a in artifacts],
        reused_artifact_ids=[t.artifact.id for t in found],
        errors=errors,
    )


def _moved_alone(telemetry: Telemetry) -> list[str]:
    """Temperatures that moved without their physically coupled sensors (likely sensor drift)."""
    frame = telemetry.frame
    running = frame.index[running_mask(frame).to_numpy()]
    start, end = pd.Timestamp(telemetry.window.start), pd.Timestamp(telemetry.window.end)
    windows = split_by_running(running, start, end)
    if windows is None:
        return []
    evidence = build_evidence(frame, telemetry.asset_id, baseline=windows[0], recent=windows[1])
    return [verdict.describe() for verdict in suspect_sensors(evidence, min_z=SUSPECT_Z)]


def _trend_line(asset_id: str, t: SensorTrend) -> str:
    line = f"{asset_id} {t.sensor}: {', '.join(t.flags)}"
    if t.drift is not None and t.drift_z is not None:
        line += f"; level change {t.drift:+.2f} at equal load (robust z {t.drift_z:+.1f})"
    if t.slope_per_day is not None:
        line += f"; slope {t.slope_per_day:+.3f}/day"
    line += f"; missing {t.missing_pct:.1f}%"
    return line + (f"; flat for {t.longest_flat_hours:.1f} h" if "stuck" in t.flags else "")


KEY_READINGS = ("Power Input", "Chiller Efficiency", "Supply Temperature", "Condenser Water Flow")


def _key_readings(trends: list[SensorTrend]) -> str:
    """One clause per key reading: its level change at equal load (last vs first quarter) and slope."""
    parts = [
        f"{t.sensor} {t.drift:+.2f} at equal load (z {t.drift_z:+.1f}), slope {t.slope_per_day:+.3f}/day"
        for t in trends
        if t.sensor in KEY_READINGS and None not in (t.drift, t.drift_z, t.slope_per_day)
    ]
    return f" Key readings over the window: {'; '.join(parts)}." if parts else ""


def _trend_artifact(
    ctx: SpecialistContext, telemetry: Telemetry, sensors: list[str], note: str | None = None
) -> Artifact:
    columns = _columns(telemetry, sensors)
    # the load decides which samples are running ones and what "at equal load" means: without it, off hours
    # (a refrigerant temperature drifting up to ambient) would read as a level change
    judged = [*columns, LOAD] if LOAD in telemetry.frame.columns and LOAD not in columns else columns
    trends = [t for t in trend_table(telemetry.frame[judged]) if t.sensor in columns]
    alone = _moved_alone(telemetry)
    broken = [t for t in trends if {"stuck", "missing_data"} & set(t.flags)]
    shifted = [t for t in trends if t.flags and t not in broken]
    summary = (
        f"{telemetry.asset_id} sensor health: stuck or missing: "
        + (", ".join(f"{t.sensor} [{'/'.join(t.flags)}]" for t in broken) or "none")
        + "; moved on its own (likely sensor drift): "
        + ("; ".join(alone) or "none")
        + "; level changes shared with coupled sensors (process or season, not a sensor fault): "
        + (", ".join(t.sensor for t in shifted) or "none")
        + "."
    )
    if note:  # "what led up to it": the key readings' movement, flagged or not
        summary += _key_readings(trends)
    observations = alone + [_trend_line(telemetry.asset_id, t) for t in broken + shifted]
    return build_artifact(
        ctx,
        "timeseries",
        "trend_stats",
        asset_ids=[telemetry.asset_id],
        window=telemetry.window,
        sensors=[full_name(c, telemetry.asset_id) for c in columns],
        summary=summary,
        observations=observations or [f"{telemetry.asset_id}: no drift, gaps or stuck sensors found."],
        results={
            "per_sensor": {t.sensor: t.as_dict() for t in trends},
            "moved_alone": alone,
            "efficiency_trend_per_day": next(
                (t.slope_per_day for t in trends if t.sensor == "Chiller Efficiency"), None
            ),
            "source": telemetry.artifact.id,
        },
        assumptions=[
            "Levels use running samples only (load > 10%); level change = last vs first quarter at equal load.",
            "A temperature counts as drifting only when its physically coupled temperatures did not follow.",
            *([note] if note else []),
        ],
    )


PRE_EVENT_DAYS = 14  # "the days leading up to" a trip: two weeks show a developing fault's trend
SHORT_PRE_EVENT_DAYS = 7


def _pre_event_window(task: SpecialistTask) -> tuple[TimeWindow | None, str | None]:
    """For a pre-event trend ("before the trip") on a window of a few days: the two weeks up to the
    event (or the window end), and the note saying so; (None, None) when the task window stands."""
    before_event = task.params.get("segment") == "before_event" or task.params.get("event") == "trip"
    window = task.window
    if (
        not before_event
        or window is None
        or window.end - window.start >= timedelta(days=SHORT_PRE_EVENT_DAYS)
    ):
        return None, None
    event = task.params.get("event_time")
    end = pd.Timestamp(str(event)).to_pydatetime() if event else window.end
    if end.tzinfo is None:
        end = end.replace(tzinfo=window.end.tzinfo)
    end = min(end, window.end)
    wider = TimeWindow(end - timedelta(days=PRE_EVENT_DAYS), end, f"{PRE_EVENT_DAYS} days before the event")
    return wider, (
        f"Trends over the {PRE_EVENT_DAYS} days up to {end:%Y-%m-%d %H:%M} "
        f"({wider.start:%Y-%m-%d} to {end:%Y-%m-%d}), not only the day of the event."
    )


async def trend_stats(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Per-sensor slope, drift, variance change, missing data and stuck values (over the two weeks
    before the event when the task asks what led up to one)."""
    wider, note = _pre_event_window(task)
    if wider is not None:
        task = replace(task, window=wider)
    found, missing = await gather_telemetry(ctx, task, why="trend statistics")
    if not found:
        return no_telemetry("timeseries", task, missing)
    artifacts = [_trend_artifact(ctx, t, task.sensors, note) for t in found]
    return await _stored_result(ctx, task, artifacts, found, missing)


def _bins_artifact(ctx: SpecialistContext, telemetry: Telemetry) -> Artifact:
    report = load_bins(telemetry.frame)
    observations = [
        f"{telemetry.asset_id} {signal}: high-load minus low-load {delta:+.3f}"
        for signal, delta in report.high_minus_low.items()
    ]
    populated = [b for b in report.bins if b.samples]
    kw = {b.label: b.means.get("kW per Ton") for b in populated}
    summary = (
        f"{telemetry.asset_id} by load band: kW/ton "
        + ", ".join(f"{label} {value:.3f}" for label, value in kw.items() if value is not None)
        + "."
    )
    return build_artifact(
        ctx,
        "timeseries",
        "load_bins",
        asset_ids=[telemetry.asset_id],
        window=telemetry.window,
        sensors=[full_name(c, telemetry.asset_id) for c in telemetry.frame.columns],
        summary=summary,
        observations=observations,
        results={**report.as_dict(), "source": telemetry.artifact.id},
    )


async def load_band_stats(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """kW/ton, approaches, power and tonnage by Chiller % Loaded band."""
    found, missing = await gather_telemetry(ctx, task, why="load-band analysis", sensors=[])
    if not found:
        return no_telemetry("timeseries", task, missing)
    artifacts, errors = [], []
    for telemetry in found:
        try:
            artifacts.append(_bins_artifact(ctx, telemetry))
        except ValueError as exc:  # no load column: report, carry on with the other assets
            errors.append(f"{telemetry.asset_id}: {exc}")
    return await _stored_result(ctx, task, artifacts, found, missing, errors)


def alert_counts(artifacts: list[Artifact], asset_id: str) -> dict[str, int]:
    """Signal -> how often its alert rule fired, from the session's alert artifacts (if any)."""
    counts: dict[str, int] = {}
    for artifact in artifacts:
        if artifact.kind not in ALERT_KINDS or (artifact.asset_ids and asset_id not in artifact.asset_ids):
            continue
        for rule in artifact.results.get("rules", []):
            target = signal_for_rule(str(rule.get("rule_name", "")))
            count = rule.get("count") or rule.get("firings") or rule.get("total")
            if target is not None and isinstance(count, int | float):
                counts[target[0]] = counts.get(target[0], 0) + int(count)
    return counts


def _threshold_targets(task: SpecialistTask, asset_id: str) -> list[tuple[str, str]]:
    targets = [(EVAP_APPROACH, "upper"), (SUPPLY_OFFSET, "upper"), (LOAD, "lower")]
    for sensor in task.sensors:
        name = short_name(sensor, asset_id)
        if all(name != t[0] for t in targets):
            targets.append((name, str(task.params.get("side", "upper"))))
    return targets


def _threshold_artifact(
    ctx: SpecialistContext, telemetry: Telemetry, task: SpecialistTask, counts: dict[str, int]
) -> Artifact:
    suggestions, missing = suggest_thresholds(
        telemetry.frame, _threshold_targets(task, telemetry.asset_id), current_alerts=counts
    )
    observations: list[str] = []
    for s in suggestions:
        chosen = next((lv for lv in s.levels if lv.k == s.recommended_k), s.levels[-1])
        line = (
            f"{telemetry.asset_id} {s.signal}: baseline {s.baseline_median:.2f} +- {s.baseline_sigma:.2f}; "
            f"{s.side} threshold {chosen.threshold:.2f} at {chosen.k:g} sigma -> {chosen.alert_episodes} alert episodes"
        )
        if chosen.reduction_vs_current is not None:
            change = chosen.reduction_vs_current
            line += f" vs {s.current_alerts} now ({abs(change):.0%} {'fewer' if change >= 0 else 'more'})"
        observations.append(line)
    results: dict[str, Any] = {
        "suggestions": [s.as_dict() for s in suggestions],
        "missing_signals": missing,
        "source": telemetry.artifact.id,
    }
    return build_artifact(
        ctx,
        "timeseries",
        "threshold_suggestion",
        asset_ids=[telemetry.asset_id],
        window=telemetry.window,
        sensors=[full_name(s.signal, telemetry.asset_id) for s in suggestions],
        summary=" ".join(observations[:2]) or f"{telemetry.asset_id}: not enough data for thresholds.",
        observations=observations,
        results=results,
        assumptions=[
            "Baseline = first half of the running samples; sigma from the MAD.",
            "Alert episodes merge exceedances less than an hour apart.",
        ],
    )


async def threshold_suggestion(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """Baseline ranges and k-sigma thresholds, with the expected alert reduction when firing counts are known."""
    found, missing = await gather_telemetry(ctx, task, why="threshold suggestions", sensors=[])
    if not found:
        return no_telemetry("timeseries", task, missing)
    artifacts = [
        _threshold_artifact(ctx, t, task, alert_counts(ctx.visible_artifacts, t.asset_id)) for t in found
    ]
    return await _stored_result(ctx, task, artifacts, found, missing)
