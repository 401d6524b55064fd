"""Turning telemetry numbers into a `telemetry_window` artifact: compact stats and readable lines.

Pure: takes the tool outputs (csv_stats) and locally derived facts (trend per day, running means,
sensor presence) and returns the artifact fields. Observations carry numbers with units, so the
answer and later turns can cite them without reopening the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

from assetops.db.tables.telemetry import SENSOR_UNITS

ResultStatus = Literal["ok", "partial", "failed"]
KEY_SENSORS = ("Power Input", "Chiller Efficiency", "Tonnage", "Chiller % Loaded", "Supply Temperature")
MAX_SENSOR_LINES = 6
HEADLINE_SENSORS = 3  # sensors whose numbers lead the window's summary
NAMED_SENSORS_MAX = 4  # more requested sensors than this is a default list, not the user's question
RUNS_ALL_THE_TIME = 0.98  # above this running share the all-samples mean is the running mean


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
    last_running: str | None = None  # the last sample time it ran (ISO-8601)
    last_sample: str | None = None  # the window's last sample time
    stopped_at: str | None = None  # the first sample it sat off after its last run, when it stayed off to the end
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


def stat_line(name: str, unit: str, entry: dict[str, Any], running_share: float | None) -> str:
    """One sensor's numbers, the figure an engineer uses first.

    A chiller is often off: a temperature or power mean over off periods mixes two states and
    misleads, so while it runs only part of the time the running mean leads and the all-samples
    mean follows in brackets: `Supply Temperature: 46.01 degF while running (all samples 65.65,
    min 45.79, max 67.94), trend +0.049 degF/day`.
    """
    running = entry.get("running_mean")
    bounds = f"min {_num(entry.get('min'))}, max {_num(entry.get('max'))}"
    if running is not None and running_share is not None and 0 < running_share < RUNS_ALL_THE_TIME:
        text = f"{name}: {_num(running, unit)} while running (all samples {_num(entry.get('mean'))}, {bounds})"
    else:
        text = f"{name}: mean {_num(entry.get('mean'), unit)} ({bounds})"
    trend = entry.get("trend_per_day")
    if trend is not None:
        text += f", trend {trend:+.3f} {unit}/day".replace(" /day", "/day")
    return text


def _stat_entry(facts: TelemetryFacts, sensor: str) -> dict[str, Any]:
    stats = facts.stats[sensor]
    return {"mean": stats.get("mean"), "min": stats.get("min"), "max": stats.get("max"),
            "running_mean": facts.running_means.get(sensor), "trend_per_day": facts.trends.get(sensor)}


def sensor_line(facts: TelemetryFacts, sensor: str) -> str:
    """The `stat_line` of one sensor of the window."""
    return stat_line(bare(facts.asset_id, sensor), unit_of(facts.asset_id, sensor), _stat_entry(facts, sensor),
                     facts.running_share)


def window_label(start: datetime, end: datetime, zone: ZoneInfo) -> str:
    """`2021-03-01 to 2021-04-01` (times only when a bound is not midnight)."""
    def bound(moment: datetime) -> str:
        local = moment.astimezone(zone) if moment.tzinfo else moment  # stored windows are UTC
        return f"{local:%Y-%m-%d}" if (local.hour, local.minute) == (0, 0) else f"{local:%Y-%m-%d %H:%M}"

    return f"{bound(start)} to {bound(end)}"


def window_summary(asset_id: str, label: str, headline: list[str], running_share: float, rows: int,
                   sensors_with_data: int) -> str:
    """The finding first (the sensors' numbers), then how much data it rests on."""
    numbers = "; ".join(headline) or "no sensor data"
    running = "the chiller was off the whole window" if running_share == 0 else (
        f"running {running_share:.0%} of the time")
    return (f"{asset_id}, {label}: {numbers}. {running[0].upper()}{running[1:]}; "
            f"{rows:,} samples, {sensors_with_data} sensors with data.")


def focused_summary(artifact_results: dict[str, Any], asset_id: str, label: str, sensors: list[str]) -> str | None:
    """The summary of a stored window led by `sensors` (a later turn asking about other sensors), or
    None when the window has no statistics for any of them."""
    stats = artifact_results.get("stats") or {}
    share = artifact_results.get("running_share")
    wanted = [s for s in sensors if s in stats][:HEADLINE_SENSORS]
    if not wanted:
        return None
    lines = [stat_line(bare(asset_id, s), str(stats[s].get("unit") or unit_of(asset_id, s)), stats[s], share)
             for s in wanted]
    return window_summary(asset_id, label, lines, float(share or 0.0), int(artifact_results.get("rows") or 0),
                          len(stats))


# A sensor that filled at least this share of the rows up to its last value reported steadily; one reported on change
# (a schedule, a run status) falls silent between changes without having stopped.
STEADY_SHARE = 0.5


def _reported_steadily(info: dict[str, Any]) -> bool:
    rows = info.get("rows_until_last")
    return not isinstance(rows, int) or rows == 0 or int(info.get("count") or 0) >= STEADY_SHARE * rows


def data_gaps(facts: TelemetryFacts) -> tuple[list[str], dict[str, str], list[str]]:
    """Requested sensors with no data, every sensor that went silent (last value), and the lines describing the
    requested ones. A silent sensor the task did not ask for is kept in the results all the same: a later turn
    reusing the window may ask about it."""
    missing = [s for s in facts.requested if facts.presence.get(s, {}).get("count", 0) == 0]
    stopped: dict[str, str] = {}
    for sensor, info in facts.presence.items():
        if info.get("count") and (info.get("silent_hours") or 0) >= 2.0 and _reported_steadily(info):
            stopped[sensor] = str(info["last"])
    lines = [f"No data for {s} in this window; the analysis continues without it." for s in missing]
    lines += [
        f"{s} stopped reporting at {last} ({facts.presence[s]['silent_hours']:.1f} h before the window "
        "end) while other sensors continued."
        for s, last in stopped.items() if s in facts.requested
    ]
    return missing, stopped, lines


def ordered_sensors(facts: TelemetryFacts) -> list[str]:
    """Sensors with stats: the ones the task named in its order, else the key sensors first."""
    with_stats = [s for s in facts.requested if s in facts.stats and facts.stats[s].get("count")]
    if len(facts.requested) <= NAMED_SENSORS_MAX:  # a task naming a few sensors: the user asked about them
        return with_stats
    key = [s for s in with_stats if bare(facts.asset_id, s) in KEY_SENSORS]
    key.sort(key=lambda s: KEY_SENSORS.index(bare(facts.asset_id, s)))
    return key + [s for s in with_stats if s not in key]


def covered_sensors(facts: TelemetryFacts) -> list[str]:
    """Sensors the window was fetched for: those with data, and requested ones known to have none.

    A requested sensor without data is covered too (we looked, there is nothing), so a later task
    asking for it reuses this artifact and reads the gap from `results` instead of fetching again.
    """
    return list(dict.fromkeys([*facts.available, *facts.requested]))


def _site_time(stamp: str | None, zone: ZoneInfo) -> str | None:
    return datetime.fromisoformat(stamp).astimezone(zone).isoformat() if stamp else None


def artifact_fields(facts: TelemetryFacts, zone: ZoneInfo) -> dict[str, Any]:
    """Fields of the `telemetry_window` artifact (everything but ids, session and tool calls);
    the window is labelled in the site's `zone`."""
    missing, stopped, gap_lines = data_gaps(facts)
    sensors = ordered_sensors(facts)
    lines = facts.window_gaps + gap_lines + [sensor_line(facts, s) for s in sensors[:MAX_SENSOR_LINES]]
    lines.append(f"{facts.rows:,} samples, running {facts.running_share:.0%} of the time.")
    headline = [sensor_line(facts, s) for s in sensors[:HEADLINE_SENSORS]]
    results = {
        "rows": facts.rows,
        "csv_path": facts.csv_path,
        "chunks": facts.chunks,
        "truncated": facts.truncated,
        "running_share": facts.running_share,
        "last_running": _site_time(facts.last_running, zone),  # site time, as the answers say times
        "last_sample": _site_time(facts.last_sample, zone),
        "stopped_at": _site_time(facts.stopped_at, zone),  # "the hour before it dropped" is read back from it
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
        "summary": window_summary(facts.asset_id, window_label(facts.start, facts.end, zone), headline,
                                  facts.running_share, facts.rows, len(facts.available)),
    }


def result_status(errors: list[str], produced: bool) -> ResultStatus:
    """ok without errors; partial when something was produced despite errors; failed otherwise."""
    if not errors:
        return "ok"
    return "partial" if produced else "failed"
