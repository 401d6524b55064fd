"""Simulate the plant and every configured chiller, and assemble the telemetry frame."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from fleet.generator.config import GeneratorConfig
from fleet.generator.faults import FaultEffects, FaultEpisode, effects_for
from fleet.generator.physics import ChillerState, simulate_chiller
from fleet.generator.plant import DESIGNS, plant_load, stage_chillers
from fleet.generator.sensors import asset_frame, read_sensors
from fleet.generator.timegrid import TimeGrid, build_grid, stream
from fleet.generator.weather import Weather, simulate_weather
from fleet.model import TELEMETRY_ASSETS, telemetry_columns


@dataclass
class SimulatedFleet:
    """Everything the physics produced: grid, weather, per-chiller effects and true state, telemetry."""

    grid: TimeGrid
    weather: Weather
    effects: dict[str, FaultEffects]
    states: dict[str, ChillerState]
    telemetry: pd.DataFrame


def simulate(config: GeneratorConfig, episodes: list[FaultEpisode]) -> SimulatedFleet:
    """Run weather -> load -> staging -> chiller physics -> sensors for the configured window."""
    grid = build_grid(config.start, config.end)
    weather = simulate_weather(grid, config.seed)
    config.report("weather and load", 0.05)
    effects = {a: effects_for(grid, [e for e in episodes if e.asset_id == a]) for a in TELEMETRY_ASSETS}
    available = {a: ~effects[a].tripped for a in TELEMETRY_ASSETS}
    plr = stage_chillers(grid, plant_load(grid, weather, config.seed), weather, available)
    states: dict[str, ChillerState] = {}
    frames: list[pd.DataFrame] = []
    for done, asset in enumerate(config.assets, start=1):
        rng = stream(config.seed, "sensors", asset)
        states[asset] = simulate_chiller(DESIGNS[asset], grid, weather, plr[asset], effects[asset])
        readings = read_sensors(asset, DESIGNS[asset], grid, states[asset], effects[asset], rng)
        frames.append(asset_frame(asset, grid, readings, rng))
        config.report("telemetry", 0.05 + 0.6 * done / len(config.assets))
    telemetry = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=telemetry_columns())
    return SimulatedFleet(grid, weather, effects, states, telemetry)

