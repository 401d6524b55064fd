"""One dispatch style for every specialist: a table of handlers keyed by action name.

A specialist's `run` looks the task's action up in its table and awaits the handler; an action the
table lacks is a failed result naming the actions it has, never an exception.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

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
    return cite_fetched(await handler(task, ctx), ctx.fetched_artifact_ids)


def cite_fetched(result: SpecialistResult, fetched: list[str]) -> SpecialistResult:
    """The result with the telemetry windows its task fetched for itself cited as made by it (handlers
    list the telemetry they rest on as reused, whichever way it was obtained)."""
    if not fetched:
        return result
    made = [*result.artifact_ids, *(a for a in fetched if a not in result.artifact_ids)]
    return replace(result, artifact_ids=made, reused_artifact_ids=[a for a in result.reused_artifact_ids
                                                                    if a not in fetched])


def unknown_action(specialist: SpecialistId, task: SpecialistTask, known: tuple[str, ...]) -> SpecialistResult:
    """The answer for an action this specialist does not have."""
    return SpecialistResult(
        specialist,
        task.action,
        "failed",
        f"The {specialist} specialist has no action '{task.action}' (it has: {', '.join(known)}).",
        errors=[f"unknown action {task.action}"],
    )
