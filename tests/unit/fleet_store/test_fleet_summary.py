"""fleet_summary: coverage, table rows, fault episodes, work orders and data version."""

from __future__ import annotations

import io

import pandas as pd
from rich.console import Console

from assetops.settings import Settings
from fleet.ensure import ensure_default_fleet
from fleet.loader import data_version, load_fleet
from fleet.summary import fleet_summary, render_summary
from tests.unit.fleet_store.fleet_builders import SAMPLES, START, small_fleet


def test_summary_counts_what_was_loaded(fleet_db: Settings) -> None:
    fleet = small_fleet()
    report = load_fleet(fleet_db, fleet)
    summary = fleet_summary(fleet_db)
    assert summary.meta["data_version"] == report.data_version
    assert summary.table_rows["telemetry"] == 2 * SAMPLES
    assert summary.table_rows["work_orders"] == 3 and summary.table_rows["events"] == 0
    chiller9 = next(c for c in summary.coverage if c.asset_id == "Chiller 9")
    assert chiller9.rows == SAMPLES and chiller9.sensors == 10
    assert chiller9.first == pd.Timestamp(START, tz="UTC").to_pydatetime()
    assert chiller9.last == (pd.Timestamp(START, tz="UTC") + pd.Timedelta(minutes=15 * (SAMPLES - 1))).to_pydatetime()
    # Every 5th supply temperature is missing: 20 of the 96 x 10 expected values.
    assert chiller9.missing_pct == round(100 * 20 / (SAMPLES * 10), 2)
    counts = {w.equipment_id: (w.preventive, w.corrective) for w in summary.work_orders}
    assert counts == {"CWC04009": (1, 1), "CWC04006": (1, 0)}
    assert [(e.asset_id, e.fault_type, e.repair) for e in summary.episodes] == [("Chiller 9", "condenser_fouling", None)]


def test_summary_renders_as_tables(fleet_db: Settings) -> None:
    load_fleet(fleet_db, small_fleet())
    buffer = io.StringIO()
    render_summary(fleet_summary(fleet_db), Console(file=buffer, width=160))
    text = buffer.getvalue()
    assert "Telemetry coverage" in text and "Chiller 9" in text and "CWC04006" in text
    assert fleet_summary(fleet_db).meta["data_version"] in text


def test_ensure_default_fleet_leaves_a_loaded_fleet_alone(fleet_db: Settings) -> None:
    load_fleet(fleet_db, small_fleet())
    version = data_version(fleet_db)
    assert ensure_default_fleet(fleet_db) is None
    assert data_version(fleet_db) == version
