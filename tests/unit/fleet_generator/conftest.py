"""Shared small fleets for the generator tests (weeks to a few months, about a second each)."""

from __future__ import annotations

from datetime import date

import pytest

from fleet.model import FleetData
from fleet.synthetic import (
    FaultEpisode,
    GeneratorConfig,
    SimulatedFleet,
    generate_fleet,
    simulate,
    small_config,
)


@pytest.fixture(scope="session")
def spring_2021_fleet() -> FleetData:
    """The default seed's May-June 2021, all four chillers (Chiller 9 evaporator-approach surge)."""
    return generate_fleet(small_config("2021-05-01", "2021-06-30"))


def simulate_pair(episode: FaultEpisode, start: str, end: str) -> tuple[SimulatedFleet, SimulatedFleet]:
    """(baseline, faulty) simulations of the episode's chiller with the same seed, weather and noise."""
    def run(episodes: tuple[FaultEpisode, ...]) -> SimulatedFleet:
        config = GeneratorConfig(seed=11, start=date.fromisoformat(start), end=date.fromisoformat(end),
                                 assets=(episode.asset_id,), episodes=episodes)
        return simulate(config, list(episodes))
    return run(()), run((episode,))
