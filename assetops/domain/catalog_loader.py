"""Reads the `FleetCatalog` from the loaded fleet tables (assets, asset_sensors, telemetry, fleet_meta,
alert_rules)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from assetops.db.engine import Database
from assetops.db.tables import (
    AlertRuleFailureCodeRow,
    AlertRuleRow,
    AssetRow,
    AssetSensorRow,
    FleetMetaRow,
    TelemetryRow,
)
from assetops.domain.catalog import (
    DEFAULT_SITE_TIMEZONE,
    STATUS_CHANNELS,
    TIMEZONE_META_KEY,
    AssetInfo,
    FleetCatalog,
)


def _bare(asset_id: str, sensor_name: str) -> str:
    prefix = f"{asset_id} "
    return sensor_name[len(prefix):] if sensor_name.startswith(prefix) else sensor_name


def asset_info(asset_id: str, equipment_id: str, site: str, asset_class: str, has_telemetry: bool,
               sensor_names: list[str]) -> AssetInfo:
    """An `AssetInfo` from one assets row and its asset_sensors names (full or bare)."""
    bare = sorted({_bare(asset_id, name) for name in sensor_names})
    return AssetInfo(asset_id=asset_id, equipment_id=equipment_id, site=site, asset_class=asset_class,
                     has_telemetry=has_telemetry, sensors=tuple(n for n in bare if n not in STATUS_CHANNELS),
                     status_channels=tuple(n for n in bare if n in STATUS_CHANNELS))


async def _coverage(session: AsyncSession, telemetry_assets: list[str]) -> tuple[datetime | None, datetime | None]:
    """First and last sample over the telemetry assets; per asset so each query walks the key index."""
    starts: list[datetime] = []
    ends: list[datetime] = []
    for asset_id in telemetry_assets:
        where = TelemetryRow.asset_id == asset_id
        first = await session.scalar(select(func.min(TelemetryRow.ts)).where(where))
        last = await session.scalar(select(func.max(TelemetryRow.ts)).where(where))
        if first is not None and last is not None:
            starts.append(first)
            ends.append(last)
    return (min(starts), max(ends)) if starts else (None, None)


async def load_catalog(db: Database) -> FleetCatalog:
    """The catalog of the fleet loaded in `db`; an empty catalog when no fleet is loaded.

    The time zone is the one the loader stored in `fleet_meta`, or the generator's default for a
    database loaded before it was stored.
    """
    async with db.session() as session:
        assets = (await session.execute(select(AssetRow))).scalars().all()
        sensor_rows = (await session.execute(select(AssetSensorRow.asset_id, AssetSensorRow.sensor_name))).all()
        zone = await session.scalar(select(FleetMetaRow.value).where(FleetMetaRow.key == TIMEZONE_META_KEY))
        sensors: dict[str, list[str]] = {}
        for asset_id, sensor_name in sensor_rows:
            sensors.setdefault(asset_id, []).append(_bare(asset_id, sensor_name))
        start, end = await _coverage(session, [a.asset_id for a in assets if a.has_telemetry])
        rules = (await session.execute(select(AlertRuleRow.rule_id, AlertRuleRow.rule_name)
                                       .order_by(AlertRuleRow.rule_id))).all()
        codes = (await session.execute(select(AlertRuleFailureCodeRow.rule_id, AlertRuleFailureCodeRow.primary_code,
                                              AlertRuleFailureCodeRow.primary_code_description)
                                       .order_by(AlertRuleFailureCodeRow.row_order))).all()
    infos = tuple(asset_info(a.asset_id, a.equipment_id, a.site, a.asset_class, bool(a.has_telemetry),
                             sensors.get(a.asset_id, [])) for a in assets)
    sites = tuple(dict.fromkeys(a.site for a in infos))
    return FleetCatalog(sites=sites, timezone=zone or DEFAULT_SITE_TIMEZONE, assets=infos,
                        telemetry_start=start, telemetry_end=end,
                        alert_rules=tuple((str(r), str(n)) for r, n in rules),
                        rule_failure_codes=tuple((str(r), str(c), str(d or "")) for r, c, d in codes))
