"""The chiller plant: design data per chiller, building cooling load, and chiller staging.

Staging always runs over all four telemetry chillers (even when fewer are generated) so a chiller's
data does not depend on which others were asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fleet.generator.timegrid import TimeGrid, stream
from fleet.generator.weather import Weather
from fleet.model import TELEMETRY_ASSETS


@dataclass(frozen=True)
class ChillerDesign:
    """Nameplate and design-point data of one chiller (hidden constants of the physics)."""

    asset_id: str
    capacity_tons: float
    chw_flow_gpm: float  # chilled-water flow, constant primary flow while running
    cw_flow_gpm: float  # condenser-water design flow
    design_kw_per_ton: float  # at full load and design lift
    evap_approach_f: float  # supply minus refrigerant evaporating temperature at full load
    cond_approach_f: float  # condensing temperature minus leaving condenser water at full load
    setpoint_f: float
    lead_rank: int  # position in the staging rotation


DESIGNS: dict[str, ChillerDesign] = {
    "Chiller 3": ChillerDesign("Chiller 3", 650, 1560, 1950, 0.62, 2.4, 2.0, 44.0, 2),
    "Chiller 4": ChillerDesign("Chiller 4", 650, 1560, 1950, 0.60, 2.2, 1.8, 44.0, 3),
    "Chiller 6": ChillerDesign("Chiller 6", 1100, 2640, 3300, 0.57, 2.6, 2.2, 43.0, 1),
    "Chiller 9": ChillerDesign("Chiller 9", 1100, 2640, 3300, 0.56, 2.5, 2.0, 44.0, 0),
}

BASE_LOAD_TONS = 110.0  # process and IT load that never stops
SENSIBLE_TONS_PER_F = 48.0  # above the balance point
LATENT_TONS_PER_F = 42.0  # above a 58 degF wet-bulb
BALANCE_POINT_F = 52.0
ECONOMIZER_WET_BULB_F = 38.0  # below this the plate heat exchanger carries the load
STAGE_UP_LOAD_RATIO = 0.9  # stage another chiller before the running ones exceed 90% load
LOW_LOAD_CYCLING_RATIO = 0.12  # below this part-load ratio a chiller short-cycles


def occupancy(grid: TimeGrid) -> np.ndarray:
    """Internal-gain factor: weekday business hours 1.0, nights and weekends lower."""
    day = np.clip((grid.hour - 6.0) / 2.0, 0, 1) * np.clip((20.0 - grid.hour) / 2.0, 0, 1)
    weekday = grid.weekday < 5
    return np.where(weekday, 0.55 + 0.45 * day, 0.55 + 0.1 * day)


def plant_load(grid: TimeGrid, weather: Weather, seed: int) -> np.ndarray:
    """Building cooling load in tons, with thermal-mass smoothing and noise."""
    rng = stream(seed, "load")
    gains = occupancy(grid)
    weather_load = (SENSIBLE_TONS_PER_F * np.clip(weather.dry_bulb - BALANCE_POINT_F, 0, None)
                    + LATENT_TONS_PER_F * np.clip(weather.wet_bulb - 58.0, 0, None))
    raw = BASE_LOAD_TONS * (0.9 + 0.1 * gains) + gains * weather_load
    # Building mass delays and smooths the load by about two hours.
    smoothed = pd.Series(raw).ewm(halflife=6, adjust=False).mean().to_numpy()
    return np.clip(smoothed * (1 + 0.03 * rng.standard_normal(grid.size)), 0, None)


def _economizer(weather: Weather) -> np.ndarray:
    """True where free cooling carries the load (6-hour mean wet-bulb below the changeover)."""
    mean_wet = pd.Series(weather.wet_bulb).rolling(24, min_periods=1).mean().to_numpy()
    return mean_wet < ECONOMIZER_WET_BULB_F


def stage_chillers(grid: TimeGrid, load: np.ndarray, weather: Weather,
                   available: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Part-load ratio per chiller (0 = off). The lead rotates weekly; chillers stage on a 3-hour peak."""
    assets = list(TELEMETRY_ASSETS)
    # Weeks counted from a fixed Monday so the rotation does not depend on the generated window.
    week = (grid.local.normalize() - pd.Timestamp("2000-01-03")) // pd.Timedelta(days=7)
    week = np.asarray(week, dtype=np.int64)
    rank = {a: (DESIGNS[a].lead_rank + week) % len(assets) for a in assets}
    stage_load = pd.Series(load).rolling(12, min_periods=1).max().to_numpy() / STAGE_UP_LOAD_RATIO
    enabled = ~_economizer(weather)
    on: dict[str, np.ndarray] = {}
    for asset in assets:
        ahead = np.zeros(grid.size)
        for other in assets:
            if other != asset:
                ahead += np.where(available[other] & (rank[other] < rank[asset]), DESIGNS[other].capacity_tons, 0.0)
        on[asset] = enabled & available[asset] & (ahead < stage_load)
    running_capacity = sum(np.where(on[a], DESIGNS[a].capacity_tons, 0.0) for a in assets)
    share = np.divide(load, running_capacity, out=np.zeros(grid.size), where=running_capacity > 0)
    plr = np.clip(share, 0.0, 1.08)
    # At very low load the lead machine short-cycles: 45 minutes on, 30 minutes off.
    cycling_off = (plr < LOW_LOAD_CYCLING_RATIO) & (np.arange(grid.size) % 5 >= 3)
    return {a: np.where(on[a] & ~cycling_off, plr, 0.0) for a in assets}
