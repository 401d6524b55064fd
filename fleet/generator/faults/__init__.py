"""Fault episodes (ground truth), schedules and their per-sample effects."""

from fleet.generator.faults.effects import FaultEffects, effects_for, no_effects, ramp_profile
from fleet.generator.faults.episodes import SEVERITY_UNITS, FaultEpisode, episodes_frame, local_time
from fleet.generator.faults.schedule import default_episodes, random_episodes, schedule_for

__all__ = [
    "SEVERITY_UNITS", "FaultEffects", "FaultEpisode", "default_episodes", "effects_for", "episodes_frame",
    "local_time", "no_effects", "ramp_profile", "random_episodes", "schedule_for",
]
