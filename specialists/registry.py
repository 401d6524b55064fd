"""Which specialist answers which id: a static, explicit table of the four specialists.

Every specialist module is imported here, at startup: a missing or broken module is an import
error when the service starts, never an answer. Tests pass their own (possibly partial) table.
"""

from __future__ import annotations

from collections.abc import Mapping

from assetops.domain.specialists import SPECIALISTS, SpecialistId
from specialists.base import Specialist
from specialists.data import DataSpecialist
from specialists.failure import FailureSpecialist
from specialists.maintenance import MaintenanceSpecialist
from specialists.timeseries import TimeseriesSpecialist


def default_specialists() -> dict[SpecialistId, Specialist]:
    """The four specialists of the service, keyed by specialist id."""
    return {
        "data": DataSpecialist(),
        "timeseries": TimeseriesSpecialist(),
        "failure": FailureSpecialist(),
        "maintenance": MaintenanceSpecialist(),
    }


class SpecialistRegistry:
    """Specialists by id: the four of the service, or the table a test passes."""

    def __init__(self, specialists: Mapping[SpecialistId, Specialist] | None = None) -> None:
        table = default_specialists() if specialists is None else specialists
        self._specialists: dict[str, Specialist] = {str(k): v for k, v in table.items()}

    def get(self, specialist_id: str) -> Specialist | None:
        """The specialist for `specialist_id`, or None when this table has none."""
        return self._specialists.get(specialist_id)

    def missing_reason(self, specialist_id: str) -> str:
        """Why `get` returned None, in words a user can read."""
        if specialist_id not in SPECIALISTS:
            return f"'{specialist_id}' is not a specialist (known: {', '.join(SPECIALISTS)})"
        return f"no {specialist_id} specialist is registered"

    def available(self) -> list[str]:
        """Ids that resolve to a specialist, in the canonical order."""
        return [s for s in SPECIALISTS if s in self._specialists]
