"""Async metadata reads for the `iot` server: asset catalogue, sensors with data, coverage.

Telemetry windows themselves are read by `tools.iot_fetch` (blocking, in a worker thread).

Stored timestamps are UTC (`ts`) plus the site's offset at that moment (`utc_offset_min`); the
contract shows site-local ISO strings with offset, so rendering adds the two back together.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
from sqlalchemy import func, select

from assetops.db.tables import SENSOR_COLUMNS, AssetRow, AssetSensorRow, TelemetryRow
from tools.framework import ToolContext
from tools.framework.cache import data_version
from tools.iot_shapes import local_iso

_COLUMN_SENSOR = {column: sensor for sensor, column in SENSOR_COLUMNS.items()}
_catalogue_memo: dict[tuple[str, str | None], dict[str, dict[str, list[str]]]] = {}


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
    utc = np.array([_naive_utc(first[0]), _naive_utc(last[0])], dtype="datetime64[us]")
    return local_iso(utc, np.array([first[1], last[1]])).tolist(), int(count or 0)


def _naive_utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo is not None else moment
