"""Each fault type's signature, measured against the same chiller's fault-free run (same seed, weather, noise)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fleet.synthetic import FaultEpisode, SimulatedFleet, local_time

from .conftest import simulate_pair

START, END = "2019-06-01", "2019-07-31"


def _episode(asset: str, kind: str, severity: float, **details: object) -> FaultEpisode:
    return FaultEpisode(asset, kind, local_time("2019-06-05 00:00"), local_time("2019-07-05 00:00"),
                        local_time("2019-07-25 00:00"), severity, dict(details))


def _peak_window(sim: SimulatedFleet) -> np.ndarray:
    """Samples between the peak (5 July) and the repair (25 July)."""
    return np.asarray((sim.grid.ts >= local_time("2019-07-05 00:00")) & (sim.grid.ts < local_time("2019-07-25")))


def _frame(sim: SimulatedFleet, asset: str) -> pd.DataFrame:
    """Telemetry of the asset indexed by timestamp (on-grid samples only)."""
    tel = sim.telemetry[sim.telemetry["asset_id"] == asset]
    tel = tel[(tel["ts"].dt.second == 0)]
    return tel.set_index("ts")


def test_condenser_fouling_raises_condenser_approach_and_kw_per_ton_with_normal_flow() -> None:
    severity = 6.0  # degF of extra condenser approach at full load
    base, faulty = simulate_pair(_episode("Chiller 6", "condenser_fouling", severity), START, END)
    b, f = base.states["Chiller 6"], faulty.states["Chiller 6"]
    peak = _peak_window(base) & b.running & f.running
    assert peak.sum() > 100
    # Margin: the approach grows by severity * (0.3 + 0.7 * plr) >= 0.3 * severity at any load.
    assert np.all(f.condenser_approach[peak] - b.condenser_approach[peak] >= 0.3 * severity - 1e-9)
    assert np.median(f.kw_per_ton[peak] / b.kw_per_ton[peak]) > 1.04
    assert np.median(f.condenser_out[peak] - b.condenser_out[peak]) > 0.0  # leaving water warmer
    np.testing.assert_allclose(f.cw_flow[peak], b.cw_flow[peak])  # flow stays normal
    bt, ft = _frame(base, "Chiller 6"), _frame(faulty, "Chiller 6")
    on = (bt["pct_loaded"] > 30) & (ft["pct_loaded"] > 30)
    assert (ft.loc[on, "power_input"] / bt.loc[on, "power_input"]).median() > 1.04


def test_evaporator_fouling_widens_approach_at_high_load_with_stable_delta_t() -> None:
    base, faulty = simulate_pair(_episode("Chiller 9", "evaporator_fouling", 4.0), START, END)
    b, f = base.states["Chiller 9"], faulty.states["Chiller 9"]
    peak = _peak_window(base) & b.running
    high, low = peak & (b.plr > 0.7), peak & (b.plr < 0.35)
    assert high.sum() > 20 and low.sum() > 20
    widening_high = np.median(f.evaporator_approach[high] - b.evaporator_approach[high])
    widening_low = np.median(f.evaporator_approach[low] - b.evaporator_approach[low])
    assert widening_high > 2.0 and widening_high > 2 * widening_low
    delta_t_change = (f.return_temp - f.supply) - (b.return_temp - b.supply)
    assert np.abs(np.median(delta_t_change[peak])) < 0.2
    assert np.median(f.kw_per_ton[high] / b.kw_per_ton[high]) > 1.03
    np.testing.assert_allclose(f.cw_flow, b.cw_flow)


def test_condenser_flow_drop_raises_condenser_temperatures_and_power() -> None:
    episode = _episode("Chiller 6", "condenser_flow", 0.3)
    base, faulty = simulate_pair(episode, START, END)
    bt, ft = _frame(base, "Chiller 6"), _frame(faulty, "Chiller 6")
    on = (bt["pct_loaded"] > 20) & (ft["pct_loaded"] > 20)
    peak = on & (bt.index >= local_time("2019-07-05")) & (bt.index < local_time("2019-07-25"))
    flow_ratio = (ft.loc[peak, "condenser_water_flow"] / bt.loc[peak, "condenser_water_flow"]).median()
    assert abs(flow_ratio - 0.7) < 0.02
    assert (ft.loc[peak, "condenser_return_temp"] - bt.loc[peak, "condenser_return_temp"]).median() > 1.0
    assert (ft.loc[peak, "power_input"] / bt.loc[peak, "power_input"]).median() > 1.02


def test_refrigerant_loss_drives_refrigerant_temperature_down_over_time() -> None:
    severity = 2.5
    base, faulty = simulate_pair(_episode("Chiller 9", "refrigerant_loss", severity), START, END)
    bt, ft = _frame(base, "Chiller 9"), _frame(faulty, "Chiller 9")
    on = (bt["pct_loaded"] > 20) & (ft["pct_loaded"] > 20)
    drop = (ft["refrigerant_evap_temp"] - bt["refrigerant_evap_temp"])[on].dropna()
    daily = drop.groupby(drop.index.floor("D")).mean()
    ramp = daily[(daily.index >= local_time("2019-06-05")) & (daily.index < local_time("2019-07-05"))]
    slope = np.polyfit(np.arange(len(ramp)), ramp.to_numpy(), 1)[0]
    assert slope < -0.03, "the evaporating temperature falls day by day while charge is lost"
    at_peak = daily[(daily.index >= local_time("2019-07-06")) & (daily.index < local_time("2019-07-24"))]
    assert at_peak.max() < -0.4 * severity
    approach_change = ((ft["supply_temp"] - ft["refrigerant_evap_temp"]) - (bt["supply_temp"] - bt["refrigerant_evap_temp"]))
    assert approach_change[on].loc[at_peak.index.min():].median() > 0.4 * severity


def test_compressor_overheating_raises_power_at_same_load_then_trips() -> None:
    episode = _episode("Chiller 4", "compressor_overheating", 0.25)
    base, faulty = simulate_pair(episode, START, END)
    b, f = base.states["Chiller 4"], faulty.states["Chiller 4"]
    ts = base.grid.ts
    before_peak = np.asarray((ts > local_time("2019-06-28")) & (ts < local_time("2019-07-05"))) & b.running
    assert before_peak.sum() > 20
    np.testing.assert_allclose(f.plr[before_peak], b.plr[before_peak])  # same load
    assert np.median(f.power_kw[before_peak] / b.power_kw[before_peak]) > 1.15
    assert np.median(f.supply[before_peak] - b.supply[before_peak]) > 0.3
    tripped = np.asarray((ts >= local_time("2019-07-05")) & (ts < local_time("2019-07-25")))
    assert not f.running[tripped].any(), "after the trip the chiller stays off until repaired"


def test_trip_stops_the_chiller_and_leaves_a_sensor_offline() -> None:
    episode = FaultEpisode("Chiller 9", "trip", local_time("2019-07-10 14:00"), local_time("2019-07-10 14:00"),
                           local_time("2019-07-20 10:00"), 1.0,
                           {"offline_sensors": ["Condenser Water Flow"], "restart": "2019-07-12T14:00:00+00:00"})
    base, faulty = simulate_pair(episode, START, END)
    ft = _frame(faulty, "Chiller 9")
    trip = local_time("2019-07-10 14:00")
    after = ft[(ft.index >= trip) & (ft.index < local_time("2019-07-20 10:00"))]
    before = ft[(ft.index >= trip - pd.Timedelta(hours=24)) & (ft.index < trip)]
    assert after["condenser_water_flow"].isna().all()
    assert before["condenser_water_flow"].notna().mean() > 0.95
    assert after["supply_temp"].notna().mean() > 0.95, "the other sensors keep reporting"
    stopped = after[after.index < pd.Timestamp("2019-07-12T14:00:00+00:00")]
    assert (stopped["pct_loaded"].dropna() == 0).all() and (stopped["tonnage"].dropna() == 0).all()
    assert (base.states["Chiller 9"].running[np.asarray(faulty.grid.ts >= trip)]).any()


def test_sensor_drift_grows_without_power_or_efficiency_change() -> None:
    rate = 0.4  # degF per 30 days
    episode = FaultEpisode("Chiller 6", "sensor_drift", local_time("2019-06-01 00:00"),
                           local_time("2019-07-31 00:00"), local_time("2019-07-31 12:00"), rate,
                           {"sensor": "Supply Temperature"})
    base, faulty = simulate_pair(episode, START, END)
    bt, ft = _frame(base, "Chiller 6"), _frame(faulty, "Chiller 6")
    offset = (ft["supply_temp"] - bt["supply_temp"]).dropna()
    days = (offset.index - local_time("2019-06-01")) / pd.Timedelta(days=1)
    slope_per_30_days = np.polyfit(days.to_numpy(dtype=float), offset.to_numpy(), 1)[0] * 30
    assert abs(slope_per_30_days - rate) < 0.02
    assert offset[days > 50].mean() > 0.6
    pd.testing.assert_series_equal(ft["power_input"], bt["power_input"])
    pd.testing.assert_series_equal(ft["efficiency"], bt["efficiency"])
    pd.testing.assert_series_equal(ft["return_temp"], bt["return_temp"])
