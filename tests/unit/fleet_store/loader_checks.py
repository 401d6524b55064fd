"""Round-trip checks shared by the SQLite (unit) and Postgres (integration) loader tests."""

from __future__ import annotations

import math

import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from assetops.db.engine import sync_engine
from assetops.db.tables import FaultEpisodeRow, TelemetryRow, WorkOrderRow
from assetops.settings import Settings
from fleet.loader import data_version, load_fleet, read_fleet_meta
from tests.unit.fleet_store.fleet_builders import small_fleet


def check_round_trip(settings: Settings) -> None:
    """Counts, NULLs for NaN, aware UTC timestamps, row order, booleans and JSON survive a load."""
    fleet = small_fleet()
    report = load_fleet(settings, fleet)
    assert report.rows_of("telemetry") == len(fleet.telemetry)
    engine = sync_engine(settings)
    try:
        with Session(engine) as session:
            assert session.scalar(select(func.count()).select_from(TelemetryRow)) == len(fleet.telemetry)
            rows = session.scalars(select(TelemetryRow).where(TelemetryRow.asset_id == "Chiller 9")
                                   .order_by(TelemetryRow.ts)).all()
            expected = fleet.telemetry[fleet.telemetry["asset_id"] == "Chiller 9"].reset_index(drop=True)
            assert [r.ts for r in rows] == [t.to_pydatetime() for t in expected["ts"]]
            assert all(r.ts.utcoffset() is not None and r.ts.utcoffset().total_seconds() == 0 for r in rows)
            assert [r.utc_offset_min for r in rows[:10]] == expected["utc_offset_min"].head(10).tolist()
            for row, (_, want) in zip(rows, expected.iterrows(), strict=True):
                assert (row.supply_temp is None) == math.isnan(want["supply_temp"])
                assert row.condenser_return_temp is None  # Chiller 9 has no such sensor: NaN column
                assert row.tonnage == want["tonnage"]
            orders = session.scalars(select(WorkOrderRow).order_by(WorkOrderRow.row_order)).all()
            assert [o.wo_id for o in orders] == fleet.work_orders["wo_id"].tolist()
            assert [o.row_order for o in orders] == [0, 1, 2]
            assert [o.preventive for o in orders] == [True, False, True]
            assert [o.work_priority for o in orders] == [5, None, 5]
            assert orders[1].wo_description is None and orders[1].actual_finish is None
            assert orders[0].actual_finish == pd.Timestamp("2020-11-01 09:30").to_pydatetime()
            episode = session.scalars(select(FaultEpisodeRow)).one()
            assert episode.affected_sensors == ["Power Input", "Chiller Efficiency"]
            assert episode.details == {"approach_rise_degF": 4.5}
            assert episode.repair is None
            assert episode.peak == pd.Timestamp("2020-11-01 12:00", tz="UTC").to_pydatetime()
    finally:
        engine.dispose()


def check_window_query(settings: Settings) -> None:
    """A ts range query through the ORM selects exactly the samples inside the window."""
    fleet = small_fleet()
    load_fleet(settings, fleet)
    start = pd.Timestamp("2020-11-01 05:00", tz="UTC")
    end = pd.Timestamp("2020-11-01 07:00", tz="UTC")
    chiller9 = fleet.telemetry[fleet.telemetry["asset_id"] == "Chiller 9"]
    expected = int(((chiller9["ts"] >= start) & (chiller9["ts"] < end)).sum())
    engine = sync_engine(settings)
    try:
        with Session(engine) as session:
            found = session.scalars(select(TelemetryRow.ts).where(
                TelemetryRow.asset_id == "Chiller 9", TelemetryRow.ts >= start.to_pydatetime(),
                TelemetryRow.ts < end.to_pydatetime())).all()
    finally:
        engine.dispose()
    assert len(found) == expected == 8
    assert min(found) == start.to_pydatetime()


def check_reload_bumps_version(settings: Settings) -> None:
    """A second load replaces the rows and writes a new data_version and the new source."""
    first = load_fleet(settings, small_fleet(source="test:first"))
    second = load_fleet(settings, small_fleet(source="test:second", samples=10))
    assert first.data_version != second.data_version
    assert data_version(settings) == second.data_version
    meta = read_fleet_meta(settings)
    assert meta["source"] == "test:second" and meta["purpose"] == "test"
    engine = sync_engine(settings)
    try:
        with Session(engine) as session:
            assert session.scalar(select(func.count()).select_from(TelemetryRow)) == 20
    finally:
        engine.dispose()
