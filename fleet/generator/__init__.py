"""Fault-injected MAIN-site chiller fleet generator.

    from fleet.generator import generate_fleet, small_config
    fleet = generate_fleet()                                   # seed 7, 2016-2021, four chillers
    small = generate_fleet(small_config("2021-06-01", "2021-06-30", assets=["Chiller 9"]))
    trip_dates(fleet.fault_episodes, "Chiller 9", with_offline_sensor=True)
"""

from fleet.generator.config import DEFAULT_SEED, GENERATOR_VERSION, GeneratorConfig, small_config
from fleet.generator.faults import FaultEpisode, default_episodes, local_time
from fleet.generator.fleet import generate_fleet
from fleet.generator.trips import Trip, trip_dates, trips

__all__ = [
    "DEFAULT_SEED", "GENERATOR_VERSION", "FaultEpisode", "GeneratorConfig", "Trip", "default_episodes",
    "generate_fleet", "local_time", "small_config", "trip_dates", "trips",
]
