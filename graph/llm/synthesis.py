"""Answer synthesis in LLM mode: compact evidence in, a bounded reply out."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from assetops.llm import astream_recorded, compact_json
from graph.answering.compose import TurnOutcome
from graph.context import TurnContext
from graph.llm.prompts import ANSWER_SYSTEM
from graph.nodes.common import last_user_message
from graph.state import SupervisorState


def evidence(outcome: TurnOutcome) -> dict[str, Any]:
    """What the model may cite: results' summaries, compact artifacts, notes and assumptions."""
    return {
        "results": [{"specialist": r.specialist, "action": r.action, "status": r.status,
                     "summary": r.summary, "errors": r.errors[:2]} for r in outcome.results],
        "artifacts": [a.compact() for a in outcome.artifacts],
        "notes": outcome.notes, "assumptions": outcome.decision.assumptions,
    }


async def llm_answer(ctx: TurnContext, state: SupervisorState, outcome: TurnOutcome, *, offline_draft: str) -> str:
    """The model's answer from the evidence (the offline draft is offered as a factual baseline),
    streamed to the client as partial_text events while it is written."""
    max_chars = ctx.deps.config.answer_max_chars
    prompt = [SystemMessage(ANSWER_SYSTEM.format(max_chars=max_chars)),
              HumanMessage(f"Question: {last_user_message(state)}\nEvidence: {compact_json(evidence(outcome))}\n"
                           f"Factual draft: {offline_draft}")]

    async def relay(piece: str) -> None:
        await ctx.event("partial_text", text=piece)

    text = await astream_recorded(ctx.deps.llm, prompt, purpose="answer_synthesis", on_text=relay)
    if not text.strip():
        raise ValueError("the model returned an empty answer")
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"
