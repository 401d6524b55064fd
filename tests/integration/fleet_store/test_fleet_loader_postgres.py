"""load_fleet on the real PostgreSQL (binary COPY): the same round trip as on SQLite, plus the import."""

from __future__ import annotations

import pytest

from assetops.settings import Settings
from fleet.importer import read_assetopsbench
from fleet.loader import is_fleet_loaded, load_fleet
from fleet.summary import fleet_summary
from tests.conftest import require_shared
from tests.unit.fleet_store import loader_checks

pytestmark = pytest.mark.integration



def test_round_trip_keeps_counts_nulls_order_and_utc_timestamps(pg_fleet_db: Settings) -> None:
    loader_checks.check_round_trip(pg_fleet_db)


def test_timestamp_window_query_matches_loaded_rows(pg_fleet_db: Settings) -> None:
    loader_checks.check_window_query(pg_fleet_db)


def test_reload_replaces_rows_and_changes_data_version(pg_fleet_db: Settings) -> None:
    loader_checks.check_reload_bumps_version(pg_fleet_db)
    assert is_fleet_loaded(pg_fleet_db)


def test_assetopsbench_import_loads_every_file(pg_fleet_db: Settings) -> None:
    data = read_assetopsbench(require_shared("assetopsbench"))
    report = load_fleet(pg_fleet_db, data)
    rows = fleet_summary(pg_fleet_db).table_rows
    assert {t.table: rows[t.table] for t in report.tables} == {n: len(f) for n, f in data.frames().items()}
    assert rows["work_orders"] == 4249 and rows["telemetry"] == 2896
