"""The dispatch node: runs every ready task's specialist concurrently, under a cap.

Each specialist gets one narrow task and the session's artifacts; it hands back a short summary
and artifact ids. A specialist that crashes (or one a test's registry leaves out) becomes a failed
result with a message a person can read: the supervisor replans around it, nothing escapes the turn.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from artifacts.model import Artifact
from assetops.domain.events import EventType
from assetops.domain.turn import SpecialistResult, SpecialistTask
from graph.context import TurnContext
from graph.nodes.common import session_artifacts
from graph.planning.replan import ready_tasks
from graph.state import SupervisorState, encode_window
from specialists.base import Specialist, SpecialistContext

log = logging.getLogger(__name__)


async def dispatch(state: SupervisorState, runtime: Runtime[TurnContext]) -> Command[Literal["supervisor"]]:
    """Run the ready tasks (at most `max_parallel_specialists` at a time) and report back."""
    ctx = runtime.context
    plan = state.get("plan") or []
    ready = ready_tasks(plan)
    artifacts = await session_artifacts(ctx)
    gate = asyncio.Semaphore(max(1, ctx.deps.config.max_parallel_specialists))

    step = state.get("step", 0)

    async def run_gated(index: int) -> SpecialistResult:
        async with gate:
            return await run_task(ctx, plan[index], index, step, artifacts)

    results = await asyncio.gather(*(run_gated(i) for i in ready))
    visible = list(state.get("artifact_ids") or [])
    for result in results:
        for artifact_id in result.all_artifact_ids:
            if artifact_id not in visible:
                visible.append(artifact_id)
    return Command(goto="supervisor",
                   update={"results": [*(state.get("results") or []), *results], "artifact_ids": visible})


async def run_task(ctx: TurnContext, planned: SpecialistTask, index: int, step: int,
                    artifacts: list[Artifact]) -> SpecialistResult:
    # The specialist gets its own copy, without the plan's bookkeeping (some fill in ids in place).
    task = replace(planned, asset_ids=list(planned.asset_ids), status="pending", attempts=0, reason="")
    specialist_id = task.specialist
    await ctx.event("specialist_started", specialist=specialist_id, index=index, action=task.action,
                    goal=task.goal, asset_ids=task.asset_ids, window=encode_window(task.window),
                    attempt=planned.attempts, input_artifact_ids=[a.id for a in artifacts])
    specialist = ctx.deps.specialists.get(specialist_id)
    unavailable, crashed = specialist is None, False
    if specialist is None:
        reason = ctx.deps.specialists.missing_reason(specialist_id)
        result = SpecialistResult(specialist_id, task.action, "failed",
                                  f"Not run: {task.goal or task.action} ({reason}).", errors=[reason])
    else:
        sctx = SpecialistContext(session_id=ctx.session_id, turn_index=ctx.turn_index,
                                 reference_date=ctx.reference_date, store=ctx.deps.store, tools=ctx.tools,
                                 emit=ctx.emit, catalog=ctx.deps.catalog, visible_artifacts=artifacts, llm=ctx.deps.llm)
        result, crashed = await _guarded_run(specialist, task, sctx)
    await _announce_artifacts(ctx, result)
    await ctx.event("specialist_finished", specialist=specialist_id, index=index, action=task.action,
                    status=result.status, summary=result.summary, artifact_ids=result.artifact_ids,
                    reused_artifact_ids=result.reused_artifact_ids, errors=result.errors,
                    follow_ups=[f"{t.specialist}.{t.action}" for t in result.follow_ups])
    retryable = crashed or bool(result.follow_ups) or any(_transient(e) for e in result.errors)
    return replace(result, task_index=index, step=step, unavailable=unavailable, retryable=retryable)


# Failures worth a second attempt: the same request may succeed once the cause has passed.
TRANSIENT_MARKERS = ("timed out", "timeout", "locked", "temporar", "connection", "unavailable")


def _transient(error: str) -> bool:
    return any(marker in error.lower() for marker in TRANSIENT_MARKERS)


async def _guarded_run(specialist: Specialist, task: SpecialistTask, sctx: SpecialistContext) -> tuple[SpecialistResult, bool]:
    """The specialist's result, and whether it crashed (a crash is worth one retry)."""
    try:
        return await specialist.run(task, sctx), False
    except Exception as exc:  # a specialist bug becomes a failed result, never a crashed turn
        log.exception("specialist %s failed on %s", task.specialist, task.action)
        return SpecialistResult(task.specialist, task.action, "failed",
                                f"The {task.specialist} specialist failed on '{task.goal or task.action}'.",
                                errors=[f"{type(exc).__name__}: {exc}"]), True


async def _announce_artifacts(ctx: TurnContext, result: SpecialistResult) -> None:
    announcements: list[tuple[EventType, list[str]]] = [("artifact_created", result.artifact_ids),
                                                         ("artifact_reused", result.reused_artifact_ids)]
    for kind, ids in announcements:
        for artifact_id in ids:
            artifact = await ctx.deps.store.get(artifact_id)
            compact = artifact.compact() if artifact is not None else {"id": artifact_id}
            await ctx.event(kind, specialist=result.specialist, artifact_id=artifact_id, artifact=compact)
