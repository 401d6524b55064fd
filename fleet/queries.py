"""Synchronous reads of the fleet tables for reports (plot, summary, bench), through SQLAlchemy.

Telemetry comes back with `ts` aware UTC and a `local` column (site-local wall time, naive) that
lines up with work-order and alert times, which the tables keep as naive site-local times.
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd
from sqlalchemy import Connection, and_, or_, select

from assetops.db.tables import (
    AlertEventRow,
    AlertRuleRow,
    AssetRow,
    AssetSensorRow,
    FaultEpisodeRow,
    TelemetryRow,
    WorkOrderRow,
)
from assetops.db.tables.telemetry import SENSOR_COLUMNS
from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE
from fleet.model import EQUIPMENT_IDS, sensors_of

SITE_TIMEZONE = DEFAULT_SITE_TIMEZONE  # naive work-order times are read in the default site zone


def equipment_id_of(conn: Connection, asset_id: str) -> str:
    """The Maximo equipment id of an asset (assets table first, then the fleet's fixed map)."""
    found = conn.execute(select(AssetRow.equipment_id).where(AssetRow.asset_id == asset_id)).scalar()
    return found or EQUIPMENT_IDS.get(asset_id, asset_id)


def asset_sensor_names(conn: Connection, asset_id: str) -> list[str]:
    """Sensor names (without the asset prefix) the asset reports, alphabetical."""
    rows = conn.execute(select(AssetSensorRow.sensor_name).where(AssetSensorRow.asset_id == asset_id)).scalars()
    names = sorted(name.removeprefix(f"{asset_id} ") for name in rows)
    return names or sensors_of(asset_id)


def telemetry_window(conn: Connection, asset_id: str, start: datetime, end: datetime,
                     sensors: list[str] | None = None) -> pd.DataFrame:
    """Samples of `asset_id` with start <= ts < end (aware datetimes), one column per sensor name."""
    sensors = sensors or list(SENSOR_COLUMNS)
    columns = [getattr(TelemetryRow, SENSOR_COLUMNS[s]) for s in sensors]
    query = (select(TelemetryRow.ts, TelemetryRow.utc_offset_min, *columns)
             .where(TelemetryRow.asset_id == asset_id, TelemetryRow.ts >= start, TelemetryRow.ts < end)
             .order_by(TelemetryRow.ts))
    # Plain tuples: pandas probes SQLAlchemy Row objects attribute by attribute, 3x slower.
    frame = pd.DataFrame([tuple(row) for row in conn.execute(query).all()], columns=["ts", "utc_offset_min", *sensors])
    if frame.empty:
        frame["local"] = pd.Series(dtype="datetime64[us]")
        return frame
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True)
    frame["local"] = frame["ts"].dt.tz_localize(None) + pd.to_timedelta(frame["utc_offset_min"], unit="min")
    return frame


def fault_episodes(conn: Connection, asset_id: str, start: datetime, end: datetime) -> pd.DataFrame:
    """Fault episodes of the asset overlapping [start, end), with site-local onset/peak/repair."""
    query = (select(FaultEpisodeRow.episode_id, FaultEpisodeRow.fault_type, FaultEpisodeRow.failure_mode,
                    FaultEpisodeRow.onset, FaultEpisodeRow.peak, FaultEpisodeRow.repair, FaultEpisodeRow.severity)
             .where(FaultEpisodeRow.asset_id == asset_id, FaultEpisodeRow.onset < end,
                    or_(FaultEpisodeRow.repair.is_(None), FaultEpisodeRow.repair >= start))
             .order_by(FaultEpisodeRow.onset))
    frame = pd.DataFrame(conn.execute(query).all(),
                         columns=["episode_id", "fault_type", "failure_mode", "onset", "peak", "repair", "severity"])
    for column in ("onset", "peak", "repair"):
        frame[column] = to_site_local(frame[column])
    return frame


def to_site_local(values: pd.Series) -> pd.Series:
    """Aware datetimes to naive site-local wall time (NaT stays NaT)."""
    if values.empty:
        return pd.Series(dtype="datetime64[us]")
    return pd.to_datetime(values, utc=True).dt.tz_convert(SITE_TIMEZONE).dt.tz_localize(None)


def alert_events(conn: Connection, equipment_id: str, start_local: datetime, end_local: datetime) -> pd.DataFrame:
    """Alerts of the equipment starting in [start_local, end_local), with rule names."""
    query = (select(AlertEventRow.rule_id, AlertRuleRow.rule_name, AlertEventRow.start_time, AlertEventRow.end_time)
             .join(AlertRuleRow, AlertRuleRow.rule_id == AlertEventRow.rule_id, isouter=True)
             .where(AlertEventRow.equipment_id == equipment_id,
                    and_(AlertEventRow.start_time >= start_local, AlertEventRow.start_time < end_local))
             .order_by(AlertEventRow.start_time))
    return pd.DataFrame(conn.execute(query).all(), columns=["rule_id", "rule_name", "start_time", "end_time"])


def work_orders(conn: Connection, equipment_id: str, start_local: datetime, end_local: datetime) -> pd.DataFrame:
    """Work orders of the equipment finished in [start_local, end_local)."""
    query = (select(WorkOrderRow.wo_id, WorkOrderRow.preventive, WorkOrderRow.primary_code,
                    WorkOrderRow.primary_code_description, WorkOrderRow.actual_finish)
             .where(WorkOrderRow.equipment_id == equipment_id, WorkOrderRow.actual_finish >= start_local,
                    WorkOrderRow.actual_finish < end_local)
             .order_by(WorkOrderRow.actual_finish))
    return pd.DataFrame(conn.execute(query).all(),
                        columns=["wo_id", "preventive", "primary_code", "primary_code_description", "actual_finish"])
