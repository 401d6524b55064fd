"""The default seed contains the anchored stories the development dialogs rely on."""

from __future__ import annotations

import json
from datetime import date

import pandas as pd

from fleet.model import FleetData
from fleet.synthetic import (
    FaultEpisode,
    GeneratorConfig,
    default_episodes,
    generate_fleet,
    local_time,
    small_config,
    trip_dates,
    trips,
    work_orders,
)


def _find(asset: str, kind: str, start: str, stop: str) -> list[FaultEpisode]:
    return [e for e in default_episodes() if e.asset_id == asset and e.fault_type == kind
            and e.overlaps(local_time(start), local_time(stop))]


def test_chiller9_summer_2016_evaporator_fouling_with_slow_refrigerant_loss() -> None:
    fouling = _find("Chiller 9", "evaporator_fouling", "2016-06-01", "2016-09-01")
    loss = _find("Chiller 9", "refrigerant_loss", "2016-06-01", "2016-09-01")
    assert fouling and loss
    assert (loss[0].peak - loss[0].onset) > pd.Timedelta(days=45), "the refrigerant loss is slow"


def test_chiller6_condenser_fouling_builds_through_may_and_june_2020() -> None:
    (episode,) = _find("Chiller 6", "condenser_fouling", "2020-05-01", "2020-07-01")
    assert episode.onset <= local_time("2020-05-01") and episode.peak >= local_time("2020-06-15")


def test_chiller6_supply_temperature_drift_covers_spring_2021() -> None:
    (episode,) = _find("Chiller 6", "sensor_drift", "2021-04-01", "2021-07-01")
    assert episode.details["sensor"] == "Supply Temperature"
    assert episode.onset < local_time("2021-04-01") and episode.end > local_time("2021-07-01")


def test_chiller4_spring_2021_fault_raises_power() -> None:
    assert _find("Chiller 4", "condenser_fouling", "2021-03-01", "2021-06-01")
    fleet = generate_fleet(small_config("2020-03-01", "2021-05-31", assets=["Chiller 4"]))
    tel = fleet.telemetry
    tel = tel[tel["pct_loaded"].between(30, 80)]
    local = tel["ts"].dt.tz_convert("America/New_York")
    spring = local.dt.month.isin([3, 4, 5])
    kw_per_ton = {year: tel.loc[spring & (local.dt.year == year), "efficiency"].mean() for year in (2020, 2021)}
    assert kw_per_ton[2021] > 1.05 * kw_per_ton[2020]


def test_chiller9_june_2021_approach_alert_surge_with_kpi_anomalies(spring_2021_fleet: FleetData) -> None:
    alerts = spring_2021_fleet.alert_events
    approach = alerts[(alerts["equipment_id"] == "CWC04009") & (alerts["rule_id"] == "RUL0018")]
    june = approach["start_time"].between(pd.Timestamp("2021-06-01"), pd.Timestamp("2021-07-01"))
    may = approach["start_time"].between(pd.Timestamp("2021-05-01"), pd.Timestamp("2021-06-01"))
    assert june.sum() >= 5 and june.sum() > 2 * may.sum()
    # KPI bounds are learned from the generated window itself, so give it a year of normal operation.
    year = generate_fleet(small_config("2020-07-01", "2021-06-30", assets=["Chiller 9"])).anomaly_events
    month = year["timestamp"].dt.to_period("M").astype(str)
    assert (month == "2021-06").sum() >= 5
    assert (month == "2021-06").sum() > 3 * (month == "2020-12").sum()


def test_chiller9_trip_leaves_a_sensor_offline_on_the_trip_day() -> None:
    fleet = generate_fleet(small_config("2019-07-20", "2019-07-26", assets=["Chiller 9"]))
    days = trip_dates(fleet.fault_episodes, "Chiller 9", with_offline_sensor=True)
    assert days == [date(2019, 7, 23)]
    trip = next(t for t in trips(fleet.fault_episodes, "Chiller 9") if t.offline_sensors)
    tel = fleet.telemetry
    after = tel[tel["ts"] >= trip.tripped_at]
    before = tel[(tel["ts"] < trip.tripped_at) & (tel["ts"] >= trip.tripped_at - pd.Timedelta(hours=24))]
    assert trip.offline_sensors == ("Condenser Water Flow",)
    assert after["condenser_water_flow"].isna().all() and before["condenser_water_flow"].notna().any()
    assert after["supply_temp"].notna().mean() > 0.9


def test_chiller6_corrective_work_grows_from_2017_to_2020() -> None:
    orders = work_orders(GeneratorConfig(), default_episodes())
    corrective = orders[(orders["equipment_id"] == "CWC04006") & ~orders["preventive"]]
    per_year = corrective.groupby(corrective["actual_finish"].dt.year).size()
    counts = [int(per_year.get(year, 0)) for year in (2017, 2018, 2019, 2020)]
    assert counts == sorted(counts) and len(set(counts)) == 4, counts
    assert set(orders["actual_finish"].dt.year) == set(range(2015, 2023))


def test_trip_dates_read_episodes_as_stored_in_sql() -> None:
    fleet = generate_fleet(small_config("2019-07-22", "2019-07-24", assets=["Chiller 9"]))
    as_sql = fleet.fault_episodes.assign(
        details=fleet.fault_episodes["details"].map(json.dumps),
        onset=fleet.fault_episodes["onset"].dt.tz_localize(None),
        peak=fleet.fault_episodes["peak"].dt.tz_localize(None),
    )
    assert trip_dates(as_sql, "Chiller 9", with_offline_sensor=True) == [date(2019, 7, 23)]
    assert trip_dates(as_sql, "Chiller 3") == []
