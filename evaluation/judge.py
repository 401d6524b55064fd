"""The optional LLM judge: planning effectiveness, tool-usage quality and task completion per dialog.

The rubric lives in evaluation/prompts/judge.md; the judge sees a compact transcript built from the
dialog's rollout (user message, workflow and executed tools, final answer per turn) and must reply
with one JSON object of three scores in [0, 1]. Any OpenAI-compatible endpoint works
(`--judge MODEL`; base URL and key from the LLM settings); tests use scripted fake chat models. A
reply that cannot be parsed is reported as an error for that dialog, never guessed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.metrics.rollout import group_turns, status_ok

PROMPT_FILE = Path(__file__).with_name("prompts") / "judge.md"
SCORES = ("planning_effectiveness", "tool_usage_quality", "task_completion")
NOT_JUDGED = "not judged"
ANSWER_CHARS = 1200


@dataclass(frozen=True)
class JudgeScores:
    """One dialog's judged scores (None with an error when the judge's reply was unusable)."""

    planning_effectiveness: float | None
    tool_usage_quality: float | None
    task_completion: float | None
    reason: str = ""
    error: str | None = None


def transcript(lines: list[dict[str, Any]]) -> str:
    """A compact, readable transcript of a rollout for the judge."""
    parts: list[str] = []
    for turn in group_turns(lines):
        turn_id = turn[0].get("turn_id", "turn_001")
        user = next((str(e.get("user_message") or "") for e in turn if e.get("agent_role") == "user"), "")
        workflow = [f"{e.get('agent_role')} -> {e.get('task_type')}" for e in turn
                    if e.get("agent_role") not in ("user", "respond_to_user")]
        tools = [f"{c.get('tool_name')}({json.dumps(c.get('args') or {}, default=str)[:160]})"
                 f"{'' if status_ok(c.get('status')) else ' FAILED'}"
                 for e in turn for c in e.get("tool_calls") or [] if isinstance(c, dict)]
        answer = next((str(e.get("final_response") or "") for e in reversed(turn)
                       if e.get("task_type") == "final_response"), "")
        parts.append(f"## {turn_id}\nUser: {user}\nWorkflow: {'; '.join(workflow) or '-'}\n"
                     f"Tools: {'; '.join(tools) or 'none'}\nAnswer: {answer[:ANSWER_CHARS]}")
    return "\n\n".join(parts)


def judge_prompt(lines: list[dict[str, Any]], template: str | None = None) -> str:
    """The rubric with the dialog's transcript filled in."""
    return (template or PROMPT_FILE.read_text()).replace("{transcript}", transcript(lines))


def parse_scores(reply: str) -> JudgeScores:
    """The three scores from the judge's reply (the first JSON object in it), clamped to [0, 1]."""
    match = re.search(r"\{.*\}", reply, re.DOTALL)
    try:
        data = json.loads(match.group()) if match else None
        values = [float(data[name]) for name in SCORES] if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError):
        values = None
    if values is None:
        return JudgeScores(None, None, None, error=f"the judge's reply had no usable scores: {reply[:200]!r}")
    pe, tu, tc = (min(1.0, max(0.0, v)) for v in values)
    reason = str(data.get("reason", ""))[:300] if isinstance(data, dict) else ""
    return JudgeScores(pe, tu, tc, reason=reason)


async def judge_dialog(model: Any, lines: list[dict[str, Any]]) -> JudgeScores:
    """Ask the chat model to grade one dialog; a failing endpoint becomes an error, not an exception."""
    from langchain_core.messages import HumanMessage

    try:
        reply = await model.ainvoke([HumanMessage(judge_prompt(lines))])
    except Exception as exc:  # the judge is optional: its failure must not lose the rest of the report
        return JudgeScores(None, None, None, error=f"the judge model failed: {type(exc).__name__}: {exc}")
    content = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
    return parse_scores(content)


def judge_summary(scores: Sequence[JudgeScores] | None) -> dict[str, Any]:
    """Macro-averages over the judged dialogs; "not judged" without a judge or without usable scores."""
    usable = [s for s in scores or [] if s.error is None]
    if not usable:
        return {name: NOT_JUDGED for name in SCORES} | {"judged": 0, "errors": len(scores or [])}
    return {name: sum(getattr(s, name) for s in usable) / len(usable) for name in SCORES} | {
        "judged": len(usable), "errors": len(scores or []) - len(usable)}


def build_judge(model_name: str, settings: Any) -> Any:
    """An OpenAI-compatible chat model for judging (the LLM settings' endpoint and key)."""
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    return ChatOpenAI(model=model_name, base_url=settings.llm_base_url or None,
                      api_key=SecretStr(settings.llm_api_key or "not-needed"), temperature=0.0, max_retries=1,
                      timeout=120)
