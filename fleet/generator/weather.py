"""Outdoor weather at the site: dry-bulb and wet-bulb temperature (degF) on the grid.

A seasonal cycle (coldest around 20 January), a diurnal cycle (warmest at 15:00), and multi-day
weather systems (smoothed daily noise) for a humid-continental climate like the US north-east.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fleet.generator.timegrid import TimeGrid, stream

ANNUAL_MEAN_F = 55.0
SEASONAL_AMPLITUDE_F = 21.0
COLDEST_DAY_OF_YEAR = 20
DIURNAL_AMPLITUDE_F = 8.0
WARMEST_HOUR = 15.0
SYNOPTIC_SIGMA_F = 5.5


@dataclass(frozen=True)
class Weather:
    """Ambient conditions per grid point."""

    dry_bulb: np.ndarray
    wet_bulb: np.ndarray


def _smooth_daily_noise(rng: np.random.Generator, days: int, alpha: float, sigma: float) -> np.ndarray:
    """Daily noise with day-to-day persistence (exponentially smoothed), rescaled to `sigma`."""
    raw = pd.Series(rng.standard_normal(days + 1))
    smooth = raw.ewm(alpha=alpha, adjust=False).mean().to_numpy()
    return smooth / max(float(np.std(smooth)), 1e-9) * sigma


def _per_grid(daily: np.ndarray, grid: TimeGrid) -> np.ndarray:
    """Interpolate daily values (centred at noon) onto the grid."""
    position = grid.day_index + grid.hour / 24.0 - 0.5
    return np.interp(position, np.arange(daily.size, dtype=float), daily)


def simulate_weather(grid: TimeGrid, seed: int) -> Weather:
    """Dry- and wet-bulb temperatures for the grid; the same seed gives the same weather."""
    rng = stream(seed, "weather")
    days = int(grid.day_index.max()) + 1 if grid.size else 1
    seasonal = ANNUAL_MEAN_F - SEASONAL_AMPLITUDE_F * np.cos(
        2 * np.pi * (grid.day_of_year - COLDEST_DAY_OF_YEAR) / 365.25)
    # Days are less variable in summer, as in the real climate: scale the diurnal swing by season.
    diurnal = DIURNAL_AMPLITUDE_F * (0.8 + 0.2 * (seasonal - 34) / 42) * np.cos(
        2 * np.pi * (grid.hour - WARMEST_HOUR) / 24)
    synoptic = _per_grid(_smooth_daily_noise(rng, days, alpha=0.45, sigma=SYNOPTIC_SIGMA_F), grid)
    dry = seasonal + diurnal + synoptic
    # Wet-bulb depression grows with temperature (warm air holds more moisture deficit) and varies
    # with humid / dry spells; it is smallest before dawn when relative humidity peaks.
    humidity_spell = _per_grid(_smooth_daily_noise(rng, days, alpha=0.5, sigma=1.8), grid)
    depression = 2.0 + 0.2 * np.clip(dry - 32.0, 0, None) + humidity_spell + 0.4 * diurnal
    depression = np.clip(depression, 0.8, 22.0)
    return Weather(dry_bulb=dry, wet_bulb=dry - depression)
