"""A `FleetCatalog` built from an in-memory fleet (`FleetData`) or from a generator configuration.

The service reads its catalog from the database (`assetops.domain.catalog_loader`); these builders
give the same catalog without one: for a fleet about to be loaded, and for tests that need the
default fleet's catalog without generating its telemetry.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

import pandas as pd

from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE, TIMEZONE_META_KEY, FleetCatalog
from assetops.domain.catalog_loader import asset_info
from fleet.generator.config import SAMPLE_MINUTES, SITE_TIMEZONE, GeneratorConfig
from fleet.generator.fleet import asset_sensors_frame, assets_frame
from fleet.generator.knowledge_frames import alert_rule_frame, alert_rule_mapping_frame
from fleet.model import FleetData


def catalog_from_frames(assets: pd.DataFrame, asset_sensors: pd.DataFrame, timezone: str,
                        telemetry_start: datetime | None, telemetry_end: datetime | None,
                        alert_rules: pd.DataFrame | None = None,
                        rule_failure_codes: pd.DataFrame | None = None) -> FleetCatalog:
    """The catalog of an `assets`, an `asset_sensors`, an `alert_rules` and an `alert_rule_fc_mapping` frame (the
    tables' columns)."""
    names: dict[str, list[str]] = {}
    for row in asset_sensors.itertuples(index=False):
        names.setdefault(str(row.asset_id), []).append(str(row.sensor_name))
    infos = tuple(asset_info(str(r.asset_id), str(r.equipment_id), str(r.site), str(r.asset_class),
                             bool(r.has_telemetry), names.get(str(r.asset_id), []))
                  for r in assets.itertuples(index=False))
    rules = () if alert_rules is None else tuple(sorted((str(r.rule_id), str(r.rule_name))
                                                        for r in alert_rules.itertuples(index=False)))
    codes = () if rule_failure_codes is None else tuple(
        (str(r.rule_id), str(r.primary_code), str(r.primary_code_description or ""))
        for r in rule_failure_codes.itertuples(index=False))
    return FleetCatalog(sites=tuple(dict.fromkeys(a.site for a in infos)), timezone=timezone, assets=infos,
                        telemetry_start=telemetry_start, telemetry_end=telemetry_end, alert_rules=rules,
                        rule_failure_codes=codes)


def catalog_of(data: FleetData) -> FleetCatalog:
    """The catalog the database will hold once `data` is loaded."""
    empty_assets = pd.DataFrame(columns=["asset_id", "site", "equipment_id", "asset_class", "has_telemetry"])
    empty_sensors = pd.DataFrame(columns=["asset_id", "sensor_name"])
    start = end = None
    if data.telemetry is not None and len(data.telemetry):
        start = pd.Timestamp(data.telemetry["ts"].min()).to_pydatetime()
        end = pd.Timestamp(data.telemetry["ts"].max()).to_pydatetime()
    return catalog_from_frames(data.assets if data.assets is not None else empty_assets,
                               data.asset_sensors if data.asset_sensors is not None else empty_sensors,
                               data.meta.get(TIMEZONE_META_KEY, DEFAULT_SITE_TIMEZONE), start, end, data.alert_rules,
                               data.alert_rule_fc_mapping)


def generated_catalog(config: GeneratorConfig | None = None) -> FleetCatalog:
    """The catalog of the fleet `config` generates (default: the default fleet), without generating it."""
    return _default_catalog() if config is None else _generated(config)


@lru_cache(maxsize=1)
def _default_catalog() -> FleetCatalog:
    return _generated(GeneratorConfig())


def _generated(config: GeneratorConfig) -> FleetCatalog:
    zone = ZoneInfo(SITE_TIMEZONE)
    first = datetime.combine(config.start, time(0, 0), tzinfo=zone).astimezone(UTC)
    after = datetime.combine(config.end + timedelta(days=1), time(0, 0), tzinfo=zone).astimezone(UTC)
    return catalog_from_frames(assets_frame(config), asset_sensors_frame(config), SITE_TIMEZONE, first,
                               after - timedelta(minutes=SAMPLE_MINUTES), alert_rule_frame(),
                               alert_rule_mapping_frame())
