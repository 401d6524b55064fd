"""Telemetry frames for analysis: read a telemetry CSV once, then work on short sensor names.

The data specialist writes telemetry windows as CSV files (timestamp, asset_id, full sensor names such
as "Chiller 4 Power Input"). Analysis code works on one asset at a time with the asset prefix
stripped ("Power Input"), indexed by an aware UTC timestamp, so the pure functions do not care which
chiller they look at.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

# Sensors that are constant or binary by design: a flat line there is not a stuck sensor.
CONSTANT_BY_DESIGN: frozenset[str] = frozenset({"Setpoint Temperature", "Run Status", "Schedule"})
LOAD = "Chiller % Loaded"
RUNNING_LOAD_PCT = 10.0  # below this the chiller is treated as off (off periods read near 0)


def read_telemetry_csv(path: Path | str) -> pd.DataFrame:
    """Read a telemetry CSV (timestamp, asset_id, full sensor names); timestamps become aware UTC."""
    frame = pd.read_csv(path)
    if "timestamp" not in frame.columns:
        raise ValueError(f"telemetry CSV {path} has no 'timestamp' column")
    frame["timestamp"] = pd.to_datetime(frame["timestamp"], format="ISO8601", utc=True)
    return frame


def short_name(full_sensor: str, asset_id: str) -> str:
    """'Chiller 4 Power Input' -> 'Power Input' for asset 'Chiller 4' (unchanged when not prefixed)."""
    prefix = f"{asset_id} "
    return full_sensor[len(prefix) :] if full_sensor.startswith(prefix) else full_sensor


def spoken_name(sensor: str, asset_id: str) -> str:
    """How a person names the sensor: 'Chiller 6 Chiller Efficiency' -> 'Chiller 6 efficiency',
    'Power Input' -> 'Chiller 6 power input' (the asset once, no repeated 'Chiller')."""
    bare = short_name(sensor, asset_id).removeprefix("Chiller ").strip()
    return f"{asset_id} {bare.lower()}"


def full_name(sensor: str, asset_id: str) -> str:
    """'Power Input' -> 'Chiller 4 Power Input' (already-qualified names pass through)."""
    return sensor if sensor.startswith(f"{asset_id} ") else f"{asset_id} {sensor}"


def asset_frame(frame: pd.DataFrame, asset_id: str, sensors: list[str] | None = None) -> pd.DataFrame:
    """One asset's numeric sensor columns with short names, indexed by timestamp (sorted, deduplicated).

    `sensors` (full or short names) restricts the columns; unknown ones are simply absent, so callers
    report what is missing instead of failing.
    """
    rows = frame[frame["asset_id"] == asset_id] if "asset_id" in frame.columns else frame
    prefix = f"{asset_id} "
    columns = {c: c[len(prefix) :] for c in rows.columns if c.startswith(prefix)}
    out = rows.set_index("timestamp")[list(columns)].rename(columns=columns)
    out = out.apply(pd.to_numeric, errors="coerce")
    out = out[~out.index.duplicated(keep="first")].sort_index()
    if sensors:
        wanted = [short_name(s, asset_id) for s in sensors]
        out = out[[c for c in wanted if c in out.columns]]
    return out


def seconds_since_start(index: pd.DatetimeIndex) -> np.ndarray:
    """Seconds from the first timestamp (independent of the index's storage unit)."""
    if len(index) == 0:
        return np.zeros(0)
    return np.asarray((index - index[0]).total_seconds(), dtype=float)


def sample_minutes(frame: pd.DataFrame) -> float:
    """The nominal sampling interval in minutes (median spacing; 15 when it cannot be told)."""
    if len(frame.index) < 2:
        return 15.0
    diffs = np.diff(seconds_since_start(pd.DatetimeIndex(frame.index))) / 60.0
    positive = diffs[diffs > 0]
    return float(np.median(positive)) if positive.size else 15.0


def running_mask(frame: pd.DataFrame) -> pd.Series:
    """True where the chiller runs: % Loaded above the off threshold (all rows when load is unknown)."""
    if LOAD not in frame.columns:
        return pd.Series(True, index=frame.index)
    return frame[LOAD].fillna(0.0) > RUNNING_LOAD_PCT


def from_telemetry_table(table: pd.DataFrame, asset_id: str) -> pd.DataFrame:
    """One asset's rows of the `telemetry` table (columns asset_id, ts, sensor columns) as a short-name
    analysis frame, the same shape `asset_frame` gives for a telemetry CSV."""
    from assetops.db.tables.telemetry import SENSOR_COLUMNS  # the column map is the table's contract

    rows = table[table["asset_id"] == asset_id]
    renamed = {column: sensor for sensor, column in SENSOR_COLUMNS.items() if column in rows.columns}
    out = rows.set_index(pd.DatetimeIndex(pd.to_datetime(rows["ts"], utc=True)))[list(renamed)].rename(
        columns=renamed
    )
    out = out.dropna(axis=1, how="all").astype(float)
    out.index.name = "timestamp"
    return out[~out.index.duplicated(keep="first")].sort_index()
