"""Small hand-built fleets for the loader, summary and plot tests (no generator involved)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from assetops.db.tables import SENSOR_COLUMNS
from fleet.model import FleetData, telemetry_columns
from tests.support.catalog import default_catalog

SAMPLES = 96  # one day at 15 minutes
START = "2020-11-01 04:00"  # UTC; spans the autumn DST change at the site (06:00 UTC)


def telemetry_frame(asset_id: str = "Chiller 9", samples: int = SAMPLES, start: str = START) -> pd.DataFrame:
    """`samples` rows of `asset_id`: values 0..n per column, every 5th supply temperature NaN,
    columns of sensors the asset lacks all NaN (as the table stores them)."""
    ts = pd.date_range(start, periods=samples, freq="15min", tz="UTC")
    local = ts.tz_convert("America/New_York")
    offsets = (local.tz_localize(None) - ts.tz_localize(None)).total_seconds() // 60
    frame = pd.DataFrame({"asset_id": asset_id, "ts": ts, "utc_offset_min": offsets.astype("int16")})
    reported = {SENSOR_COLUMNS[s] for s in default_catalog().sensors_of(asset_id)}
    for index, column in enumerate(telemetry_columns()[3:]):
        values = np.arange(samples, dtype=float) + index / 10 if column in reported else np.full(samples, np.nan)
        frame[column] = values
    frame.loc[::5, "supply_temp"] = np.nan
    return frame


def work_orders_frame() -> pd.DataFrame:
    """Three work orders, one with an empty priority, finish time and description."""
    return pd.DataFrame({
        "wo_id": ["WO1", "WO2", "WO3"],
        "wo_description": ["Routine maintenance", None, "Condenser tube cleaning"],
        "primary_code": ["MT001", "M013", "MT002"],
        "equipment_id": ["CWC04009", "CWC04009", "CWC04006"],
        "equipment_name": ["Chiller 9", "Chiller 9", "Chiller 6"],
        "preventive": [True, False, True],
        "work_priority": [5, np.nan, 5],
        "actual_finish": pd.to_datetime(["2020-11-01 09:30", None, "2020-10-31 12:00"]),
        "duration": ["3:00", None, "8:00"],
    })


def fault_episodes_frame() -> pd.DataFrame:
    """One fault episode with JSON columns and an open repair date."""
    return pd.DataFrame({
        "episode_id": ["EP-1"], "asset_id": ["Chiller 9"], "equipment_id": ["CWC04009"],
        "fault_type": ["condenser_fouling"], "failure_mode": ["Condenser Water side fouling"],
        "onset": pd.to_datetime(["2020-10-01 00:00"]).tz_localize("UTC"),
        "peak": pd.to_datetime(["2020-11-01 12:00"]).tz_localize("UTC"),
        "repair": [pd.NaT], "severity": [0.8],
        "affected_sensors": [["Power Input", "Chiller Efficiency"]], "details": [{"approach_rise_degF": 4.5}],
    })


def small_fleet(source: str = "test:small", samples: int = SAMPLES) -> FleetData:
    """Two chillers of telemetry, three work orders, one fault episode."""
    telemetry = pd.concat([telemetry_frame("Chiller 9", samples), telemetry_frame("Chiller 6", samples)],
                          ignore_index=True)
    return FleetData(source=source, telemetry=telemetry, work_orders=work_orders_frame(),
                     fault_episodes=fault_episodes_frame(), meta={"purpose": "test"})


def alert_frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two Chiller 9 alerts on the test day (naive site-local times) and their rule."""
    alerts = pd.DataFrame({
        "equipment_id": ["CWC04009", "CWC04009"], "equipment_name": ["Chiller 9", "Chiller 9"],
        "rule_id": ["RUL0018", "RUL0018"],
        "start_time": pd.to_datetime(["2020-11-01 03:00", "2020-11-01 15:00"]),
        "end_time": pd.to_datetime(["2020-11-01 04:00", None]),
    })
    rules = pd.DataFrame({"rule_id": ["RUL0018"], "rule_name": ["Chiller - Evaporator Approach High"]})
    return alerts, rules


def plot_fleet() -> FleetData:
    """`small_fleet` plus alerts, for the plot tests."""
    fleet = small_fleet()
    fleet.alert_events, fleet.alert_rules = alert_frames()
    return fleet
