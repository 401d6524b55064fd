"""load_fleet on SQLite: round trip, reloads, partial fleets, validation, progress."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from assetops.db.engine import sync_engine
from assetops.db.tables import TelemetryRow, WorkOrderRow
from assetops.settings import Settings
from fleet.loader import (
    FleetDataError,
    LoadProgress,
    data_version,
    is_fleet_loaded,
    load_fleet,
)
from fleet.model import FleetData
from tests.conftest import make_settings
from tests.unit.fleet_store import loader_checks
from tests.unit.fleet_store.fleet_builders import small_fleet, telemetry_frame, work_orders_frame


def _count(settings: Settings, row: type) -> int:
    engine = sync_engine(settings)
    try:
        with Session(engine) as session:
            return int(session.scalar(select(func.count()).select_from(row)) or 0)
    finally:
        engine.dispose()


def test_round_trip_keeps_counts_nulls_order_and_utc_timestamps(fleet_db: Settings) -> None:
    loader_checks.check_round_trip(fleet_db)


def test_timestamp_window_query_matches_loaded_rows(fleet_db: Settings) -> None:
    loader_checks.check_window_query(fleet_db)


def test_reload_replaces_rows_and_changes_data_version(fleet_db: Settings) -> None:
    loader_checks.check_reload_bumps_version(fleet_db)


def test_partial_fleet_replaces_only_its_tables(fleet_db: Settings) -> None:
    load_fleet(fleet_db, small_fleet())
    before = _count(fleet_db, TelemetryRow)
    orders = work_orders_frame().head(1)
    load_fleet(fleet_db, FleetData(source="test:orders-only", work_orders=orders))
    assert _count(fleet_db, TelemetryRow) == before
    assert _count(fleet_db, WorkOrderRow) == 1


def test_naive_telemetry_timestamps_are_refused_with_the_fix(fleet_db: Settings) -> None:
    telemetry = telemetry_frame()
    telemetry["ts"] = telemetry["ts"].dt.tz_localize(None)
    with pytest.raises(FleetDataError, match=r"naive datetimes.*attach the UTC offset"):
        load_fleet(fleet_db, FleetData(source="test", telemetry=telemetry))
    assert not is_fleet_loaded(fleet_db)


def test_unknown_column_is_refused_and_nothing_changes(fleet_db: Settings) -> None:
    load_fleet(fleet_db, small_fleet())
    version = data_version(fleet_db)
    orders = work_orders_frame().assign(colour="red")
    with pytest.raises(FleetDataError, match="unknown columns \\['colour'\\]"):
        load_fleet(fleet_db, FleetData(source="test", telemetry=telemetry_frame(samples=3), work_orders=orders))
    assert data_version(fleet_db) == version
    assert _count(fleet_db, TelemetryRow) == len(small_fleet().telemetry)


def test_empty_database_reports_no_fleet_and_no_version(fleet_db: Settings, tmp_path: Path) -> None:
    assert data_version(fleet_db) is None
    assert not is_fleet_loaded(fleet_db)
    no_schema = make_settings(tmp_path / "bare")
    assert data_version(no_schema) is None
    assert not is_fleet_loaded(no_schema)


def test_progress_reaches_every_table_in_full(fleet_db: Settings) -> None:
    seen: list[LoadProgress] = []
    fleet = small_fleet()
    load_fleet(fleet_db, fleet, progress=seen.append)
    finals = {p.table: p for p in seen if p.rows_done == p.rows_total and p.tables_done > 0}
    assert set(finals) == {"telemetry", "work_orders", "fault_episodes"}
    assert finals["telemetry"].rows_total == len(fleet.telemetry)
    assert seen[-1].tables_done == seen[-1].tables_total == 3


def test_loaded_fleet_is_detected(fleet_db: Settings) -> None:
    load_fleet(fleet_db, FleetData(source="test", telemetry=telemetry_frame(samples=4)))
    assert is_fleet_loaded(fleet_db)
    assert pd.notna(data_version(fleet_db))


def test_empty_cells_of_not_null_columns_take_the_column_default(fleet_db: Settings) -> None:
    orders = work_orders_frame()
    orders["preventive"] = [True, None, False]
    load_fleet(fleet_db, FleetData(source="test", work_orders=orders))
    engine = sync_engine(fleet_db)
    try:
        with Session(engine) as session:
            stored = session.scalars(select(WorkOrderRow.preventive).order_by(WorkOrderRow.row_order)).all()
    finally:
        engine.dispose()
    assert stored == [True, False, False]  # WorkOrderRow.preventive defaults to False


def test_unreachable_database_is_an_error_not_an_empty_fleet(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, database_url="postgresql://postgres@127.0.0.1:1/test")
    with pytest.raises(OperationalError):
        data_version(settings)
    with pytest.raises(OperationalError):
        is_fleet_loaded(settings)
