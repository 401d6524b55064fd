"""What is loaded: coverage per asset, rows per table, fault episodes, work orders, data version."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from sqlalchemy import Connection, case, func, select

import assetops.db.tables  # noqa: F401  (registers every table on Base.metadata)
from assetops.db.base import Base
from assetops.db.engine import sync_engine
from assetops.db.tables import AssetSensorRow, FaultEpisodeRow, TelemetryRow, WorkOrderRow
from assetops.db.tables.telemetry import SENSOR_COLUMNS
from assetops.settings import Settings
from fleet.loader import read_fleet_meta
from fleet.model import sensors_of

SAMPLE_PERIOD = timedelta(minutes=15)
FLEET_TABLES = ("assets", "asset_sensors", "telemetry", "work_orders", "events", "alert_events", "alert_rules",
                "alert_rule_fc_mapping", "anomaly_events", "anomaly_fc_mapping", "failure_codes",
                "primary_failure_codes", "fmea", "sensor_relevance", "fault_episodes")
SPARSE_SENSORS = frozenset({"Run Status", "Schedule"})  # reported now and then by design


@dataclass(frozen=True)
class AssetCoverage:
    """Telemetry of one asset: span, rows, and the share of expected sensor values that is absent."""

    asset_id: str
    first: datetime
    last: datetime
    rows: int
    sensors: int
    missing_pct: float  # over the 15-minute grid from first to last x the asset's sensors


@dataclass(frozen=True)
class WorkOrderCount:
    """Preventive and corrective work orders of one equipment id."""

    equipment_id: str
    equipment_name: str
    preventive: int
    corrective: int


@dataclass(frozen=True)
class EpisodeLine:
    """One fault episode, as listed by the summary."""

    asset_id: str
    fault_type: str
    failure_mode: str
    onset: datetime
    repair: datetime | None
    severity: float


@dataclass
class FleetSummary:
    """Everything `assetops fleet summary` shows."""

    meta: dict[str, str]
    table_rows: dict[str, int] = field(default_factory=dict)
    coverage: list[AssetCoverage] = field(default_factory=list)
    episodes: list[EpisodeLine] = field(default_factory=list)
    work_orders: list[WorkOrderCount] = field(default_factory=list)


def fleet_summary(settings: Settings) -> FleetSummary:
    """Read the summary from the database (tables must exist: run `assetops db upgrade` first)."""
    engine = sync_engine(settings)
    try:
        with engine.connect() as conn:
            return FleetSummary(meta=read_fleet_meta(settings), table_rows=_table_rows(conn),
                                coverage=_coverage(conn), episodes=_episodes(conn), work_orders=_work_orders(conn))
    finally:
        engine.dispose()


def _table_rows(conn: Connection) -> dict[str, int]:
    tables = Base.metadata.tables
    return {name: int(conn.execute(select(func.count()).select_from(tables[name])).scalar_one())
            for name in FLEET_TABLES}


def _sensor_counts(conn: Connection) -> dict[str, list[str]]:
    rows = conn.execute(select(AssetSensorRow.asset_id, AssetSensorRow.sensor_name)).all()
    out: dict[str, list[str]] = {}
    for asset_id, name in rows:
        sensor = name.removeprefix(f"{asset_id} ")
        if sensor not in SPARSE_SENSORS:
            out.setdefault(asset_id, []).append(sensor)
    return out


def _coverage(conn: Connection) -> list[AssetCoverage]:
    present = [func.count(getattr(TelemetryRow, column)).label(column) for column in SENSOR_COLUMNS.values()]
    query = (select(TelemetryRow.asset_id, func.min(TelemetryRow.ts), func.max(TelemetryRow.ts), func.count(),
                    *present).group_by(TelemetryRow.asset_id).order_by(TelemetryRow.asset_id))
    sensors_by_asset = _sensor_counts(conn)
    out = []
    for row in conn.execute(query).all():
        asset_id, first, last, rows = row[0], row[1], row[2], int(row[3])
        counts = dict(zip(SENSOR_COLUMNS, row[4:], strict=True))
        sensors = sensors_by_asset.get(asset_id) or sensors_of(asset_id)
        expected = ((last - first) // SAMPLE_PERIOD + 1) * len(sensors)
        found = sum(int(counts[s]) for s in sensors)
        missing = max(0.0, 100.0 * (1 - found / expected)) if expected else 0.0
        out.append(AssetCoverage(asset_id, first, last, rows, len(sensors), round(missing, 2)))
    return out


def _episodes(conn: Connection) -> list[EpisodeLine]:
    query = select(FaultEpisodeRow.asset_id, FaultEpisodeRow.fault_type, FaultEpisodeRow.failure_mode,
                   FaultEpisodeRow.onset, FaultEpisodeRow.repair, FaultEpisodeRow.severity).order_by(
        FaultEpisodeRow.asset_id, FaultEpisodeRow.onset)
    return [EpisodeLine(*row) for row in conn.execute(query).all()]


def _work_orders(conn: Connection) -> list[WorkOrderCount]:
    preventive = func.sum(case((WorkOrderRow.preventive.is_(True), 1), else_=0))
    corrective = func.sum(case((WorkOrderRow.preventive.is_(True), 0), else_=1))
    query = (select(WorkOrderRow.equipment_id, func.max(WorkOrderRow.equipment_name), preventive, corrective)
             .group_by(WorkOrderRow.equipment_id).order_by(WorkOrderRow.equipment_id))
    return [WorkOrderCount(eid, name or "", int(p or 0), int(c or 0)) for eid, name, p, c in conn.execute(query).all()]


def render_summary(summary: FleetSummary, console: Console) -> None:
    """Print the summary as rich tables."""
    meta = summary.meta
    console.print(f"[bold]data version[/bold] {meta.get('data_version', '(nothing loaded)')}   "
                  f"[bold]source[/bold] {meta.get('source', '-')}   [bold]loaded[/bold] {meta.get('loaded_at', '-')}")
    coverage = RichTable(title="Telemetry coverage (UTC)", box=box.SIMPLE_HEAD)
    for name in ("asset", "first", "last", "rows", "sensors", "missing %"):
        coverage.add_column(name, justify="right" if name in ("rows", "sensors", "missing %") else "left",
                            no_wrap=True)
    for c in summary.coverage:
        coverage.add_row(c.asset_id, f"{c.first:%Y-%m-%d %H:%M}", f"{c.last:%Y-%m-%d %H:%M}", f"{c.rows:,}",
                         str(c.sensors), f"{c.missing_pct:.2f}")
    console.print(coverage)
    counts = RichTable(title="Rows per table", box=box.SIMPLE_HEAD)
    counts.add_column("table")
    counts.add_column("rows", justify="right")
    for name, rows in summary.table_rows.items():
        counts.add_row(name, f"{rows:,}")
    console.print(counts)
    episodes = RichTable(title=f"Fault episodes ({len(summary.episodes)}; dates UTC)", box=box.SIMPLE_HEAD)
    for name in ("asset", "fault type", "failure mode", "onset", "repair", "severity"):
        # Only the long failure-mode text wraps; ids and dates stay whole.
        episodes.add_column(name, no_wrap=name != "failure mode")
    for e in summary.episodes:
        episodes.add_row(e.asset_id, e.fault_type, e.failure_mode, f"{e.onset:%Y-%m-%d}",
                         f"{e.repair:%Y-%m-%d}" if e.repair else "-", f"{e.severity:.2f}")
    console.print(episodes)
    orders = RichTable(title="Work orders per equipment", box=box.SIMPLE_HEAD)
    for name in ("equipment", "name", "preventive", "corrective"):
        orders.add_column(name, justify="right" if name in ("preventive", "corrective") else "left")
    for w in summary.work_orders:
        orders.add_row(w.equipment_id, w.equipment_name, f"{w.preventive:,}", f"{w.corrective:,}")
    console.print(orders)
