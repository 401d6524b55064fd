"""Turn one chiller's fault episodes into per-sample effect arrays for the physics and sensor layers."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from fleet.generator.faults.episodes import FaultEpisode
from fleet.generator.timegrid import TimeGrid

SECONDS_PER_30_DAYS = 30 * 86400.0


@dataclass
class FaultEffects:
    """Effect magnitudes per grid sample (0 where no fault); see SEVERITY_UNITS for the units."""

    evaporator_fouling: np.ndarray
    refrigerant_loss: np.ndarray
    condenser_fouling: np.ndarray
    condenser_flow_loss: np.ndarray
    compressor_wear: np.ndarray
    tripped: np.ndarray  # bool: the chiller cannot run (after a trip, until restart)
    offline: dict[str, np.ndarray] = field(default_factory=dict)  # sensor -> bool mask of no data
    drift: dict[str, np.ndarray] = field(default_factory=dict)  # sensor -> reading offset, degF


def no_effects(size: int) -> FaultEffects:
    """Effects of a healthy chiller."""
    zeros = np.zeros(size)
    return FaultEffects(zeros.copy(), zeros.copy(), zeros.copy(), zeros.copy(), zeros.copy(),
                        np.zeros(size, dtype=bool))


def _seconds(grid: TimeGrid) -> np.ndarray:
    return ((grid.ts - grid.ts[0]) / pd.Timedelta(seconds=1)).to_numpy(dtype=float) if grid.size else np.zeros(0)


def _offset(grid: TimeGrid, when: pd.Timestamp) -> float:
    return (when - grid.ts[0]).total_seconds() if grid.size else 0.0


def _window(seconds: np.ndarray, start: float, stop: float) -> np.ndarray:
    return (seconds >= start) & (seconds < stop)


def ramp_profile(grid: TimeGrid, episode: FaultEpisode, stop: pd.Timestamp | None = None) -> np.ndarray:
    """0 before onset, linear 0->1 from onset to peak (a step for shape 'step'), 1 until repair, then 0."""
    seconds = _seconds(grid)
    onset, peak = _offset(grid, episode.onset), _offset(grid, episode.peak)
    until = stop if stop is not None else episode.repair
    end = _offset(grid, until) if until is not None else np.inf
    if episode.details.get("shape") == "step" or peak <= onset:
        profile = np.ones_like(seconds)
    else:
        profile = np.clip((seconds - onset) / (peak - onset), 0.0, 1.0)
    return np.where(_window(seconds, onset, end), profile, 0.0)


def _restart(episode: FaultEpisode) -> pd.Timestamp:
    """When a tripped chiller runs again (details 'restart', else the repair, else 36 h later)."""
    if "restart" in episode.details:
        return pd.Timestamp(str(episode.details["restart"])).tz_convert("UTC")
    return episode.repair if episode.repair is not None else episode.onset + pd.Timedelta(hours=36)


def effects_for(grid: TimeGrid, episodes: list[FaultEpisode]) -> FaultEffects:
    """Accumulate every episode of one chiller into its effect arrays."""
    effects = no_effects(grid.size)
    seconds = _seconds(grid)
    for episode in episodes:
        kind = episode.fault_type
        if kind == "evaporator_fouling":
            effects.evaporator_fouling += episode.severity * ramp_profile(grid, episode)
        elif kind == "refrigerant_loss":
            effects.refrigerant_loss += episode.severity * ramp_profile(grid, episode)
        elif kind == "condenser_fouling":
            effects.condenser_fouling += episode.severity * ramp_profile(grid, episode)
        elif kind == "condenser_flow":
            effects.condenser_flow_loss += episode.severity * ramp_profile(grid, episode)
        elif kind == "compressor_overheating":
            # Wear grows until the thermal safety trips the machine at the peak; it stays off until repaired.
            effects.compressor_wear += episode.severity * ramp_profile(grid, episode, stop=episode.peak)
            effects.tripped |= _window(seconds, _offset(grid, episode.peak), _offset(grid, episode.end))
        elif kind == "trip":
            effects.tripped |= _window(seconds, _offset(grid, episode.onset), _offset(grid, _restart(episode)))
            dead = _window(seconds, _offset(grid, episode.onset), _offset(grid, episode.end))
            for sensor in episode.details.get("offline_sensors", []):
                effects.offline[sensor] = effects.offline.get(sensor, np.zeros(grid.size, dtype=bool)) | dead
        elif kind == "sensor_drift":
            active = _window(seconds, _offset(grid, episode.onset), _offset(grid, episode.end))
            offset = episode.severity * (seconds - _offset(grid, episode.onset)) / SECONDS_PER_30_DAYS
            sensor = str(episode.details.get("sensor", "Supply Temperature"))
            effects.drift[sensor] = effects.drift.get(sensor, np.zeros(grid.size)) + np.where(active, offset, 0.0)
    effects.condenser_flow_loss = np.clip(effects.condenser_flow_loss, 0.0, 0.8)
    return effects
