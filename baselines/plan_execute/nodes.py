"""The plan-execute baseline's two own nodes: plan (once, up front) and execute (the whole plan).

The summariser is the supervisor graph's respond node, unchanged. See the package docstring for the
design; the supervisor's helpers are reused so the two architectures differ only in control flow
and memory.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from assetops.domain.turn import Decision, Focus, SpecialistResult, TurnDecision
from baselines.plan_execute import ARCH
from baselines.plan_execute.scoped_store import TurnScopedStore
from graph.context import TurnContext
from graph.nodes.common import decision_payload, last_user_message, session_artifacts
from graph.nodes.dispatch import run_task  # the supervisor's own task runner: same specialists, same events
from graph.nodes.supervisor import initial_plan, offline_planner  # the same planner, validation and cap
from graph.planning.planner import call_planner
from graph.planning.replan import fold_results, ready_tasks
from graph.state import SupervisorState, state_focus

log = logging.getLogger(__name__)


async def _decide(ctx: TurnContext, state: SupervisorState, message: str, focus: Focus) -> tuple[Decision, list[str]]:
    """The whole turn's decision from the configured planner, shown no earlier artifacts."""
    if ctx.deps.llm is not None:
        from graph.planning.llm_decision import llm_decide

        try:
            return await llm_decide(ctx, state, message, focus, []), []
        except Exception as exc:  # same fallback as the supervisor: plan offline
            log.warning("LLM plan failed, planning offline: %s", exc)
            await ctx.event("error", stage="planner", message=f"LLM plan failed: {exc}", recovered=True)
    return await call_planner(offline_planner(ctx), message, focus, ctx.reference_date, []), []


async def plan(state: SupervisorState, runtime: Runtime[TurnContext]) -> Command[Literal["execute", "respond"]]:
    """Write the turn's whole plan (every step, with dependencies) before anything runs."""
    ctx = runtime.context
    decision, notes = await _decide(ctx, state, last_user_message(state), state_focus(state))
    tasks, dropped, kind = initial_plan(decision, ctx.deps.config.max_tasks_per_turn)
    notes += dropped
    await ctx.event("supervisor_decision", arch=ARCH, plan_kind="original", **decision_payload(
        kind=kind, intent=decision.intent, message=decision.message, plan=tasks, indexes=list(range(len(tasks))),
        step=1, notes=notes, assumptions=decision.assumptions, artifact_ids=[]))
    update: dict[str, Any] = {"step": 1, "plan": tasks, "notes": notes, "results": [],
                              "decision": TurnDecision.of(decision, kind=kind), "focus": decision.focus}
    if decision.reference_date is not None:
        update["reference_date"] = decision.reference_date.isoformat()
    return Command(goto="execute" if tasks else "respond", update=update)


def _without_follow_ups(result: SpecialistResult) -> SpecialistResult:
    """A successful step's suggestions are not acted on: the plan is not re-decided after a success."""
    return result if result.status not in ("ok", "partial") else replace(result, follow_ups=[])


async def execute(state: SupervisorState, runtime: Runtime[TurnContext]) -> Command[Literal["respond"]]:
    """Run the plan wave by wave in dependency order; replan (fold the failure) only when a step failed."""
    ctx = runtime.context
    config = ctx.deps.config
    scoped = replace(ctx, deps=replace(ctx.deps, store=TurnScopedStore(ctx.deps.store, ctx.turn_index)))  # type: ignore[arg-type]
    plan_ = list(state.get("plan") or [])
    results, notes = list(state.get("results") or []), list(state.get("notes") or [])
    visible: list[str] = list(state.get("artifact_ids") or [])
    this_turn: list[str] = []
    step = state.get("step", 1)
    gate = asyncio.Semaphore(max(1, config.max_parallel_specialists))

    async def run_gated(index: int, artifacts: list[Any]) -> SpecialistResult:
        async with gate:
            return await run_task(scoped, plan_[index], index, step, artifacts)

    while (ready := ready_tasks(plan_)) and step <= config.max_steps:
        artifacts = await session_artifacts(ctx, this_turn)
        wave = await asyncio.gather(*(run_gated(i, artifacts) for i in ready))
        for result in wave:
            for artifact_id in result.all_artifact_ids:
                this_turn += [artifact_id] if artifact_id not in this_turn else []
                visible += [artifact_id] if artifact_id not in visible else []
        results += wave
        folded = fold_results(plan_, [_without_follow_ups(r) for r in wave], max_retries=config.max_task_retries,
                              max_tasks=config.max_tasks_per_turn)
        plan_, step = folded.plan, step + 1
        if any(r.status not in ("ok", "partial") for r in wave):
            notes += folded.notes
            again = ready_tasks(plan_)
            decision = state.get("decision") or TurnDecision()
            await ctx.event("supervisor_decision", arch=ARCH, plan_kind="replan", **decision_payload(
                kind="run" if again else "answer", intent=decision.intent, message="", plan=plan_, indexes=again,
                step=step, notes=folded.notes, assumptions=[], artifact_ids=visible))
    return Command(goto="respond", update={"plan": plan_, "results": results, "notes": notes, "step": step,
                                           "artifact_ids": visible})
