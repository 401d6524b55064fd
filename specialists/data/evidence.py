"""Turning telemetry numbers into a `telemetry_window` artifact: compact stats and readable lines.

Pure: takes the tool outputs (csv_stats) and locally derived facts (trend per day, running means,
sensor presence) and returns the artifact fields. Observations carry numbers with units, so the
answer and later turns can cite them without reopening the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from assetops.db.tables.telemetry import SENSOR_UNITS

ResultStatus = Literal["ok", "partial", "failed"]
KEY_SENSORS = ("Power Input", "Chiller Efficiency", "Tonnage", "Chiller % Loaded", "Supply Temperature")
MAX_SENSOR_LINES = 6


@dataclass
class TelemetryFacts:
    """Everything known about one asset's window, before it becomes an artifact."""

    asset_id: str
    start: datetime
    end: datetime
    csv_path: str
    rows: int
    requested: list[str]  # full sensor names asked for (all of the asset's when the task named none)
    available: list[str]  # sensor columns with at least one value in the window
    stats: dict[str, dict[str, Any]]  # csv_stats per column
    trends: dict[str, float | None]  # units per day
    presence: dict[str, dict[str, Any]]
    running_share: float
    running_means: dict[str, float]
    chunks: int = 1
    truncated: bool = False
    assumptions: list[str] = field(default_factory=list)
    window_gaps: list[str] = field(default_factory=list)  # parts of the window the store had no data for


def bare(asset_id: str, sensor: str) -> str:
    """`Chiller 9 Power Input` -> `Power Input`."""
    prefix = f"{asset_id} "
    return sensor[len(prefix) :] if sensor.startswith(prefix) else sensor


def unit_of(asset_id: str, sensor: str) -> str:
    """The unit of a sensor (full or bare name), '' when unknown."""
    return SENSOR_UNITS.get(bare(asset_id, sensor), "")


def _num(value: float | None, unit: str = "") -> str:
    if value is None:
        return "n/a"
    text = f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{text} {unit}".rstrip()


def sensor_line(facts: TelemetryFacts, sensor: str) -> str:
    """`Power Input: mean 312.40 kW (min 0.00, max 498.20; 401.10 while running), trend +1.350 kW/day`."""
    stats = facts.stats[sensor]
    unit = unit_of(facts.asset_id, sensor)
    text = (
        f"{bare(facts.asset_id, sensor)}: mean {_num(stats.get('mean'), unit)} "
        f"(min {_num(stats.get('min'))}, max {_num(stats.get('max'))}"
    )
    if sensor in facts.running_means and facts.running_share < 0.98:
        text += f"; {_num(facts.running_means[sensor])} while running"
    text += ")"
    trend = facts.trends.get(sensor)
    if trend is not None:
        text += f", trend {trend:+.3f} {unit}/day".replace(" /day", "/day")
    return text


def data_gaps(facts: TelemetryFacts) -> tuple[list[str], dict[str, str], list[str]]:
    """Sensors with no data, sensors that went silent (last value), and the lines describing them."""
    missing = [s for s in facts.requested if facts.presence.get(s, {}).get("count", 0) == 0]
    stopped: dict[str, str] = {}
    for sensor in facts.requested:
        info = facts.presence.get(sensor) or {}
        if info.get("count") and (info.get("silent_hours") or 0) >= 2.0:
            stopped[sensor] = str(info["last"])
    lines = [f"No data for {s} in this window; the analysis continues without it." for s in missing]
    lines += [
        f"{s} stopped reporting at {last} ({facts.presence[s]['silent_hours']:.1f} h before the window "
        "end) while other sensors continued."
        for s, last in stopped.items()
    ]
    return missing, stopped, lines


def ordered_sensors(facts: TelemetryFacts) -> list[str]:
    """Sensors with stats, the requested key sensors first."""
    with_stats = [s for s in facts.requested if s in facts.stats and facts.stats[s].get("count")]
    key = [s for s in with_stats if bare(facts.asset_id, s) in KEY_SENSORS]
    key.sort(key=lambda s: KEY_SENSORS.index(bare(facts.asset_id, s)))
    return key + [s for s in with_stats if s not in key]


def covered_sensors(facts: TelemetryFacts) -> list[str]:
    """Sensors the window was fetched for: those with data, and requested ones known to have none.

    A requested sensor without data is covered too (we looked, there is nothing), so a later task
    asking for it reuses this artifact and reads the gap from `results` instead of fetching again.
    """
    return list(dict.fromkeys([*facts.available, *facts.requested]))


def artifact_fields(facts: TelemetryFacts) -> dict[str, Any]:
    """Fields of the `telemetry_window` artifact (everything but ids, session and tool calls)."""
    missing, stopped, gap_lines = data_gaps(facts)
    sensors = ordered_sensors(facts)
    lines = facts.window_gaps + gap_lines + [sensor_line(facts, s) for s in sensors[:MAX_SENSOR_LINES]]
    window = f"{facts.start:%Y-%m-%d %H:%M} to {facts.end:%Y-%m-%d %H:%M}"
    lines.append(f"{facts.rows:,} samples, running {facts.running_share:.0%} of the time.")
    headline = "; ".join(sensor_line(facts, s) for s in sensors[:2]) or "no sensor data"
    results = {
        "rows": facts.rows,
        "csv_path": facts.csv_path,
        "chunks": facts.chunks,
        "truncated": facts.truncated,
        "running_share": facts.running_share,
        "stats": {
            s: {
                **{k: facts.stats[s].get(k) for k in ("count", "mean", "std", "min", "max")},
                "trend_per_day": facts.trends.get(s),
                "running_mean": facts.running_means.get(s),
                "unit": unit_of(facts.asset_id, s),
            }
            for s in facts.stats
            if s in facts.available
        },
        "sensors_without_data": missing,
        "sensors_stopped": stopped,
        "window_gaps": facts.window_gaps,
    }
    return {
        "kind": "telemetry_window",
        "asset_ids": [facts.asset_id],
        "window_start": facts.start,
        "window_end": facts.end,
        "sensors": covered_sensors(facts),
        "data_ref": facts.csv_path,
        "observations": lines,
        "results": results,
        "assumptions": facts.assumptions,
        "summary": f"{facts.asset_id} telemetry {window}: {facts.rows:,} samples, {len(facts.available)} sensors with data. "
        f"{headline}.",
    }


def result_status(errors: list[str], produced: bool) -> ResultStatus:
    """ok without errors; partial when something was produced despite errors; failed otherwise."""
    if not errors:
        return "ok"
    return "partial" if produced else "failed"
