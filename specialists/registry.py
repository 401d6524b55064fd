"""Which specialist answers which id: discovered from the specialist modules, or registered.

Specialist modules are written in parallel; a module that does not exist yet (or does not import)
leaves its id unavailable, and the supervisor turns that into an honest "not available yet" answer
instead of a crash. A module provides its specialist as a module attribute `SPECIALIST`, or as a
class whose `id` attribute is the specialist id and whose constructor takes no arguments.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from types import ModuleType
from typing import cast

from assetops.domain.specialists import SPECIALISTS, SpecialistId
from specialists.base import Specialist

log = logging.getLogger(__name__)

SPECIALIST_MODULES: dict[SpecialistId, str] = {
    "data": "specialists.data",
    "timeseries": "specialists.timeseries",
    "failure": "specialists.failure",
    "maintenance": "specialists.maintenance",
}


def _from_module(module: ModuleType, specialist_id: SpecialistId) -> Specialist | None:
    candidate = getattr(module, "SPECIALIST", None)
    if candidate is not None and getattr(candidate, "id", None) == specialist_id:
        return cast(Specialist, candidate)
    for _, value in inspect.getmembers(module, inspect.isclass):
        if getattr(value, "id", None) == specialist_id and callable(getattr(value, "run", None)):
            try:
                return cast(Specialist, value())
            except TypeError as exc:
                log.warning("specialist class %s needs arguments: %s", value.__name__, exc)
    return None


class SpecialistRegistry:
    """Specialists by id. `unavailable_reason` says why an id has none."""

    def __init__(self, specialists: dict[SpecialistId, Specialist] | None = None, *, discover: bool = True) -> None:
        self._specialists: dict[str, Specialist] = {str(k): v for k, v in (specialists or {}).items()}
        self._reasons: dict[str, str] = {}
        self._discover = discover

    def register(self, specialist: Specialist) -> None:
        """Add or replace the specialist for its id."""
        self._specialists[specialist.id] = specialist

    def get(self, specialist_id: str) -> Specialist | None:
        """The specialist for `specialist_id`, discovering its module on first use."""
        if specialist_id in self._specialists:
            return self._specialists[specialist_id]
        if self._discover and specialist_id in SPECIALIST_MODULES and specialist_id not in self._reasons:
            self._load(specialist_id)  # type: ignore[arg-type]
        return self._specialists.get(specialist_id)

    def unavailable_reason(self, specialist_id: str) -> str:
        """Why `get` returned None, in words a user can read."""
        if specialist_id not in SPECIALISTS:
            return f"'{specialist_id}' is not a specialist (known: {', '.join(SPECIALISTS)})"
        return self._reasons.get(specialist_id, f"the {specialist_id} specialist is not available yet")

    def available(self) -> list[str]:
        """Ids that currently resolve to a specialist."""
        return [s for s in SPECIALISTS if self.get(s) is not None]

    def _load(self, specialist_id: SpecialistId) -> None:
        module_name = SPECIALIST_MODULES[specialist_id]
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            self._reasons[specialist_id] = f"the {specialist_id} specialist is not available yet ({exc})"
            return
        specialist = _from_module(module, specialist_id)
        if specialist is None:
            self._reasons[specialist_id] = f"the {specialist_id} specialist is not available yet"
            return
        self._specialists[specialist_id] = specialist
