"""The failure specialist: one handler per action of `assetops.domain.actions.ACTIONS["failure"]`."""

from __future__ import annotations

from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult
from specialists.dispatch import Handlers, dispatch
from specialists.failure import handlers_diagnosis, handlers_knowledge

HANDLERS: Handlers = {
    "failure_modes": handlers_knowledge.failure_modes,
    "sensor_mapping": handlers_knowledge.sensor_mapping,
    "diagnose": handlers_diagnosis.diagnose,
    "sensor_validity": handlers_diagnosis.sensor_validity_check,
}


class FailureSpecialist:
    """Failure modes, their sensor signatures, and ranked diagnoses from the session's evidence."""

    id: SpecialistId = "failure"
    handlers: Handlers = HANDLERS

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Run one failure task; an unknown action is a failed result, never an exception."""
        return await dispatch("failure", self.handlers, task, ctx)
