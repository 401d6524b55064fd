"""Sensor values at a moment (nearest sample) or over a day (mean, min, max), with numbers."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import pandas as pd

from artifacts.model import Artifact, new_artifact_id
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult
from specialists.data import frames, shared_files
from specialists.data.evidence import bare, result_status, stat_line, unit_of
from specialists.data.history import find_reusable, requested_sensors
from specialists.data.retry import run_with_retry


def target_moment(task: SpecialistTask, fallback: datetime) -> tuple[datetime, datetime, datetime | None]:
    """(window start, window end, exact moment or None for a whole-window summary)."""
    at = task.params.get("at")
    if at:
        moment = datetime.fromisoformat(str(at))
        return moment - timedelta(hours=1), moment + timedelta(hours=1), moment
    if task.window is not None:
        return task.window.start, task.window.end, None
    return fallback - timedelta(days=1), fallback, None


def describe(
    frame: pd.DataFrame, asset_id: str, sensors: list[str], moment: datetime | None
) -> dict[str, Any]:
    """Values per sensor: the nearest sample to `moment`, or mean/min/max (and the mean while the
    chiller runs) over the frame."""
    values: dict[str, Any] = {}
    row = frames.nearest_row(frame, moment) if moment is not None else None
    running = frames.running_mask(frame, asset_id)
    for sensor in sensors:
        if sensor not in frame.columns or frame[sensor].notna().sum() == 0:
            values[sensor] = None
        elif row is not None:
            value = row[sensor]
            values[sensor] = {
                "value": None if pd.isna(value) else round(float(value), 4),
                "timestamp": str(row["timestamp"]),
            }
        else:
            series = frame[sensor].dropna()
            while_running = frame.loc[running, sensor].dropna()
            values[sensor] = {
                "mean": round(float(series.mean()), 4),
                "min": round(float(series.min()), 4),
                "max": round(float(series.max()), 4),
                "count": int(series.size),
                "running_mean": round(float(while_running.mean()), 4) if while_running.size else None,
                "running_share": round(float(running.mean()), 4) if len(frame) else None,
            }
    return values


def value_lines(asset_id: str, values: dict[str, Any]) -> list[str]:
    """One readable line per sensor (the running mean first when the chiller ran only part of the time)."""
    lines = []
    for sensor, value in values.items():
        name, unit = bare(asset_id, sensor), unit_of(asset_id, sensor)
        if value is None:
            lines.append(f"{name}: no data.")
        elif "value" in value:
            shown = "n/a" if value["value"] is None else f"{value['value']:,.2f}"
            lines.append(f"{name}: {shown} {unit} at {value['timestamp']}.".replace("  ", " "))
        else:
            line = stat_line(name, unit, value, value.get("running_share"))
            lines.append(f"{line}; {value['count']} samples.")
    return lines


async def _frame(
    ctx: SpecialistContext, asset_id: str, start: datetime, end: datetime, sensors: list[str]
) -> tuple[pd.DataFrame | None, list[Any], str | None, str | None]:
    """(frame, tool calls, reused artifact id, error): from a covering artifact, else iot.history."""
    cover = await find_reusable(ctx, asset_id, start, end, sensors)
    if cover is not None and cover.data_ref:
        frame = await asyncio.to_thread(shared_files.read_history, cover.data_ref)
        lo, hi = frames.utc_timestamp(start), frames.utc_timestamp(end)
        return frame[(frame["ts"] >= lo) & (frame["ts"] < hi)], [], cover.id, None
    args = {
        "site_name": ctx.catalog.site,
        "asset_id": asset_id,
        "start": frames.tool_time(start),
        "final": frames.tool_time(end),
    }
    outcomes, retried = await run_with_retry(ctx.tools, [("iot.history", args)], specialist="data",
                                             catalog=ctx.catalog)
    calls = [o.as_artifact_call() for o in [*retried, *outcomes]]
    if not outcomes[0].ok:
        return None, calls, None, outcomes[0].error or outcomes[0].status
    frame = pd.DataFrame(outcomes[0].output.get("observations") or [])
    if frame.empty:
        return None, calls, None, "no observations in that window"
    frame["ts"] = pd.to_datetime(frame["timestamp"], utc=True, format="ISO8601")
    return frame, calls, None, None


async def point_value(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """The value(s) of the task's sensors at a moment or over a day, per asset."""
    if not task.asset_ids:
        return SpecialistResult(
            "data",
            task.action,
            "failed",
            "Which asset? No asset was given.",
            errors=["no asset_ids in the task"],
        )
    reference = datetime.combine(ctx.reference_date, datetime.min.time())
    start, end, moment = target_moment(task, reference)
    artifact_ids, reused, errors, summaries = [], [], [], []
    for asset_id in task.asset_ids:
        sensors = requested_sensors(asset_id, task.sensors, ctx.catalog)
        frame, calls, reused_id, error = await _frame(ctx, asset_id, start, end, sensors)
        if frame is None:
            errors.append(f"{asset_id}: {error}")
            continue
        values = describe(frame, asset_id, sensors, moment)
        lines = value_lines(asset_id, values)
        when = (
            moment.isoformat(timespec="minutes")
            if moment
            else f"{start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M}"
        )
        artifact = Artifact(
            id=new_artifact_id("data"),
            producer="data",
            kind="point_values",
            site=ctx.catalog.site,
            asset_ids=[asset_id],
            equipment_ids=ctx.catalog.equipment_ids_of([asset_id]),
            window_start=start,
            window_end=end,
            sensors=sensors,
            tool_calls=calls,
            observations=lines[:8],
            results={"moment": moment.isoformat() if moment else None, "values": values},
            assumptions=[f"Reused {reused_id}; no new tool call."] if reused_id else [],
            summary=f"{asset_id} at {when}: " + " ".join(lines[:3]),
            **ctx.new_artifact_fields(),
        )
        await ctx.store.put(artifact)
        artifact_ids.append(artifact.id)
        reused += [reused_id] if reused_id else []
        summaries.append(artifact.summary)
    status = result_status(errors, bool(artifact_ids))
    return SpecialistResult(
        "data",
        task.action,
        status,
        " ".join(summaries) or "No values could be read.",
        artifact_ids=artifact_ids,
        reused_artifact_ids=reused,
        errors=errors,
    )
