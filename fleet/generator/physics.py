"""Chiller thermodynamics: true (noise-free) operating state from load, weather and fault effects.

Relations (per sample, running chiller; temperatures degF, flows gpm, power kW):
  tonnage                  = plr * capacity
  chilled-water delta-T    = 24 * tonnage / chw_flow          (1 ton = 12000 Btu/h, 500 Btu/h per gpm.degF)
  return                   = supply + delta-T
  supply                   = setpoint (+ overload, capacity shortfall and compressor-wear rises)
  refrigerant evaporating  = supply - evaporator approach;  approach = 0.4 + (design - 0.4) * plr + faults
  condenser entering (ECWT)= max(65, wet-bulb + 5 + 4 * plr)   (cooling tower, 65 degF minimum)
  condenser leaving (LCWT) = ECWT + 24 * (tonnage + 0.2843 * power) / condenser_flow
  condensing temperature   = LCWT + condenser approach (hidden; fouling raises the approach)
  kW/ton                   = design kW/ton * partload(plr) * (0.2 + 0.8 * lift / design lift) * (1 + wear)
  power                    = tonnage * kW/ton
Off samples relax toward the plant-room temperature with a 3-hour time constant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fleet.generator.faults.effects import FaultEffects
from fleet.generator.plant import ChillerDesign
from fleet.generator.timegrid import TimeGrid
from fleet.generator.weather import Weather

KW_TO_TONS = 0.2843  # 1 kW = 3412 Btu/h = 0.2843 tons of heat
TOWER_MIN_F = 65.0
OFF_TIME_CONSTANT_H = 3.0


@dataclass
class ChillerState:
    """True state per sample. `running` is the machine state; temperatures are physical, not sensed."""

    running: np.ndarray
    plr: np.ndarray
    tonnage: np.ndarray
    power_kw: np.ndarray
    kw_per_ton: np.ndarray
    chw_flow: np.ndarray
    cw_flow: np.ndarray
    setpoint: np.ndarray
    supply: np.ndarray
    return_temp: np.ndarray
    refrigerant_evap: np.ndarray
    condenser_in: np.ndarray  # condenser water supply to chiller (ECWT)
    condenser_out: np.ndarray  # condenser water return to tower (LCWT)
    condensing: np.ndarray  # hidden refrigerant condensing temperature

    @property
    def evaporator_approach(self) -> np.ndarray:
        """Supply minus refrigerant evaporating temperature."""
        return self.supply - self.refrigerant_evap

    @property
    def condenser_approach(self) -> np.ndarray:
        """Condensing temperature minus leaving condenser water temperature."""
        return self.condensing - self.condenser_out


def partload_factor(plr: np.ndarray) -> np.ndarray:
    """Relative kW/ton at part load (1.0 at full load): best near 70%, poor at low load."""
    def raw(x: np.ndarray | float) -> np.ndarray:
        x = np.maximum(x, 0.05)
        return 0.88 + 0.5 * (x - 0.72) ** 2 + 0.025 / x
    return raw(plr) / raw(np.array(1.0))


def design_lift(design: ChillerDesign) -> float:
    """Condensing minus evaporating temperature at full load with 85 degF entering condenser water."""
    rejected = design.capacity_tons * (1 + design.design_kw_per_ton * KW_TO_TONS)
    lcwt = 85.0 + 24 * rejected / design.cw_flow_gpm
    return lcwt + design.cond_approach_f - (design.setpoint_f - design.evap_approach_f)


def chilled_water_setpoint(design: ChillerDesign, grid: TimeGrid, weather: Weather) -> np.ndarray:
    """Design setpoint, reset 2 degF warmer on cool days (daily mean dry-bulb below 55 degF)."""
    day_mean = pd.Series(weather.dry_bulb).groupby(grid.day_index).transform("mean").to_numpy()
    return design.setpoint_f + np.where(day_mean < 55.0, 2.0, 0.0)


def simulate_chiller(design: ChillerDesign, grid: TimeGrid, weather: Weather, plr: np.ndarray,
                     effects: FaultEffects) -> ChillerState:
    """The true state of one chiller for every grid sample."""
    running = plr > 0
    setpoint = chilled_water_setpoint(design, grid, weather)
    tonnage = plr * design.capacity_tons
    chw_flow = np.where(running, design.chw_flow_gpm, 0.0)
    cw_flow = np.where(running, design.cw_flow_gpm * (1 - effects.condenser_flow_loss), 0.0)
    evap_extra = (effects.evaporator_fouling * plr ** 1.5 + effects.refrigerant_loss * (0.4 + 0.6 * plr))
    # A starved or fouled evaporator cannot hold the setpoint at high load: the supply rises.
    shortfall = 0.35 * np.clip(evap_extra - 2.5, 0, None) * np.clip((plr - 0.6) / 0.4, 0, 1)
    supply = (setpoint + 20.0 * np.clip(plr - 1.0, 0, None) + shortfall + 8.0 * effects.compressor_wear * plr)
    refrigerant = supply - (0.4 + (design.evap_approach_f - 0.4) * plr + evap_extra)
    condenser_in = np.maximum(TOWER_MIN_F, weather.wet_bulb + 5.0 + 4.0 * plr)
    cond_approach = 0.5 + (design.cond_approach_f - 0.5) * plr + effects.condenser_fouling * (0.3 + 0.7 * plr)
    lift0 = design_lift(design)
    power = tonnage * design.design_kw_per_ton
    safe_flow = np.where(cw_flow > 0, cw_flow, 1.0)
    for _ in range(3):  # fixed-point: power -> heat rejected -> LCWT -> lift -> power
        condenser_out = condenser_in + 24 * (tonnage + KW_TO_TONS * power) / safe_flow
        condensing = condenser_out + cond_approach
        lift = condensing - refrigerant
        kw_per_ton = (design.design_kw_per_ton * partload_factor(plr) * (0.2 + 0.8 * lift / lift0)
                      * (1 + effects.compressor_wear))
        power = tonnage * kw_per_ton
    state = ChillerState(
        running=running, plr=plr, tonnage=tonnage, power_kw=power, kw_per_ton=np.where(running, kw_per_ton, 0.0),
        chw_flow=chw_flow, cw_flow=cw_flow, setpoint=setpoint, supply=supply,
        return_temp=supply + 24 * tonnage / np.where(running, design.chw_flow_gpm, 1.0),
        refrigerant_evap=refrigerant, condenser_in=condenser_in, condenser_out=condenser_out, condensing=condensing,
    )
    _relax_off_periods(state, weather)
    return state


def _relax_off_periods(state: ChillerState, weather: Weather) -> None:
    """While off, water and refrigerant temperatures drift from their last running values to the room."""
    size = state.running.size
    index = np.arange(size)
    last_on = np.maximum.accumulate(np.where(state.running, index, -1))
    hours_off = (index - last_on) * 0.25
    never_ran = last_on < 0
    weight = np.where(never_ran, 0.0, np.exp(-hours_off / OFF_TIME_CONSTANT_H))
    room = 68.0 + 0.12 * (weather.dry_bulb - 60.0)
    anchor = np.where(never_ran, 0, last_on)
    off = ~state.running
    for name, ambient_offset in (("supply", 0.0), ("return_temp", 0.3), ("refrigerant_evap", -0.5),
                                 ("condenser_in", 1.0), ("condenser_out", 1.2), ("condensing", 1.5)):
        values = getattr(state, name)
        relaxed = room + ambient_offset + (values[anchor] - room - ambient_offset) * weight
        setattr(state, name, np.where(off, relaxed, values))
