"""The failure specialist: one handler per action of `assetops.domain.actions.ACTIONS["failure"]`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from assetops.domain.actions import ACTIONS
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult
from specialists.failure import handlers_diagnosis, handlers_knowledge
from specialists.timeseries.results import unknown_action

Handler = Callable[[SpecialistTask, SpecialistContext], Awaitable[SpecialistResult]]

HANDLERS: dict[str, Handler] = {
    "failure_modes": handlers_knowledge.failure_modes,
    "sensor_mapping": handlers_knowledge.sensor_mapping,
    "diagnose": handlers_diagnosis.diagnose,
    "sensor_validity": handlers_diagnosis.sensor_validity_check,
}


class FailureSpecialist:
    """Failure modes, their sensor signatures, and ranked diagnoses from the session's evidence."""

    id: SpecialistId = "failure"

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Run one failure task; an unknown action is a failed result, never an exception."""
        handler = HANDLERS.get(task.action)
        if handler is None:
            return unknown_action("failure", task, ACTIONS["failure"])
        return await handler(task, ctx)
