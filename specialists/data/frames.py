"""Pure telemetry-frame helpers of the data specialist: window chunks, CSV merge and slice, numbers.

History CSVs come from `iot.history_csv` (timestamp as site-local ISO with offset, asset_id, then one
column per sensor by full name). Everything here is deterministic and free of tool calls; file
reads and writes are the only I/O, and they stay inside the work directory the tool wrote to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from assetops.files import atomic_to_csv
from specialists.common.frames import RUNNING_LOAD_PCT

# history_csv returns at most 5000 rows: 52 days of 15-minute samples. Off-grid extra samples
# exist, so chunks stay a little shorter than that to never hit the cap.
MAX_CHUNK_DAYS = 45
NON_SENSOR_COLUMNS = ("timestamp", "asset_id")
TONNAGE_RUNNING = 5.0  # tons: a chiller that reports no load runs when it makes cooling


@dataclass(frozen=True)
class Chunk:
    """One history_csv request window [start, end)."""

    start: datetime
    end: datetime


def tool_time(moment: datetime) -> str:
    """A window bound as the iot tools expect it: site-local, a bare date at midnight."""
    local = moment.replace(tzinfo=None)
    if local.time() == datetime.min.time():
        return local.date().isoformat()
    return local.isoformat(timespec="seconds")


def split_window(start: datetime, end: datetime, *, max_days: int = MAX_CHUNK_DAYS) -> list[Chunk]:
    """Consecutive chunks of at most `max_days` covering [start, end) exactly."""
    chunks, cursor, step = [], start, timedelta(days=max_days)
    while cursor < end:
        nxt = min(cursor + step, end)
        chunks.append(Chunk(cursor, nxt))
        cursor = nxt
    return chunks


def utc_timestamp(moment: datetime) -> pd.Timestamp:
    """`moment` as an aware UTC timestamp (a naive one is taken as UTC)."""
    stamp = pd.Timestamp(moment)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def read_history(path: str | Path) -> pd.DataFrame:
    """A history CSV with `ts` (aware UTC) added, sorted by time, duplicates dropped."""
    frame = pd.read_csv(path)
    frame["ts"] = pd.to_datetime(frame["timestamp"], utc=True, format="ISO8601")
    return frame.drop_duplicates(subset="ts").sort_values("ts").reset_index(drop=True)


def merge_histories(paths: list[str], target: Path) -> Path:
    """Concatenate chunk CSVs (same asset) into one time-ordered CSV at `target`."""
    frames = [read_history(p) for p in paths]
    merged = pd.concat(frames, ignore_index=True).drop_duplicates(subset="ts").sort_values("ts")
    write_history(merged, target)
    return target


def write_history(frame: pd.DataFrame, target: Path) -> None:
    """A history frame (with `ts`) back to a history CSV, atomically."""
    atomic_to_csv(frame.drop(columns="ts"), target, index=False)


def slice_history(source: str | Path, start: datetime, end: datetime, target: Path) -> pd.DataFrame:
    """Rows of `source` in [start, end) written to `target`; returns the sliced frame."""
    frame = read_history(source)
    lo, hi = utc_timestamp(start), utc_timestamp(end)
    part = frame[(frame["ts"] >= lo) & (frame["ts"] < hi)]
    atomic_to_csv(part.drop(columns="ts"), target, index=False)
    return part.reset_index(drop=True)


def sensor_columns(frame: pd.DataFrame) -> list[str]:
    """The sensor columns of a history frame (everything but timestamp, asset_id, ts)."""
    return [c for c in frame.columns if c not in (*NON_SENSOR_COLUMNS, "ts")]


def trend_per_day(frame: pd.DataFrame, column: str) -> float | None:
    """Least-squares slope of the column against time, in units per day (None under 3 points)."""
    valid = frame[["ts", column]].dropna()
    if len(valid) < 3:
        return None
    days = (valid["ts"] - valid["ts"].iloc[0]).dt.total_seconds().to_numpy() / 86400.0
    if np.ptp(days) == 0:
        return None
    slope = np.polyfit(days, valid[column].to_numpy(dtype=float), 1)[0]
    return round(float(slope), 6)


def presence(frame: pd.DataFrame, sensors: list[str], window_end: datetime) -> dict[str, dict[str, Any]]:
    """Per sensor: count of values, last timestamp with a value, and hours of silence before the end.

    A sensor missing from the CSV (no value at all in the window) has count 0.
    """
    end = utc_timestamp(window_end)
    last_row = frame["ts"].max() if len(frame) else None
    out: dict[str, dict[str, Any]] = {}
    for sensor in sensors:
        if sensor not in frame.columns or frame[sensor].notna().sum() == 0:
            out[sensor] = {"count": 0, "last": None, "silent_hours": None}
            continue
        seen = frame.loc[frame[sensor].notna()]
        last = seen["ts"].iloc[-1]
        reference = min(end, last_row) if last_row is not None else end
        # (rows up to its last value: a sensor reported on change only, a schedule or a run status, fills few of them
        # and its silence says nothing)
        out[sensor] = {"count": len(seen), "last": str(seen["timestamp"].iloc[-1]),
                       "silent_hours": round(max((reference - last).total_seconds(), 0.0) / 3600.0, 2),
                       "rows_until_last": int((frame["ts"] <= last).sum())}
    return out


def running_mask(frame: pd.DataFrame, asset_id: str) -> pd.Series:
    """Rows where the chiller runs: % Loaded above the one off threshold every specialist uses (standby power
    alone is not running; a window with no load column runs where it makes cooling)."""
    load, tons = f"{asset_id} Chiller % Loaded", f"{asset_id} Tonnage"
    if load in frame.columns:
        return frame[load].fillna(0) > RUNNING_LOAD_PCT
    if tons in frame.columns:
        return frame[tons].fillna(0) > TONNAGE_RUNNING
    return pd.Series(False, index=frame.index)


def running_means(frame: pd.DataFrame, asset_id: str, sensors: list[str]) -> tuple[float, dict[str, float]]:
    """Share of rows running, and each sensor's mean over running rows only."""
    mask = running_mask(frame, asset_id)
    share = float(mask.mean()) if len(frame) else 0.0
    means = {}
    for sensor in sensors:
        if sensor in frame.columns and mask.any():
            value = frame.loc[mask, sensor].mean()
            if pd.notna(value):
                means[sensor] = round(float(value), 4)
    return round(share, 4), means


def last_running(frame: pd.DataFrame, asset_id: str) -> tuple[str | None, str | None]:
    """(the last sample time the chiller ran, the last sample time), ISO-8601; None where there is none. Whether it
    runs now, or since when it has sat off, is read from the two."""
    if frame.empty or "ts" not in frame.columns:
        return None, None
    mask = running_mask(frame, asset_id)
    ran = frame.loc[mask, "ts"]
    return (pd.Timestamp(ran.max()).isoformat() if len(ran) else None), pd.Timestamp(frame["ts"].max()).isoformat()


def stopped_at(frame: pd.DataFrame, asset_id: str) -> str | None:
    """The first sample after the last one it ran (ISO-8601): the stop it has sat off since, to the window's end.
    None when it runs at the last sample or never ran in the window (no stop inside it)."""
    if frame.empty or "ts" not in frame.columns:
        return None
    mask = running_mask(frame, asset_id)
    if not mask.any():
        return None
    after = frame.loc[frame["ts"] > frame.loc[mask, "ts"].max(), "ts"]
    return pd.Timestamp(after.min()).isoformat() if len(after) else None


def nearest_row(frame: pd.DataFrame, moment: datetime) -> pd.Series | None:
    """The sample closest in time to `moment` (None for an empty frame)."""
    if frame.empty:
        return None
    target = utc_timestamp(moment)
    return frame.iloc[int((frame["ts"] - target).abs().argmin())]
