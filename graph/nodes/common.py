"""Small helpers the nodes share: the turn's user message and the session's artifacts."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask
from graph.context import TurnContext
from graph.state import SupervisorState, encode_window


def last_user_message(state: SupervisorState) -> str:
    """The text of the newest user message (the one this turn answers)."""
    for message in reversed(state.get("messages") or []):
        if isinstance(message, HumanMessage):
            return message.content if isinstance(message.content, str) else str(message.content)
    return ""


async def session_artifacts(ctx: TurnContext, ids: list[str] | None = None) -> list[Artifact]:
    """The session's artifacts, oldest first (only `ids` when given, in that order)."""
    artifacts = await ctx.deps.store.list_session(ctx.session_id)
    if ids is None:
        return artifacts
    by_id = {a.id: a for a in artifacts}
    return [by_id[i] for i in ids if i in by_id]


def decision_payload(*, kind: str, intent: str, message: str, plan: list[SpecialistTask], indexes: list[int],
                     step: int, notes: list[str], assumptions: list[str], artifact_ids: list[str]) -> dict[str, Any]:
    """The data of a supervisor_decision event (JSON for the stream and the rollout, not state):
    what runs next (`tasks`), the whole plan and why."""
    return {
        "kind": kind, "intent": intent, "message": message, "step": step, "notes": notes,
        "assumptions": assumptions, "visible_artifact_ids": artifact_ids,
        "tasks": [{"index": i, "specialist": plan[i].specialist, "action": plan[i].action, "goal": plan[i].goal,
                   "asset_ids": plan[i].asset_ids, "window": encode_window(plan[i].window),
                   "attempt": plan[i].attempts} for i in indexes],
        "plan": [{"index": i, "specialist": t.specialist, "action": t.action, "goal": t.goal, "status": t.status,
                  "depends_on": t.depends_on} for i, t in enumerate(plan)],
    }
