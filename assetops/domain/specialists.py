"""Specialist ids and what hangs off them: the rollout role and the artifact-id producer code.

The specialist id is one name everywhere: the graph node, the artifact producer, the rollout role's
key and the key of the specialist registry.
"""

from __future__ import annotations

from typing import Literal

SpecialistId = Literal["data", "timeseries", "failure", "maintenance"]
SPECIALISTS: tuple[SpecialistId, ...] = ("data", "timeseries", "failure", "maintenance")

# Rollout roles (docs/ROLLOUT_FORMAT.md) of each specialist.
ROLLOUT_ROLE: dict[SpecialistId, str] = {
    "data": "data_collection_specialist",
    "timeseries": "time_series_analysis_specialist",
    "failure": "failure_reasoning_specialist",
    "maintenance": "maintenance_planning_specialist",
}

# Short producer codes used in artifact ids, as in the rollout convention (artifact_<dc|ts|fr|mp>_...).
PRODUCER_CODES: dict[SpecialistId, str] = {"data": "dc", "timeseries": "ts", "failure": "fr", "maintenance": "mp"}


def rollout_role(specialist: str) -> str:
    """The rollout role of a specialist id; anything else (the supervisor, a user) keeps its own name."""
    return ROLLOUT_ROLE.get(specialist, specialist)  # type: ignore[call-overload]


def producer_code(specialist: str) -> str:
    """The two-letter code of a specialist in artifact ids; `xx` for anything that is not one."""
    return PRODUCER_CODES.get(specialist, "xx")  # type: ignore[call-overload]
