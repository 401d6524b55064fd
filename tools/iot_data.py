"""Telemetry reads for the `iot` server: asset catalogue, one indexed window query, frame shaping.

Stored timestamps are UTC (`ts`) plus the site's offset at that moment (`utc_offset_min`); the
contract shows site-local ISO strings with offset, so rendering adds the two back together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pandas as pd
from sqlalchemy import String, func, select, type_coerce

from assetops.db.tables import SENSOR_COLUMNS, AssetRow, AssetSensorRow, TelemetryRow
from tools.framework import ToolContext
from tools.framework.cache import data_version
from tools.iot_shapes import local_iso

# Naive bounds are site-local; real UTC offsets lie within +-14 h, so a query widened by this
# margin always contains the window, and the exact cut happens on local time afterwards.
LOCAL_MARGIN = timedelta(hours=14)
_COLUMN_SENSOR = {column: sensor for sensor, column in SENSOR_COLUMNS.items()}
_catalogue_memo: dict[tuple[str, str | None], dict[str, dict[str, list[str]]]] = {}


@dataclass(frozen=True)
class Window:
    """A requested window: `start` inclusive, `final` exclusive (None = open end)."""

    start: datetime
    final: datetime | None


def _bare_sensor_name(asset_id: str, sensor: str) -> str:
    prefix = f"{asset_id} "
    return sensor[len(prefix):] if sensor.startswith(prefix) else sensor


async def _load_catalogue(ctx: ToolContext) -> dict[str, dict[str, list[str]]]:
    """{site: {asset_id: [bare sensor names, alphabetical]}} for the assets that have telemetry."""
    catalogue: dict[str, dict[str, list[str]]] = {}
    async with ctx.db.session() as session:
        assets: list[tuple[str, str]] = [
            (site, asset_id)
            for site, asset_id in await session.execute(select(AssetRow.site, AssetRow.asset_id).where(AssetRow.has_telemetry))
        ]
        sensor_rows = (await session.execute(select(AssetSensorRow.asset_id, AssetSensorRow.sensor_name))).all()
        if not assets:  # telemetry loaded without an asset table (bare imports, hand-built test data)
            ids = (await session.execute(select(TelemetryRow.asset_id).distinct())).scalars().all()
            assets = [("MAIN", asset_id) for asset_id in ids]
    sensors: dict[str, set[str]] = {}
    for asset_id, sensor in sensor_rows:
        sensors.setdefault(asset_id, set()).add(_bare_sensor_name(asset_id, sensor))
    for site, asset_id in assets:
        names = sorted(s for s in sensors.get(asset_id, set()) if s in SENSOR_COLUMNS)
        catalogue.setdefault(site, {})[asset_id] = names
    return catalogue


async def catalogue(ctx: ToolContext) -> dict[str, dict[str, list[str]]]:
    """The asset catalogue, remembered per database and data version (it only changes on a load)."""
    version = await data_version(ctx)
    key = (ctx.db.url, version)
    if version is None or key not in _catalogue_memo:
        _catalogue_memo[key] = await _load_catalogue(ctx)
    return _catalogue_memo[key]


async def sensors_with_data(ctx: ToolContext, asset_id: str) -> list[str]:
    """Bare sensor names with at least one stored value (used when asset_sensors has no rows)."""
    columns = list(SENSOR_COLUMNS.values())
    table = TelemetryRow.__table__
    stmt = select(*(func.count(table.c[c]) for c in columns)).where(table.c.asset_id == asset_id)
    async with ctx.db.session() as session:
        counts = (await session.execute(stmt)).one()
    return sorted(_COLUMN_SENSOR[c] for c, n in zip(columns, counts, strict=True) if n)


def _query_bounds(window: Window) -> tuple[datetime, datetime | None]:
    """UTC-comparable bounds for the indexed query (widened for naive, site-local bounds)."""
    start, final = window.start, window.final
    lo = start if start.tzinfo is not None else (start - LOCAL_MARGIN).replace(tzinfo=UTC)
    if final is None:
        return lo, None
    return lo, final if final.tzinfo is not None else (final + LOCAL_MARGIN).replace(tzinfo=UTC)


async def read_window(
    ctx: ToolContext, asset_id: str, sensors: list[str], window: Window, cap: int
) -> tuple[pd.DataFrame, bool]:
    """Rows of `asset_id` inside `window`, oldest first, at most `cap`; also whether the cap cut it.

    One range query on the (asset_id, ts) primary key. Returns columns ts (UTC), utc_offset_min and
    one column per bare sensor name.
    """
    table = TelemetryRow.__table__
    lo, hi = _query_bounds(window)
    naive = window.start.tzinfo is None or (window.final is not None and window.final.tzinfo is None)
    # Widened windows can hold up to 2 x 14 h of extra samples; fetch enough to still fill the cap.
    limit = cap + 1 + (2 * 14 * 4 * 4 if naive else 0)
    # SQLite stores the UTC time as text: fetching it raw and parsing the whole column at once is
    # several times faster than SQLAlchemy's per-row datetime conversion.
    ts_column = type_coerce(table.c.ts, String) if ctx.db.dialect == "sqlite" else table.c.ts
    stmt = select(ts_column, table.c.utc_offset_min, *(table.c[SENSOR_COLUMNS[s]] for s in sensors))
    stmt = stmt.where(table.c.asset_id == asset_id, table.c.ts >= lo)
    if hi is not None:
        stmt = stmt.where(table.c.ts < hi)
    stmt = stmt.order_by(table.c.ts).limit(limit)
    async with ctx.db.session() as session:
        rows = (await session.execute(stmt)).all()
    frame = _column_frame(rows, ["ts", "utc_offset_min", *sensors])
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True, format="ISO8601")
    inside = _inside(frame, window)
    frame = frame[inside]
    # Hitting the SQL limit with the last fetched row still inside the window means more may follow.
    truncated = len(frame) > cap or (len(rows) == limit and bool(inside.iloc[-1]))
    return frame.iloc[:cap].reset_index(drop=True), truncated


def _column_frame(rows: Sequence[Any], names: list[str]) -> pd.DataFrame:
    """Rows -> frame by columns: one transpose instead of pandas probing every SQLAlchemy Row."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    return pd.DataFrame({name: list(values) for name, values in zip(names, columns, strict=True)})


def _as_series_bound(moment: datetime, frame: pd.DataFrame, local: pd.Series) -> pd.Series:
    return local if moment.tzinfo is None else frame["ts"]


def _inside(frame: pd.DataFrame, window: Window) -> pd.Series:
    """Vectorised window test: naive bounds compare with local time, aware ones with UTC."""
    local = frame["ts"].dt.tz_localize(None) + pd.to_timedelta(frame["utc_offset_min"], unit="min")
    start_series = _as_series_bound(window.start, frame, local)
    mask = start_series >= _bound_value(window.start)
    if window.final is not None:
        mask &= _as_series_bound(window.final, frame, local) < _bound_value(window.final)
    return mask


def _bound_value(moment: datetime) -> pd.Timestamp:
    return pd.Timestamp(moment) if moment.tzinfo is None else pd.Timestamp(moment).tz_convert("UTC")


async def coverage(ctx: ToolContext, asset_id: str) -> tuple[list[str], int] | None:
    """(first and last local ISO timestamps, row count) of an asset's telemetry, or None if it has none."""
    table = TelemetryRow.__table__
    async with ctx.db.session() as session:
        first = (await session.execute(
            select(table.c.ts, table.c.utc_offset_min).where(table.c.asset_id == asset_id).order_by(table.c.ts).limit(1)
        )).first()
        last = (await session.execute(
            select(table.c.ts, table.c.utc_offset_min)
            .where(table.c.asset_id == asset_id).order_by(table.c.ts.desc()).limit(1)
        )).first()
        count = await session.scalar(select(func.count()).where(table.c.asset_id == asset_id))
    if first is None or last is None:
        return None
    edges = pd.DataFrame([tuple(first), tuple(last)], columns=["ts", "utc_offset_min"])
    edges["ts"] = pd.to_datetime(edges["ts"], utc=True)
    return local_iso(edges).tolist(), int(count or 0)


def sensor_columns_with_values(frame: pd.DataFrame, sensors: list[str]) -> list[str]:
    """The sensors that have at least one value in the window (the contract's column rule)."""
    return [s for s in sensors if bool(frame[s].notna().any())]
