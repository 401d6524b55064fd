"""Chiller-like synthetic series: a fallback training corpus when no fleet is loaded, and test data.

Daily and weekly load cycles, weather-like slow variation, sensor noise and night-time off periods,
so the models learn the shapes the real fleet has without depending on it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

STEPS_PER_DAY = 96  # 15-minute grid


def synthetic_chiller_frame(days: int, *, seed: int = 0, start: str = "2021-01-01T00:00:00-05:00") -> pd.DataFrame:
    """A frame with `timestamp` (ISO text with offset) and five chiller sensors on a 15-minute grid."""
    rng = np.random.default_rng(seed)
    steps = days * STEPS_PER_DAY
    t = np.arange(steps)
    hour = (t % STEPS_PER_DAY) / 4.0
    weekday = (t // STEPS_PER_DAY) % 7 < 5
    weather = np.convolve(rng.normal(0, 1, steps + 960), np.ones(960) / 960, mode="valid")[:steps] * 8
    daily = np.clip(np.sin((hour - 6) / 24 * 2 * np.pi), 0, None)
    load = np.clip(35 + 45 * daily * (1.0 if seed % 2 else 0.9) + 10 * weekday + weather, 5, 100)
    running = ~((hour < 5) & ~weekday)
    tonnage = np.where(running, 4.0 * load + rng.normal(0, 6, steps), rng.normal(0, 0.5, steps))
    power = np.where(running, 0.62 * tonnage * (1 + 0.002 * (load - 60) ** 2 / 60) + rng.normal(0, 4, steps), 0.5)
    supply = 44 + 0.03 * (load - 50) + rng.normal(0, 0.15, steps)
    ts = pd.date_range(pd.Timestamp(start), periods=steps, freq="15min")
    return pd.DataFrame({
        "timestamp": [x.isoformat() for x in ts],
        "Tonnage": tonnage, "Power Input": power, "Supply Temperature": supply,
        "Return Temperature": supply + tonnage / 40 + rng.normal(0, 0.2, steps),
        "Chiller % Loaded": np.where(running, load, 0.0),
    })
