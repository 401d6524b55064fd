"""The supervisor's decision in LLM mode: structured output validated into a `Decision`."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from artifacts.model import Artifact
from assetops.domain.actions import ACTIONS
from assetops.domain.turn import Decision, Focus, SpecialistTask, TimeWindow
from assetops.llm import ainvoke_recorded, compact_json
from graph.context import TurnContext
from graph.llm.prompts import SUPERVISOR_SYSTEM, actions_text
from graph.state import SupervisorState, encode_focus


class PlannedTask(BaseModel):
    """One narrow task for one specialist."""

    specialist: Literal["data", "timeseries", "failure", "maintenance"]
    action: str = Field(description="One of the specialist's actions.")
    asset_ids: list[str] = Field(default_factory=list, description='Chiller names, e.g. "Chiller 9".')
    equipment_ids: list[str] = Field(default_factory=list, description='Maximo ids, e.g. "CWC04009".')
    window_start: str | None = Field(default=None, description="ISO datetime, inclusive.")
    window_end: str | None = Field(default=None, description="ISO datetime, exclusive.")
    sensors: list[str] = Field(default_factory=list, description='Full names, e.g. "Chiller 9 Power Input".')
    params: dict[str, Any] = Field(default_factory=dict)
    depends_on: list[int] = Field(default_factory=list, description="Indexes of earlier tasks this one needs.")
    goal: str = Field(default="", description="One line a person can read.")


class SupervisorDecision(BaseModel):
    """The supervisor's verdict for the user's latest message."""

    kind: Literal["run", "answer", "clarify", "reject"]
    tasks: list[PlannedTask] = Field(default_factory=list)
    message: str = Field(default="", description="The direct answer, the question, or the reason to refuse.")
    intent: str = ""
    assumptions: list[str] = Field(default_factory=list)
    shape: Literal["open", "yes_no", "which", "how_to", "verdict", "recommend"] = Field(
        default="open", description="The shape of answer the message needs (yes/no first, a pick, a procedure, "
                                    "the verdict so far, a recommendation, or an open finding).")
    scope: Literal["asset", "assets", "fleet"] = Field(
        default="asset", description="One chiller, several, or the whole site (no chiller named: the whole site).")
    write_requested: bool = Field(
        default=False, description="True only when the user commands a record to be written ('draft a work "
                                   "order', 'yes, draft it'); a question about one is false.")


# Actions that write a record: run only when the user commanded it (the offline planner's rule too).
WRITE_ACTIONS = frozenset({"draft_wo"})


def _window(task: PlannedTask) -> TimeWindow | None:
    if not task.window_start or not task.window_end:
        return None
    return TimeWindow(datetime.fromisoformat(task.window_start), datetime.fromisoformat(task.window_end))


def to_decision(planned: SupervisorDecision, focus: Focus, reference_date: date) -> Decision:
    """Validate the model's decision into the planner's `Decision` (unknown actions dropped)."""
    writes_allowed = planned.write_requested
    offered = any(t.action in WRITE_ACTIONS for t in planned.tasks) and not writes_allowed
    tasks = [
        SpecialistTask(specialist=t.specialist, action=t.action, asset_ids=t.asset_ids, equipment_ids=t.equipment_ids,
                       window=_window(t), sensors=t.sensors, params=t.params, depends_on=t.depends_on, goal=t.goal)
        for t in planned.tasks if t.action in ACTIONS[t.specialist] and (writes_allowed or t.action not in WRITE_ACTIONS)
    ]
    new_focus = Focus(**{**focus.__dict__})
    for task in tasks:
        new_focus.asset_ids = task.asset_ids or new_focus.asset_ids
        new_focus.equipment_ids = task.equipment_ids or new_focus.equipment_ids
        new_focus.window = task.window or new_focus.window
        new_focus.sensors = task.sensors or new_focus.sensors
    new_focus.last_intent = planned.intent or new_focus.last_intent
    new_focus.scope = planned.scope
    new_focus.pending_offer = "draft_wo" if offered else None
    shape = "recommend" if offered and planned.shape == "open" else planned.shape
    if offered and planned.kind == "run" and not tasks:  # only a write was planned: advise instead
        return Decision(kind="answer", message=planned.message or _OFFER_TEXT, focus=new_focus,
                        intent=planned.intent, assumptions=planned.assumptions, reference_date=reference_date,
                        shape=shape, scope=planned.scope)
    return Decision(kind=planned.kind, tasks=tasks, message=planned.message, focus=new_focus, intent=planned.intent,
                    assumptions=planned.assumptions, reference_date=reference_date, shape=shape, scope=planned.scope)


_OFFER_TEXT = "I can draft that work order; say 'draft it' and I will."


def supervisor_prompt(ctx: TurnContext, state: SupervisorState, message: str, focus: Focus,
                      artifacts: list[Artifact]) -> list[BaseMessage]:
    """System rules, compact artifacts, the recent dialog, then the user's message."""
    config = ctx.deps.config
    system = SUPERVISOR_SYSTEM.format(actions=actions_text(), reference_date=ctx.reference_date.isoformat(),
                                      focus=compact_json(encode_focus(focus), 1500))
    recent = [a.compact() for a in artifacts[-config.prompt_artifacts:]]
    history = [m for m in (state.get("messages") or [])[:-1] if isinstance(m, HumanMessage | AIMessage)]
    return [SystemMessage(system), SystemMessage("Artifacts of this session: " + compact_json(recent)),
            *history[-config.prompt_messages:], HumanMessage(message)]


async def llm_decide(ctx: TurnContext, state: SupervisorState, message: str, focus: Focus,
                     artifacts: list[Artifact]) -> Decision:
    """Ask the chat model for a structured decision; raise when it returns none (offline fallback)."""
    llm = ctx.deps.llm
    if llm is None:  # the supervisor only asks in the LLM mode; this keeps the offline fallback honest
        raise ValueError("no chat model is configured")
    structured = llm.with_structured_output(SupervisorDecision, include_raw=True)
    result = await ainvoke_recorded(structured, supervisor_prompt(ctx, state, message, focus, artifacts),
                                    llm=llm, purpose="supervisor_decision")
    parsed = result.get("parsed") if isinstance(result, dict) else result
    if not isinstance(parsed, SupervisorDecision):
        error = result.get("parsing_error") if isinstance(result, dict) else None
        raise ValueError(f"the model returned no valid decision ({error})")
    return to_decision(parsed, focus, ctx.reference_date)
