"""One dispatch style for every specialist: a table of handlers keyed by action name.

A specialist's `run` looks the task's action up in its table and awaits the handler; an action the
table lacks is a failed result naming the actions it has, never an exception.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult

Handler = Callable[[SpecialistTask, SpecialistContext], Awaitable[SpecialistResult]]
"""One action of a specialist: the task and its context in, the result out."""

Handlers = Mapping[str, Handler]


async def dispatch(specialist: SpecialistId, handlers: Handlers, task: SpecialistTask,
                   ctx: SpecialistContext) -> SpecialistResult:
    """Run the handler of `task.action` from `handlers`; an unknown action is a failed result."""
    handler = handlers.get(task.action)
    if handler is None:
        return unknown_action(specialist, task, tuple(handlers))
    return await handler(task, ctx)


def unknown_action(specialist: SpecialistId, task: SpecialistTask, known: tuple[str, ...]) -> SpecialistResult:
    """The answer for an action this specialist does not have."""
    return SpecialistResult(
        specialist,
        task.action,
        "failed",
        f"The {specialist} specialist has no action '{task.action}' (it has: {', '.join(known)}).",
        errors=[f"unknown action {task.action}"],
    )
