"""The generated fleet as the rest of the project uses it: configure, generate, inspect the fault schedule.

`fleet.generator` is this package's implementation (its own tests in tests/unit/fleet_generator test
its modules directly); code outside `fleet/` (the CLI, benches, tests
that need a small fleet) goes through these names, never through the generator's modules or its
constants (fleet facts come from the loaded data: `assetops.domain.catalog`).
"""

from __future__ import annotations

from fleet.generator import (
    DEFAULT_SEED,
    FaultEpisode,
    GeneratorConfig,
    Trip,
    default_episodes,
    generate_fleet,
    local_time,
    small_config,
    trip_dates,
    trips,
)
from fleet.generator.faults import episodes_frame, random_episodes, schedule_for
from fleet.generator.plant import DESIGNS
from fleet.generator.telemetry import SimulatedFleet, simulate
from fleet.generator.work_orders import work_orders

__all__ = [
    "DEFAULT_SEED",
    "DESIGNS",
    "FaultEpisode",
    "GeneratorConfig",
    "SimulatedFleet",
    "Trip",
    "default_episodes",
    "episodes_frame",
    "generate_fleet",
    "local_time",
    "random_episodes",
    "schedule_for",
    "simulate",
    "small_config",
    "trip_dates",
    "trips",
    "work_orders",
]
