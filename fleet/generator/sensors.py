"""The measurement layer: true chiller state -> sensor readings with noise, drift, dead sensors and gaps."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fleet.generator.faults.effects import FaultEffects
from fleet.generator.physics import ChillerState
from fleet.generator.plant import ChillerDesign, occupancy
from fleet.generator.timegrid import TimeGrid
from fleet.model import SENSOR_COLUMNS, sensors_of, telemetry_columns

TEMPERATURE_NOISE_F = 0.12
RELATIVE_NOISE = 0.01  # power, tonnage
FLOW_NOISE = 0.008
MISSING_ROW_RATE = 0.002
MISSING_CELL_RATE = 0.001
OUTAGES_PER_YEAR = 2.0
OFF_GRID_RATE = 0.002
STATUS_REPORTERS = ("Chiller 4", "Chiller 6")  # chillers that also report Run Status / Schedule


def _episodes_of_off_time(grid: TimeGrid, running: np.ndarray, rng: np.random.Generator,
                          per_year: float, hours: tuple[int, int]) -> np.ndarray:
    """A mask of a few multi-hour windows (about `per_year` a year) restricted to off samples."""
    years = max(grid.size / (96 * 365.0), 1e-6)
    mask = np.zeros(grid.size, dtype=bool)
    for start in rng.integers(0, max(grid.size, 1), size=int(rng.poisson(per_year * years))):
        length = int(rng.integers(hours[0] * 4, hours[1] * 4 + 1))
        mask[start:start + length] = True
    return mask & ~running


def standby_faults(grid: TimeGrid, running: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Occasional off-state faults: power drawn by an off chiller (kW) and a condenser pump left running."""
    heater_stuck = _episodes_of_off_time(grid, running, rng, per_year=2.0, hours=(3, 30))
    pump_left_on = _episodes_of_off_time(grid, running, rng, per_year=1.0, hours=(3, 20))
    standby_kw = 1.5 + 0.5 * rng.random(grid.size)
    return np.where(heater_stuck, 25.0 + 10 * rng.random(grid.size), standby_kw), pump_left_on


def read_sensors(asset: str, design: ChillerDesign, grid: TimeGrid, state: ChillerState,
                 effects: FaultEffects, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Sensor name -> reading per grid sample (NaN where a sensor has no data)."""
    n = grid.size
    on = state.running
    standby_kw, pump_left_on = standby_faults(grid, on, rng)
    tonnage = np.where(on, state.tonnage * (1 + RELATIVE_NOISE * rng.standard_normal(n)), 0.0)
    power = np.where(on, state.power_kw * (1 + RELATIVE_NOISE * rng.standard_normal(n)), standby_kw)
    flow = np.where(on | pump_left_on, 1.0, 0.0) * np.where(on, state.cw_flow, design.cw_flow_gpm)
    readings = {
        "Chiller % Loaded": np.where(on, 100 * state.plr + 0.4 * rng.standard_normal(n), 0.0),
        "Tonnage": tonnage,
        "Power Input": power,
        # The BAS computes efficiency from its own power and tonnage readings; 0 while off.
        "Chiller Efficiency": np.divide(power, tonnage, out=np.zeros(n), where=tonnage > 1.0),
        "Condenser Water Flow": flow * (1 + FLOW_NOISE * rng.standard_normal(n)),
        "Setpoint Temperature": state.setpoint.copy(),
    }
    temperatures = {
        "Supply Temperature": state.supply, "Return Temperature": state.return_temp,
        "Liquid Refrigerant Evaporator Temperature": state.refrigerant_evap,
        "Condenser Water Supply To Chiller Temperature": state.condenser_in,
        "Condenser Water Return To Tower Temperature": state.condenser_out,
    }
    for name, values in temperatures.items():
        readings[name] = values + TEMPERATURE_NOISE_F * rng.standard_normal(n)
    for sensor, offset in effects.drift.items():
        readings[sensor] = readings[sensor] + offset
    own = set(sensors_of(asset))
    readings = {name: values for name, values in readings.items() if name in own}
    for values in readings.values():
        values[rng.random(n) < MISSING_CELL_RATE] = np.nan
    for sensor, dead in effects.offline.items():
        if sensor in readings:
            readings[sensor] = np.where(dead, np.nan, readings[sensor])
    if asset in STATUS_REPORTERS:
        readings.update(_sparse_status(grid, on))
    return readings


def _sparse_status(grid: TimeGrid, running: np.ndarray) -> dict[str, np.ndarray]:
    """Run Status and Schedule, reported only when they change and at local midnight."""
    midnight = (grid.hour == 0.0)
    status = running.astype(float)
    changed = np.r_[True, status[1:] != status[:-1]]
    schedule = (occupancy(grid) > 0.8).astype(float)
    schedule_changed = np.r_[True, schedule[1:] != schedule[:-1]]
    return {
        "Run Status": np.where(changed | midnight, status, np.nan),
        "Schedule": np.where(schedule_changed | midnight, schedule, np.nan),
    }


def _kept_rows(grid: TimeGrid, rng: np.random.Generator) -> np.ndarray:
    """Rows that reach the historian: random single drops plus a few multi-hour outages."""
    keep = rng.random(grid.size) >= MISSING_ROW_RATE
    years = grid.size / (96 * 365.0)
    for start in rng.integers(0, max(grid.size, 1), size=int(rng.poisson(OUTAGES_PER_YEAR * years))):
        keep[start:start + int(rng.integers(4, 48))] = False
    return keep


def asset_frame(asset: str, grid: TimeGrid, readings: dict[str, np.ndarray],
                rng: np.random.Generator) -> pd.DataFrame:
    """The telemetry rows of one asset: grid rows that survived, plus a few off-grid extra samples."""
    keep = _kept_rows(grid, rng)
    data: dict[str, object] = {"asset_id": asset, "ts": grid.ts, "utc_offset_min": grid.offset_min}
    for name, column in SENSOR_COLUMNS.items():
        data[column] = readings.get(name, np.full(grid.size, np.nan))
    frame = pd.DataFrame(data)
    extra_idx = np.flatnonzero(keep & (rng.random(grid.size) < OFF_GRID_RATE))
    extras = frame.iloc[extra_idx].copy()
    extras["ts"] = extras["ts"] + pd.to_timedelta(rng.integers(1, 60, size=len(extras)), unit="s")
    frame = pd.concat([frame[keep], extras]).sort_values("ts", kind="stable")
    return frame[telemetry_columns()].reset_index(drop=True)
