"""`FleetData`: the in-memory shape of a fleet, shared by the generator, the importer and the loader.

Every frame's columns are exactly the columns of its table in `assetops.db.tables` (minus
`row_order`, which the loader assigns from the frame's order). A frame may be empty; a frame that
is None means "this source does not provide it, leave the table as it is".
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import pandas as pd

from assetops.db.tables import SENSOR_COLUMNS

SITE = "MAIN"

# Chiller name <-> Maximo equipment id (DATA_MODEL.md). Only the first four have telemetry.
EQUIPMENT_IDS: dict[str, str] = {
    "Chiller 3": "CWC04703",
    "Chiller 4": "CWC04704",
    "Chiller 6": "CWC04006",
    "Chiller 9": "CWC04009",
    "Chiller 1": "CWC04701",
    "Chiller 2": "CWC04702",
    "Chiller 7": "CWC04007",
    "Chiller 10": "CWC04010",
    "Chiller 12": "CWC04012",
    "Chiller 13": "CWC04013",
    "Chiller 14": "CWC04014",
}
TELEMETRY_ASSETS: tuple[str, ...] = ("Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9")

# The ten sensors each telemetry chiller reports (Chiller 6 swaps the condenser temperature).
BASE_SENSORS: tuple[str, ...] = (
    "Chiller % Loaded",
    "Chiller Efficiency",
    "Condenser Water Flow",
    "Condenser Water Supply To Chiller Temperature",
    "Liquid Refrigerant Evaporator Temperature",
    "Power Input",
    "Return Temperature",
    "Setpoint Temperature",
    "Supply Temperature",
    "Tonnage",
)


def sensors_of(asset_id: str) -> list[str]:
    """The sensor names (without asset prefix) an asset reports, in contract (alphabetical) order."""
    names = list(BASE_SENSORS)
    if asset_id == "Chiller 6":
        names[names.index("Condenser Water Supply To Chiller Temperature")] = (
            "Condenser Water Return To Tower Temperature"
        )
    return sorted(names)


def telemetry_columns() -> list[str]:
    """Columns of the telemetry frame: asset_id, ts (aware UTC), utc_offset_min, sensor columns."""
    return ["asset_id", "ts", "utc_offset_min", *SENSOR_COLUMNS.values()]


@dataclass
class FleetData:
    """A whole fleet in memory. Frames use the column names of the matching tables."""

    source: str  # "generated:seed=7" or "assetopsbench:<dir>"
    assets: pd.DataFrame | None = None  # assets
    asset_sensors: pd.DataFrame | None = None  # asset_sensors
    telemetry: pd.DataFrame | None = None  # telemetry (ts aware UTC)
    work_orders: pd.DataFrame | None = None  # work_orders
    events: pd.DataFrame | None = None  # events
    alert_events: pd.DataFrame | None = None  # alert_events
    alert_rules: pd.DataFrame | None = None  # alert_rules
    alert_rule_fc_mapping: pd.DataFrame | None = None  # alert_rule_fc_mapping
    anomaly_events: pd.DataFrame | None = None  # anomaly_events
    anomaly_fc_mapping: pd.DataFrame | None = None  # anomaly_fc_mapping
    failure_codes: pd.DataFrame | None = None  # failure_codes
    primary_failure_codes: pd.DataFrame | None = None  # primary_failure_codes
    fmea: pd.DataFrame | None = None  # fmea
    sensor_relevance: pd.DataFrame | None = None  # sensor_relevance
    fault_episodes: pd.DataFrame | None = None  # fault_episodes
    meta: dict[str, str] = field(default_factory=dict)  # fleet_meta extras (seed, window, ...)

    def frames(self) -> dict[str, pd.DataFrame]:
        """The provided frames by table name (None ones left out)."""
        table_of = {
            "assets": "assets", "asset_sensors": "asset_sensors", "telemetry": "telemetry",
            "work_orders": "work_orders", "events": "events", "alert_events": "alert_events",
            "alert_rules": "alert_rules", "alert_rule_fc_mapping": "alert_rule_fc_mapping",
            "anomaly_events": "anomaly_events", "anomaly_fc_mapping": "anomaly_fc_mapping",
            "failure_codes": "failure_codes", "primary_failure_codes": "primary_failure_codes",
            "fmea": "fmea", "sensor_relevance": "sensor_relevance", "fault_episodes": "fault_episodes",
        }
        out: dict[str, pd.DataFrame] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in table_of and value is not None:
                out[table_of[f.name]] = value
        return out
