"""Physical consistency of fault-free telemetry.

Relations checked (documented in fleet/generator/physics.py):
  tonnage = chw_flow * (return - supply) / 24, with chw_flow the chiller's hidden design flow;
  power = tonnage * kW/ton (the reported efficiency), off samples have zero load, tonnage and efficiency.
"""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd
import pytest

from fleet.model import TELEMETRY_ASSETS
from fleet.synthetic import DESIGNS, GeneratorConfig, SimulatedFleet, simulate


@pytest.fixture(scope="module")
def healthy() -> SimulatedFleet:
    """Two summer weeks and two shoulder-season weeks of all chillers with no faults."""
    config = GeneratorConfig(seed=3, start=date(2019, 5, 20), end=date(2019, 6, 16), episodes=())
    return simulate(config, [])


def _running(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[(frame["pct_loaded"] > 5) & (frame["tonnage"] > 5)].dropna(
        subset=["tonnage", "supply_temp", "return_temp", "power_input", "efficiency"])


@pytest.mark.parametrize("asset", TELEMETRY_ASSETS)
def test_tonnage_follows_chilled_water_delta_t_times_flow(healthy: SimulatedFleet, asset: str) -> None:
    frame = _running(healthy.telemetry[healthy.telemetry["asset_id"] == asset])
    frame = frame[frame["pct_loaded"] > 30]  # below that delta-T is small against sensor noise
    assert len(frame) > 100, "the chiller should run for at least a day in four warm weeks"
    expected = DESIGNS[asset].chw_flow_gpm * (frame["return_temp"] - frame["supply_temp"]) / 24.0
    relative_error = ((frame["tonnage"] - expected).abs() / frame["tonnage"]).to_numpy()
    # Tolerance: 1% tonnage noise plus 0.12 degF noise on each temperature over a 3-10 degF delta-T.
    assert np.median(relative_error) < 0.03
    assert np.quantile(relative_error, 0.95) < 0.12


@pytest.mark.parametrize("asset", TELEMETRY_ASSETS)
def test_power_equals_tonnage_times_kw_per_ton(healthy: SimulatedFleet, asset: str) -> None:
    frame = _running(healthy.telemetry[healthy.telemetry["asset_id"] == asset])
    np.testing.assert_allclose(frame["power_input"], frame["tonnage"] * frame["efficiency"], rtol=1e-9)
    assert frame["efficiency"].between(0.25, 1.2).all(), "kW/ton outside the plausible centrifugal range"


def test_part_load_efficiency_is_worse_at_low_load(healthy: SimulatedFleet) -> None:
    state = healthy.states["Chiller 9"]
    on = state.running
    low = state.kw_per_ton[on & (state.plr < 0.3) & (state.condenser_in < 66)]
    mid = state.kw_per_ton[on & (state.plr > 0.6) & (state.plr < 0.8) & (state.condenser_in < 66)]
    assert low.size and mid.size
    assert np.median(low) > np.median(mid)


@pytest.mark.parametrize("asset", TELEMETRY_ASSETS)
def test_off_periods_are_consistent_across_sensors(healthy: SimulatedFleet, asset: str) -> None:
    frame = healthy.telemetry[healthy.telemetry["asset_id"] == asset].dropna(
        subset=["pct_loaded", "tonnage", "efficiency", "power_input"])
    off = frame["pct_loaded"] == 0
    assert off.any() and (~off).any()
    assert (frame.loc[off, "tonnage"] == 0).all()
    assert (frame.loc[off, "efficiency"] == 0).all()
    assert (frame.loc[off, "power_input"] < 50).all(), "an off chiller draws at most standby power"
    assert (frame.loc[~off, "tonnage"] > 0).all()


@pytest.mark.parametrize("asset", TELEMETRY_ASSETS)
def test_running_values_are_in_plausible_ranges(healthy: SimulatedFleet, asset: str) -> None:
    frame = _running(healthy.telemetry[healthy.telemetry["asset_id"] == asset])
    design = DESIGNS[asset]
    assert frame["pct_loaded"].between(5, 110).all()
    assert frame["supply_temp"].between(38, 52).all()
    assert ((frame["supply_temp"] - frame["setpoint_temp"]).abs().median()) < 0.3, "supply tracks setpoint"
    assert (frame["supply_temp"] > frame["refrigerant_evap_temp"]).mean() > 0.99
    flow = frame["condenser_water_flow"].dropna()
    assert ((flow / design.cw_flow_gpm).between(0.95, 1.05)).all()
    condenser = frame["condenser_supply_temp"].fillna(frame["condenser_return_temp"]).dropna()
    assert condenser.between(55, 105).all()


def test_condenser_water_follows_ambient_wet_bulb(healthy: SimulatedFleet) -> None:
    state = healthy.states["Chiller 9"]
    warm = state.running & (healthy.weather.wet_bulb > 62)  # above the tower's 65 degF minimum
    assert warm.sum() > 50
    correlation = np.corrcoef(healthy.weather.wet_bulb[warm], state.condenser_in[warm])[0, 1]
    assert correlation > 0.9
    assert (state.condenser_out[state.running] > state.condenser_in[state.running]).all()


def test_telemetry_timestamps_are_utc_on_a_15_minute_grid_with_local_offsets(healthy: SimulatedFleet) -> None:
    ts = healthy.telemetry["ts"]
    assert str(ts.dt.tz) == "UTC"
    on_grid = (ts.dt.second == 0) & (ts.dt.minute % 15 == 0)
    assert on_grid.mean() > 0.99, "only a few off-grid extra samples"
    local = ts.dt.tz_convert("America/New_York")
    expected = (local.dt.tz_localize(None) - ts.dt.tz_localize(None)) / pd.Timedelta(minutes=1)
    assert (healthy.telemetry["utc_offset_min"] == expected).all()
    assert set(healthy.telemetry["utc_offset_min"].unique()) == {-240}  # summer time in May-June
    assert not healthy.telemetry.duplicated(["asset_id", "ts"]).any()


def test_chiller6_reports_condenser_return_instead_of_supply(healthy: SimulatedFleet) -> None:
    tel = healthy.telemetry
    chiller6 = tel[tel["asset_id"] == "Chiller 6"]
    others = tel[tel["asset_id"] != "Chiller 6"]
    assert chiller6["condenser_supply_temp"].isna().all() and chiller6["condenser_return_temp"].notna().mean() > 0.99
    assert others["condenser_return_temp"].isna().all() and others["condenser_supply_temp"].notna().mean() > 0.99
    assert tel.loc[tel["asset_id"].isin(["Chiller 3", "Chiller 9"]), "run_status"].isna().all()
    status = chiller6["run_status"].dropna()
    assert 0 < len(status) < 0.2 * len(chiller6), "Run Status is sparse"
