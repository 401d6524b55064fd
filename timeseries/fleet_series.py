"""The training corpus for the base checkpoints: every sensor of every chiller, read through the database."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from assetops.db.engine import sync_engine
from assetops.db.tables import SENSOR_COLUMNS, TelemetryRow
from assetops.settings import Settings
from fleet.loader import data_version
from timeseries.synthetic import synthetic_chiller_frame

log = logging.getLogger(__name__)

FREQUENCY = pd.Timedelta(minutes=15)
# Status flags are 0/1 switches, not signals to forecast.
EXCLUDED_COLUMNS = ("run_status", "schedule")


@dataclass
class FleetSeries:
    """Regular-grid series (NaN where a sample is missing) split by time into training and held-out weeks.

    Every `HOLDOUT_EVERY`-th week is held out (blocked time split: the chillers barely run in winter,
    so a single final block would test on idle machines). `held_out_blocks` start `lead` rows before
    their week, so every window cut from them forecasts inside the held-out week only.
    """

    names: list[str]
    train: list[np.ndarray]
    held_out_blocks: list[np.ndarray]
    data_version: str
    source: str
    lead: int = 0
    window: dict[str, str] = field(default_factory=dict)
    block_names: list[str] = field(default_factory=list)

    def held_out(self, context_length: int) -> list[np.ndarray]:
        """Held-out blocks trimmed to `context_length` rows of lead."""
        if context_length > self.lead:
            raise ValueError(f"held-out blocks carry {self.lead} rows of context, {context_length} requested")
        return [block[self.lead - context_length:] for block in self.held_out_blocks]


HOLDOUT_EVERY = 6
MAX_CONTEXT = 512
STEPS_PER_WEEK = 7 * 96


def load_fleet_series(settings: Settings, *, days: int = 365) -> FleetSeries:
    """The last `days` of telemetry per asset, every sixth week held out."""
    frame, version = _read_telemetry(settings, days)
    if frame.empty:
        log.warning("no telemetry in the database; training on the built-in synthetic corpus")
        return _synthetic_fallback(days)
    return series_from_telemetry(frame, version or "unknown", "telemetry table")


def series_from_telemetry(frame: pd.DataFrame, data_version: str, source: str) -> FleetSeries:
    """Per asset and sensor column, a regular 15-minute series with every sixth week held out."""
    frame = frame[[c for c in frame.columns if c not in (*EXCLUDED_COLUMNS, "utc_offset_min")]]
    result = FleetSeries([], [], [], data_version, source, lead=MAX_CONTEXT)
    for asset, rows in frame.groupby("asset_id", sort=True):
        grid = rows.set_index("ts").drop(columns="asset_id")
        grid = grid.reindex(pd.date_range(grid.index.min(), grid.index.max(), freq=FREQUENCY))
        week = np.arange(len(grid)) // STEPS_PER_WEEK
        held = (week % HOLDOUT_EVERY == HOLDOUT_EVERY - 1) & (np.arange(len(grid)) >= MAX_CONTEXT)
        starts = np.flatnonzero(held & ~np.r_[False, held[:-1]])
        for column in grid.columns:
            values = grid[column].to_numpy(dtype=np.float32)
            if np.isnan(values).all():
                continue
            result.names.append(f"{asset} {column}")
            result.train.append(np.where(held, np.nan, values).astype(np.float32))
            for start in starts:
                result.held_out_blocks.append(values[start - MAX_CONTEXT:start + STEPS_PER_WEEK])
                result.block_names.append(f"{asset} {column} @ {grid.index[start]:%Y-%m-%d}")
    result.window = {"start": str(frame["ts"].min()), "end": str(frame["ts"].max()),
                     "held_out": f"every {HOLDOUT_EVERY}th week"}
    return result


def _read_telemetry(settings: Settings, days: int) -> tuple[pd.DataFrame, str | None]:
    columns = [c for c in SENSOR_COLUMNS.values() if c not in EXCLUDED_COLUMNS]
    engine = sync_engine(settings)
    try:
        with engine.connect() as conn:
            last = conn.execute(select(func.max(TelemetryRow.ts))).scalar()
            if last is None:
                return pd.DataFrame(), None
            query = select(TelemetryRow.asset_id, TelemetryRow.ts, *[getattr(TelemetryRow, c) for c in columns]).where(
                TelemetryRow.ts >= last - pd.Timedelta(days=days)
            )
            frame = pd.DataFrame(conn.execute(query).all(), columns=["asset_id", "ts", *columns])
    except SQLAlchemyError as exc:
        log.warning("telemetry unreadable (%s); training on the synthetic corpus", exc)
        return pd.DataFrame(), None
    finally:
        engine.dispose()
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True)
    return frame, data_version(settings)


def _synthetic_fallback(days: int) -> FleetSeries:
    """The synthetic corpus in the telemetry frame's shape, split like the real fleet."""
    frames = []
    for number in range(4):
        frame = synthetic_chiller_frame(min(days, 180), seed=7 + number)
        frame.insert(0, "asset_id", f"synthetic-{number}")
        frame["ts"] = pd.to_datetime(frame.pop("timestamp"), format="ISO8601", utc=True)
        frames.append(frame)
    return series_from_telemetry(pd.concat(frames, ignore_index=True), "synthetic:seed=7", "synthetic")
