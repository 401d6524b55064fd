"""A small, hand-built fleet in a temporary SQLite database, shared by the tool tests.

Values are simple closed-form functions of the row position, so tests can state expectations
without running the code under test: sensor k of a row i holds `k * 1000 + i` (see `value_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
from sqlalchemy import inspect

from assetops.db import migrate
from assetops.db.base import Base
from assetops.db.engine import sync_engine
from assetops.db.tables import SENSOR_COLUMNS
from assetops.settings import Settings
from fleet.loader import load_fleet
from fleet.model import FleetData
from tests.support.catalog import default_catalog

SITE_ZONE = ZoneInfo("America/New_York")
# Chiller 9: late May to early July 2020 plus a window across the November 2020 DST change.
CHILLER9_SPANS = (("2020-05-30", "2020-07-03"), ("2020-10-30", "2020-11-03"))
CHILLER6_SPANS = (("2020-06-01", "2020-06-08"),)
# Chiller 6 reports no condenser water flow in the small fleet: the column rule must drop it.
CHILLER6_MISSING = "Condenser Water Flow"
OFF_GRID_LOCAL = "2020-06-10T14:43:27.589000"  # one off-grid sample with microseconds (Chiller 9)


@dataclass(frozen=True)
class SmallFleet:
    """The loaded fleet: settings pointing at it and the telemetry frame that was loaded."""

    settings: Settings
    telemetry: pd.DataFrame


def value_of(sensor_index: int, row_index: np.ndarray) -> np.ndarray:
    """The stored value of the sensor at `sensor_index` (alphabetical) for rows `row_index`."""
    return sensor_index * 1000.0 + row_index


def _asset_telemetry(asset_id: str, spans: tuple[tuple[str, str], ...], extra_local: list[str]) -> pd.DataFrame:
    local = pd.DatetimeIndex([])
    for start, end in spans:
        local = local.append(pd.date_range(start, end, freq="15min", inclusive="left", tz=SITE_ZONE))
    if extra_local:
        local = local.append(pd.DatetimeIndex(extra_local).tz_localize(SITE_ZONE))
    local = local.sort_values()
    ts = local.tz_convert("UTC")
    offsets = [int(t.utcoffset().total_seconds() // 60) for t in local]
    frame = pd.DataFrame({"asset_id": asset_id, "ts": ts, "utc_offset_min": offsets})
    rows = np.arange(len(frame), dtype=float)
    for k, sensor in enumerate(default_catalog().sensors_of(asset_id)):
        if asset_id == "Chiller 6" and sensor == CHILLER6_MISSING:
            continue
        frame[SENSOR_COLUMNS[sensor]] = value_of(k, rows)
    return frame


def small_fleet_data() -> FleetData:
    """Assets, sensors and telemetry of Chiller 6 and Chiller 9 (Chiller 3 known, without data)."""
    telemetry = pd.concat(
        [_asset_telemetry("Chiller 9", CHILLER9_SPANS, [OFF_GRID_LOCAL]), _asset_telemetry("Chiller 6", CHILLER6_SPANS, [])],
        ignore_index=True,
    )
    assets = pd.DataFrame(
        [{"asset_id": a, "site": "MAIN", "equipment_id": default_catalog().equipment_id_of(a), "asset_class": "chiller",
          "has_telemetry": a != "Chiller 3"} for a in ("Chiller 3", "Chiller 6", "Chiller 9")]
    )
    sensors = pd.DataFrame(
        [{"asset_id": a, "sensor_name": f"{a} {s}", "column_name": SENSOR_COLUMNS[s], "unit": ""}
         for a in ("Chiller 6", "Chiller 9") for s in default_catalog().sensors_of(a)]
    )
    return FleetData(source="tests:small", assets=assets, asset_sensors=sensors, telemetry=telemetry)


def build_small_fleet(root: Path, database_url: str | None = None) -> SmallFleet:
    """Create the schema (default: SQLite in `root/data/assetops.db`) and load the small fleet into it."""
    settings = Settings(
        data_dir=root / "data", work_dir=root / "work", models_dir=root / "models",
        database_url=database_url or f"sqlite:///{root / 'data' / 'assetops.db'}",
    )
    migrate.upgrade(settings)
    engine = sync_engine(settings)
    try:
        if "telemetry" not in inspect(engine).get_table_names():  # no migration revision yet
            Base.metadata.create_all(engine)
    finally:
        engine.dispose()
    data = small_fleet_data()
    load_fleet(settings, data)
    return SmallFleet(settings=settings, telemetry=data.telemetry)
