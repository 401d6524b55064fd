"""Telemetry figures as readable Markdown: one bullet per sensor with its unit, never a run-on line.

Pure: reads a `telemetry_window` artifact's per-sensor stats through `artifacts.readings` (mean, min, max, running mean,
trend per day, unit per sensor).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from artifacts.model import Artifact
from artifacts.readings import running_share, sensors_without_data, stats_of
from graph.answering.markdown import number

KEY_SENSORS = ("Power Input", "Chiller Efficiency", "Tonnage", "Chiller % Loaded", "Supply Temperature",
               "Return Temperature", "Condenser Water Flow")
RUNS_ALL_THE_TIME = 0.98  # the running mean equals the all-samples mean above this share
MAX_FIGURES = 6


LABELS = {"Chiller Efficiency": "Efficiency", "Chiller % Loaded": "Load"}


def sensor_label(sensor: str, asset_id: str) -> str:
    """'Chiller 6 Chiller Efficiency' -> 'Efficiency': the sensor without the asset or a repeated 'Chiller'."""
    bare = sensor.removeprefix(f"{asset_id} ") if asset_id else sensor
    return LABELS.get(bare, bare)


def figure_line(label: str, entry: Mapping[str, Any], running_share: float | None) -> str:
    """`- Power input: 312.4 kW while running (all samples 150.2 kW, range 0-420 kW), trend +0.5 kW/day`."""
    unit = str(entry.get("unit") or "")
    mean, running = entry.get("mean"), entry.get("running_mean")
    low, high = entry.get("min"), entry.get("max")
    part_time = running is not None and running_share is not None and 0 < running_share < RUNS_ALL_THE_TIME
    if part_time and running is not None:
        text = f"- {label}: {number(float(running), unit)} while running"
        extra = [f"all samples {number(float(mean), unit)}"] if mean is not None else []
    else:
        text = f"- {label}: mean {number(float(mean), unit)}" if mean is not None else f"- {label}: no data"
        extra = []
    if low is not None and high is not None:
        extra.append(f"range {number(float(low))} to {number(float(high), unit)}")
    if extra:
        text += f" ({', '.join(extra)})"
    trend = entry.get("trend_per_day")
    if isinstance(trend, int | float) and trend:
        text += f", trend {trend:+.3g} {unit}/day".replace(" /day", "/day")
    return text


def telemetry_figures(artifact: Artifact, limit: int = MAX_FIGURES) -> list[str]:
    """A window's key figures as bullets, key sensors first, then how long the chiller ran."""
    stats = stats_of(artifact)
    asset = artifact.asset_ids[0] if artifact.asset_ids else ""
    share = running_share(artifact)

    def rank(sensor: str) -> int:
        bare = sensor.removeprefix(f"{asset} ")
        return KEY_SENSORS.index(bare) if bare in KEY_SENSORS else len(KEY_SENSORS)

    named = [s for s in artifact.sensors if s in stats]
    order = named if 0 < len(named) <= 4 else sorted(stats, key=rank)
    lines = [figure_line(sensor_label(s, asset), stats[s], share) for s in order[:limit] if stats[s].get("count") != 0]
    lines += [f"- No data for {s} in this window" for s in sensors_without_data(artifact)]
    if share is not None:
        lines.append("- Running: " + ("off the whole window" if share == 0 else f"{share:.0%} of the time"))
    return lines
