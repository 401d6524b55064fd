"""The supervisor node: decides the turn's plan, then re-decides after every dispatch.

First step: the planner (offline) or the chat model (LLM mode, structured output) reads the
message against the focus and the artifacts and decides to run specialists, answer, ask or refuse.
Later steps fold the specialists' results into the plan (`graph.planning.replan`): retries, follow-ups for
missing evidence, skips around what could not be obtained, and a hard step limit.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from functools import partial
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from assetops.domain.actions import ACTIONS
from assetops.domain.turn import Decision, DecisionKind, SpecialistTask, TurnDecision
from graph.context import TurnContext
from graph.nodes.common import decision_payload, last_user_message, session_artifacts
from graph.planning.offline import plan_turn
from graph.planning.planner import Planner, call_planner
from graph.planning.replan import capped_plan, fold_results, ready_tasks
from graph.state import SupervisorState, state_focus

log = logging.getLogger(__name__)

Next = Literal["dispatch", "respond"]


async def supervisor(state: SupervisorState, runtime: Runtime[TurnContext]) -> Command[Next]:
    """Decide (first step) or re-decide (after a dispatch) what the turn does next."""
    ctx = runtime.context
    step = state.get("step", 0) + 1
    if step == 1:
        return await _first_decision(state, ctx)
    return await _redecide(state, ctx, step)


async def _decide(state: SupervisorState, ctx: TurnContext) -> tuple[Decision, list[str]]:
    """The decision for the user's message, plus notes on how it was reached (fallbacks)."""
    message = last_user_message(state)
    focus = state_focus(state)
    artifacts = await session_artifacts(ctx, state.get("artifact_ids") or [])
    notes: list[str] = []
    if ctx.deps.llm is not None:
        from graph.planning.llm_decision import llm_decide

        try:
            return await llm_decide(ctx, state, message, focus, artifacts), notes
        except Exception as exc:  # a model/endpoint failure must not end the turn: plan offline instead
            log.warning("LLM decision failed, planning offline: %s", exc)
            notes.append(f"The language model could not plan this turn ({type(exc).__name__}); "
                         "the offline planner did.")
            await ctx.event("error", stage="supervisor", message=f"LLM decision failed: {exc}", recovered=True)
    return await call_planner(offline_planner(ctx), message, focus, ctx.reference_date, artifacts), notes


def offline_planner(ctx: TurnContext) -> Planner:
    """The injected planner, else the offline planner bound to this fleet's catalog and message limit."""
    return ctx.deps.planner or partial(plan_turn, catalog=ctx.deps.catalog,
                                       max_message_chars=ctx.deps.settings.max_message_chars)


def valid_tasks(decision: Decision) -> tuple[list[SpecialistTask], list[str]]:
    """The decision's tasks, pending, with unknown actions and exact duplicates dropped (dependencies
    remapped)."""
    tasks: list[SpecialistTask] = []
    notes: list[str] = []
    position: dict[int, int] = {}  # original index -> index in the kept plan
    seen: dict[str, int] = {}
    for index, task in enumerate(decision.tasks):
        if task.action not in ACTIONS.get(task.specialist, ()):
            notes.append(f"Ignored an unknown action '{task.specialist}.{task.action}'.")
            continue
        identity = json.dumps([task.signature(), task.params], sort_keys=True, default=str)
        if identity in seen:  # the same work twice would only produce a second identical artifact
            position[index] = seen[identity]
            continue
        position[index] = seen[identity] = len(tasks)
        tasks.append(replace(task, depends_on=[position[d] for d in task.depends_on if d in position],
                             status="pending", attempts=0, reason=""))
    return tasks, notes


def initial_plan(decision: Decision, max_tasks: int) -> tuple[list[SpecialistTask], list[str], DecisionKind]:
    """The decision's valid tasks under the cap, the notes on what was dropped, and the turn's kind
    ("run" with no runnable task answers instead, saying so). Shared with the plan-execute baseline."""
    plan, invalid = valid_tasks(decision) if decision.kind == "run" else ([], [])
    plan, over_cap = capped_plan(plan, max_tasks)
    kind: DecisionKind = decision.kind if decision.kind != "run" or plan else "answer"
    if decision.kind == "run" and not plan and not decision.message:
        decision.message = "I could not turn that request into any analysis I can run."
    return plan, invalid + over_cap, kind


async def _first_decision(state: SupervisorState, ctx: TurnContext) -> Command[Next]:
    decision, notes = await _decide(state, ctx)
    plan, dropped, kind = initial_plan(decision, ctx.deps.config.max_tasks_per_turn)
    notes += dropped
    ready = ready_tasks(plan)
    artifact_ids = list(state.get("artifact_ids") or [])
    await ctx.event("supervisor_decision", **decision_payload(
        kind=kind, intent=decision.intent, message=decision.message, plan=plan, indexes=ready, step=1,
        notes=notes, assumptions=decision.assumptions, artifact_ids=artifact_ids))
    update: dict[str, Any] = {
        "step": 1, "plan": plan, "notes": notes, "decision": TurnDecision.of(decision, kind=kind),
        "focus": decision.focus,
    }
    if decision.reference_date is not None:
        update["reference_date"] = decision.reference_date.isoformat()
    return Command(goto="dispatch" if ready else "respond", update=update)


async def _redecide(state: SupervisorState, ctx: TurnContext, step: int) -> Command[Next]:
    config = ctx.deps.config
    latest = [r for r in state.get("results") or [] if r.step == step - 1]
    replan = fold_results(state.get("plan") or [], latest, max_retries=config.max_task_retries,
                          max_tasks=config.max_tasks_per_turn)
    notes = list(state.get("notes") or []) + replan.notes
    ready = ready_tasks(replan.plan)
    if ready and step > config.max_steps:
        notes.append(f"Stopped after {config.max_steps} supervisor steps; the answer covers what was done so far.")
        ready = []
    decision = state.get("decision") or TurnDecision()
    await ctx.event("supervisor_decision", **decision_payload(
        kind="run" if ready else "answer", intent=decision.intent, message="", plan=replan.plan,
        indexes=ready, step=step, notes=replan.notes, assumptions=[],
        artifact_ids=list(state.get("artifact_ids") or [])))
    return Command(goto="dispatch" if ready else "respond", update={"step": step, "plan": replan.plan, "notes": notes})
