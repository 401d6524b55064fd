"""Derived data agrees with the telemetry and the fault schedule; frames match the table schemas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from assetops.db.base import Base
from fleet.knowledge import fault_types, primary_codes
from fleet.model import EQUIPMENT_IDS, TELEMETRY_ASSETS, FleetData, telemetry_columns


def test_every_frame_has_exactly_its_table_columns(spring_2021_fleet: FleetData) -> None:
    frames = spring_2021_fleet.frames()
    assert len(frames) == 15, "the generator fills every FleetData frame"
    for table_name, frame in frames.items():
        table = Base.metadata.tables[table_name]
        expected = [c.name for c in table.columns if c.name != "row_order"]
        assert sorted(frame.columns) == sorted(expected), table_name
    assert list(spring_2021_fleet.telemetry.columns) == telemetry_columns()


def test_assets_and_sensors(spring_2021_fleet: FleetData) -> None:
    assets = spring_2021_fleet.assets
    assert sorted(assets["asset_id"]) == sorted(EQUIPMENT_IDS)
    assert sorted(assets.loc[assets["has_telemetry"], "asset_id"]) == sorted(TELEMETRY_ASSETS)
    sensors = spring_2021_fleet.asset_sensors
    for asset in TELEMETRY_ASSETS:
        names = sensors.loc[sensors["asset_id"] == asset, "sensor_name"]
        assert names.str.startswith(f"{asset} ").all()
        assert f"{asset} Supply Temperature" in set(names)
        assert len(set(names) - {f"{asset} Run Status", f"{asset} Schedule"}) == 10
    assert "Chiller 6 Condenser Water Return To Tower Temperature" in set(sensors["sensor_name"])
    assert sensors["unit"].ne("").all()


def test_corrective_orders_follow_their_fault_with_its_family_codes(spring_2021_fleet: FleetData) -> None:
    orders = spring_2021_fleet.work_orders
    episodes = spring_2021_fleet.fault_episodes.set_index("episode_id")
    tied = orders[orders["fault_episode_id"].notna()]
    assert not tied.empty
    assert set(episodes.index) <= set(tied["fault_episode_id"]), "every episode raises corrective work"
    for row in tied.itertuples():
        episode = episodes.loc[row.fault_episode_id]
        onset_local = episode["onset"].tz_convert("America/New_York").tz_localize(None)
        assert row.actual_finish >= onset_local
        assert not row.preventive and row.work_priority in (1, 2)
        assert row.primary_code in fault_types()[episode["fault_type"]].family
        assert row.equipment_id == episode["equipment_id"]


def test_preventive_orders_cover_all_chillers_every_year(spring_2021_fleet: FleetData) -> None:
    orders = spring_2021_fleet.work_orders
    pm = orders[orders["preventive"]]
    assert (pm["work_priority"] == 5).all()
    years = pm["actual_finish"].dt.year
    assert set(years) == {2020, 2021, 2022}
    assert pm.groupby([pm["equipment_id"], years]).size().min() >= 15
    assert {"MT001", "MT010", "MT013", "MT002", "MT011", "MT008", "MT012"} <= set(pm["primary_code"])
    assert orders["wo_id"].is_unique and orders["wo_id"].str.fullmatch(r"WO\d{6}").all()


# Independent restatement of the alert conditions (the YAML thresholds) to check each alert row.
CONDITIONS = {
    "RUL0012": lambda t: (t["supply_temp"] - t["setpoint_temp"]) > 2.0,
    "RUL0017": lambda t: t["pct_loaded"] < 20,
    "RUL0018": lambda t: ((t["supply_temp"] - t["refrigerant_evap_temp"]) > 5.0) & (t["pct_loaded"] >= 30),
    "RUL0021": lambda t: (t["pct_loaded"] <= 1) & (t["power_input"] > 15),
}


def test_alert_rows_correspond_to_rule_conditions_in_the_telemetry(spring_2021_fleet: FleetData) -> None:
    alerts = spring_2021_fleet.alert_events
    tel = spring_2021_fleet.telemetry
    tel = tel.assign(local=(tel["ts"] + pd.to_timedelta(tel["utc_offset_min"], unit="min")).dt.tz_localize(None))
    checked = 0
    for row in alerts[alerts["rule_id"].isin(list(CONDITIONS))].itertuples():
        window = tel[(tel["asset_id"] == row.equipment_name) & tel["local"].between(row.start_time, row.end_time)]
        window = window.dropna(subset=["pct_loaded", "supply_temp", "power_input"])
        if row.rule_id != "RUL0021":
            assert ((window["pct_loaded"] > 5) & (window["tonnage"] > 5)).all()
        assert CONDITIONS[row.rule_id](window).all(), f"{row.rule_id} {row.start_time}"
        assert row.end_time - row.start_time >= pd.Timedelta(minutes=30)
        checked += 1
    assert checked > 10


def test_no_approach_alert_where_the_approach_stays_low(spring_2021_fleet: FleetData) -> None:
    tel = spring_2021_fleet.telemetry
    approach = tel["supply_temp"] - tel["refrigerant_evap_temp"]
    quiet_assets = set(tel.loc[tel["pct_loaded"] >= 30].assign(a=approach).groupby("asset_id")["a"].max()
                       .loc[lambda s: s < 5.0].index)
    alerts = spring_2021_fleet.alert_events
    fired = set(alerts.loc[alerts["rule_id"] == "RUL0018", "equipment_name"])
    assert quiet_assets and not (quiet_assets & fired)


def test_events_mirror_work_orders_alerts_and_anomalies(spring_2021_fleet: FleetData) -> None:
    events = spring_2021_fleet.events
    groups = events.groupby("event_group").size()
    assert groups["WORK_ORDER"] == len(spring_2021_fleet.work_orders)
    assert groups["ALERT"] == len(spring_2021_fleet.alert_events)
    assert groups["ANOMALY"] == len(spring_2021_fleet.anomaly_events)
    assert events["event_id"].is_unique
    assert events.loc[events["event_group"] == "ALERT", "event_id"].str.match(r"al_[0-9a-f-]{36}$").all()
    assert events.loc[events["event_group"] == "ANOMALY", "event_id"].str.match(r"an_[0-9a-f-]{36}$").all()
    assert set(events.loc[events["event_group"] == "WORK_ORDER", "event_category"]) == {"PM", "CM"}
    assert events["event_time"].is_monotonic_increasing


def test_anomalies_lie_outside_their_bounds(spring_2021_fleet: FleetData) -> None:
    anomalies = spring_2021_fleet.anomaly_events
    assert not anomalies.empty
    outside = (anomalies["value"] > anomalies["upper_bound"]) | (anomalies["value"] < anomalies["lower_bound"])
    assert outside.all()
    assert anomalies["anomaly_score"].between(0.99, 1.0).all()
    assert set(anomalies["kpi"]) <= {"Cooling Load", "Flow Efficiency", "Delta Setpoint", "Delta Temperature"}


def test_knowledge_tables(spring_2021_fleet: FleetData) -> None:
    fmea = spring_2021_fleet.fmea
    curated = fmea[(fmea["asset_class"] == "chiller") & fmea["curated_rank"].notna()].sort_values("curated_rank")
    assert list(curated["curated_rank"]) == [1, 2, 3, 4, 5, 6, 7]
    assert curated["failure_mode"].iloc[0] == "Compressor Overheating: Failed due to Normal wear, overheating"
    assert curated["failure_mode"].iloc[6] == "Refrigerant Operated Control Valve Failed spring"
    assert fmea.loc[fmea["asset_class"] == "ahu", "curated_rank"].notna().sum() == 5
    assert set(spring_2021_fleet.fault_episodes["failure_mode"]) <= set(fmea["failure_mode"])
    relevance = spring_2021_fleet.sensor_relevance
    assert len(relevance) == 7 * 11
    assert set(relevance["failure_mode"]) == set(curated["failure_mode"])
    assert relevance["reason"].str.len().min() > 10
    rules = spring_2021_fleet.alert_rules
    assert rules["rule_name"].str.startswith("Chiller - ").all() and rules["rule_logic"].str.len().min() > 10
    known = set(primary_codes())
    assert set(spring_2021_fleet.alert_rule_fc_mapping["primary_code"]) <= known
    assert set(spring_2021_fleet.anomaly_fc_mapping["primary_code"]) <= known
    codes = spring_2021_fleet.failure_codes
    assert {"M013", "L001", "CS001", "MT004", "MT012"} <= set(codes["primary_code"])
    assert (codes["secondary_code"].str[:-1] == codes["primary_code"]).all()
    categories = set(spring_2021_fleet.primary_failure_codes["category"])
    assert len(categories) == 9


@pytest.mark.parametrize("column", ["onset", "peak", "repair"])
def test_fault_episode_times_are_aware_utc(spring_2021_fleet: FleetData, column: str) -> None:
    values = spring_2021_fleet.fault_episodes[column]
    assert str(values.dt.tz) == "UTC"
    assert np.all(spring_2021_fleet.fault_episodes["peak"] >= spring_2021_fleet.fault_episodes["onset"])
