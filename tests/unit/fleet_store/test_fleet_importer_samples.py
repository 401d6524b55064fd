"""read_assetopsbench on the shared AssetOpsBench sample folder: row counts and exact values."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from assetops.settings import Settings
from fleet.importer import read_assetopsbench
from fleet.loader import data_version, load_fleet
from fleet.model import FleetData

# Row counts documented in docs/TOOL_CONTRACT.md §3 (counted with pandas on the same files).
EXPECTED_ROWS = {
    "work_orders": 4249, "events": 6256, "alert_events": 1466, "alert_rules": 19, "alert_rule_fc_mapping": 34,
    "anomaly_events": 541, "anomaly_fc_mapping": 16, "failure_codes": 143, "primary_failure_codes": 67,
    "telemetry": 2896, "fmea": 53,
}


@pytest.fixture(scope="module")
def imported(assetopsbench_dir: Path) -> FleetData:
    return read_assetopsbench(assetopsbench_dir)


def test_every_file_is_read_with_its_documented_row_count(imported: FleetData) -> None:
    counts = {name: len(frame) for name, frame in imported.frames().items()}
    assert {k: counts.get(k) for k in EXPECTED_ROWS} == EXPECTED_ROWS


def test_work_order_values_are_typed(imported: FleetData) -> None:
    first = imported.work_orders.iloc[0]
    assert first["wo_id"] == "WO259747"
    assert first["preventive"] is True and first["work_priority"] == 5
    assert first["actual_finish"] == pd.Timestamp("2016-04-06 14:00")
    assert (first["duration"], first["actual_labor_hours"]) == ("3:00", "1:00")
    assert imported.work_orders["preventive"].value_counts().to_dict() == {True: 3529, False: 720}


def test_event_alert_and_rule_values(imported: FleetData) -> None:
    event = imported.events.iloc[0]
    assert (event["event_id"], event["event_category"], event["note"]) == ("WO-16170", "PM", None)
    assert event["event_time"] == pd.Timestamp("2010-06-22 14:12:00")
    alert = imported.alert_events.iloc[0]
    assert (alert["equipment_id"], alert["rule_id"]) == ("CWC04701", "RUL0021")
    assert (alert["start_time"], alert["end_time"]) == (pd.Timestamp("2020-11-24 19:00"), pd.Timestamp("2020-11-24 23:59"))
    assert imported.alert_events["rule_id"].value_counts()["RUL0018"] == 617
    last_rule = imported.alert_rules.iloc[-1]
    assert (last_rule["rule_id"], last_rule["rule_name"], last_rule["rule_logic"]) == ("RUL0030", "Chiller - Surging", None)


def test_code_tables_lose_the_bom_and_keep_their_values(imported: FleetData) -> None:
    first = imported.failure_codes.iloc[0]
    assert list(first) == ["Structural and Mechanical Failures", "M001", "Cracking", "M001a", "Cracking in Piping"]
    primary = imported.primary_failure_codes.set_index("primary_code")
    assert primary.loc["M013", "primary_code_description"] == "Condenser Plugged"
    mapping = imported.anomaly_fc_mapping.iloc[0]
    assert (mapping["kpi_name"], mapping["anomaly_type"], mapping["secondary_code"]) == ("Flow Efficiency", "High", "M005c")
    anomaly = imported.anomaly_events.iloc[0]
    assert (anomaly["kpi"], anomaly["asset_name"], anomaly["value"]) == ("Cooling Load", "chiller 9", 25978710.0)
    assert anomaly["timestamp"] == pd.Timestamp("2020-04-26 14:14")


def test_fmea_maps_curated_modes_to_their_served_names(imported: FleetData) -> None:
    chiller = imported.fmea[imported.fmea["asset_class"] == "chiller"]
    ranked = chiller.dropna(subset=["curated_rank"]).sort_values("curated_rank")
    assert ranked["failure_mode"].tolist()[2:4] == ["Evaporator Water side fouling", "Condenser Water side fouling"]
    assert len(ranked) == 7 and len(chiller) == 16
    assert (imported.fmea["asset_class"] == "ahu").sum() == 18


def test_telemetry_sample_is_local_time_converted_to_utc(imported: FleetData) -> None:
    first = imported.telemetry.iloc[0]
    assert first["asset_id"] == "Chiller 6"
    assert first["ts"] == pd.Timestamp("2020-06-01 04:00", tz="UTC")  # 00:00 EDT
    assert first["utc_offset_min"] == -240
    assert first["condenser_return_temp"] == pytest.approx(48.88189585817613)
    assert any("America/New_York" in a for a in json.loads(imported.meta["assumptions"]))
    sensors = set(imported.asset_sensors["sensor_name"])
    assert {"Chiller 6 Run Status", "Chiller 6 Condenser Water Return To Tower Temperature"} <= sensors


def test_assets_come_from_equipment_pairs_and_telemetry(imported: FleetData) -> None:
    assets = imported.assets.set_index("asset_id")
    assert len(assets) == 11
    assert assets.loc["Chiller 6", "equipment_id"] == "CWC04006" and bool(assets.loc["Chiller 6", "has_telemetry"])
    assert assets.loc["Chiller 3", "equipment_id"] == "CWC04703" and not bool(assets.loc["Chiller 3", "has_telemetry"])


def test_import_loads_and_bumps_the_data_version(fleet_db: Settings, imported: FleetData) -> None:
    first = load_fleet(fleet_db, imported)
    second = load_fleet(fleet_db, imported)
    assert second.data_version != first.data_version
    assert data_version(fleet_db) == second.data_version
    assert {t.table: t.rows for t in second.tables if t.table in EXPECTED_ROWS} == EXPECTED_ROWS
