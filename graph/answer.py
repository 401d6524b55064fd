"""Offline answer synthesis: a readable reply built only from the turn's results and artifacts.

The answer leads with the finding, cites numbers, windows, assets and artifact ids, says what could
not be done, states assumptions and confidence, and suggests the next question. It is bounded in
length however long the dialog grows (evidence lines are trimmed first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from artifacts.model import Artifact
from fleet.generator.config import SITE_TIMEZONE

SITE_ZONE = ZoneInfo(SITE_TIMEZONE)
PROBLEM_LINE_CHARS = 240
LEAD_RESULTS = 3  # the rest of the turn's findings are in the evidence lines

# What to ask next, by the last specialist that produced evidence this turn.
NEXT_QUESTION: dict[str, str] = {
    "data": "Shall I look for anomalies or trends in this window?",
    "timeseries": "Want me to check which failure modes could explain this?",
    "failure": "Shall I check existing work orders or draft one for the most likely cause?",
    "maintenance": "Anything else on this asset, or shall I summarise the session for a report?",
}


@dataclass
class TurnOutcome:
    """Everything an answer may draw on for one turn."""

    decision: dict[str, Any]
    plan: list[dict[str, Any]]
    results: list[dict[str, Any]]
    artifacts: list[Artifact]  # created or reused this turn, in result order
    notes: list[str] = field(default_factory=list)
    focus: dict[str, Any] = field(default_factory=dict)


def scope_line(outcome: TurnOutcome) -> str:
    """Which assets and window the turn was about (from the tasks, else the focus)."""
    assets: list[str] = []
    window: dict[str, Any] | None = None
    for task in outcome.plan:
        assets += [a for a in task.get("asset_ids") or [] if a not in assets]
        window = window or task.get("window")
    if not assets:
        assets = list(outcome.focus.get("asset_ids") or [])
    window = window or outcome.focus.get("window")
    parts = []
    if assets:
        parts.append(", ".join(assets))
    if window:
        label = f" ({window['label']})" if window.get("label") else ""
        parts.append(f"{_window_bound(window['start'])} to {_window_bound(window['end'])}{label}")
    return f"Scope: {'; '.join(parts)}." if parts else ""


def _window_bound(iso: str) -> str:
    moment = datetime.fromisoformat(iso)
    return f"{moment:%Y-%m-%d}" if (moment.hour, moment.minute) == (0, 0) else f"{moment:%Y-%m-%d %H:%M}"


def site_time(moment: datetime) -> str:
    """A stored (UTC) time shown in the site's local time, as the user speaks of it."""
    local = moment.astimezone(SITE_ZONE) if moment.tzinfo else moment
    return f"{local:%Y-%m-%d}" if (local.hour, local.minute) == (0, 0) else f"{local:%Y-%m-%d %H:%M}"


def _lead(outcome: TurnOutcome) -> str:
    """The findings, conclusions first: later steps build on earlier ones (a comparison on its data)."""
    usable = [r for r in outcome.results if r["status"] in ("ok", "partial") and r.get("summary")]
    usable.sort(key=lambda r: -int(r.get("step", 0)))  # stable: same-step results keep their order
    summaries = _dedupe([r["summary"].strip() for r in usable])
    if summaries:
        return " ".join(summaries[:LEAD_RESULTS])
    if outcome.results:
        return "I could not complete the analysis this turn; here is what went wrong."
    return outcome.decision.get("message") or "There was nothing to analyse in that message."


def _evidence(outcome: TurnOutcome, limit: int) -> list[str]:
    lines = []
    for artifact in outcome.artifacts[:limit]:
        window = ""
        if artifact.window_start and artifact.window_end:
            window = f", {site_time(artifact.window_start)} to {site_time(artifact.window_end)}"
        assets = ", ".join(artifact.asset_ids) or artifact.site or ""
        findings = "; ".join(artifact.observations[:3]) or artifact.summary
        lines.append(f"- [{artifact.id}] {artifact.kind} ({assets}{window}): {findings}")
    return lines


def _problems(outcome: TurnOutcome) -> list[str]:
    problems = []
    latest = {r["task_index"]: r for r in outcome.results}  # a retried task speaks through its last attempt
    for result in latest.values():
        task = outcome.plan[result["task_index"]] if result["task_index"] < len(outcome.plan) else {}
        if result["status"] == "failed" and task.get("status") == "failed":
            error = str(result["errors"][0]) if result.get("errors") else ""
            summary = result["summary"].strip() or f"{task.get('goal') or result['action']} failed"
            detail = f" ({error})" if error and error not in summary else ""
            problems.append(f"- {_clip(summary + detail)}")
    problems += [f"- {_clip(note)}" for note in outcome.notes if note.startswith(("Skipped", "Stopped", "Not run"))]
    return _dedupe(problems)


def _clip(text: str, limit: int = PROBLEM_LINE_CHARS) -> str:
    text = text.replace("..", ".")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _confidence(outcome: TurnOutcome) -> str:
    values = [a.confidence for a in outcome.artifacts if a.confidence is not None]
    failed = any(t.get("status") in ("failed", "skipped") for t in outcome.plan)
    if values:
        value = min(values) * (0.8 if failed else 1.0)
        word = "high" if value >= 0.75 else "moderate" if value >= 0.5 else "low"
        return f"Confidence: {word} ({value:.2f}){', reduced by the missing evidence' if failed else ''}."
    if outcome.artifacts:
        return "Confidence: moderate (measured data, no model-based check yet)." if not failed else \
            "Confidence: low (part of the evidence is missing)."
    return ""


def _assumptions(outcome: TurnOutcome) -> list[str]:
    found = list(outcome.decision.get("assumptions") or [])
    for artifact in outcome.artifacts:
        found += artifact.assumptions[:2]
    return _dedupe(found)[:4]


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def compose_answer(outcome: TurnOutcome, *, max_chars: int) -> str:
    """The offline answer for a turn that ran specialists (bounded to `max_chars`)."""
    head = [_lead(outcome)]
    scope = scope_line(outcome)
    if scope:
        head.append(scope)
    tail: list[str] = []
    problems = _problems(outcome)
    if problems:
        tail += ["Not available:", *problems]
    assumptions = _assumptions(outcome)
    if assumptions:
        tail.append("Assumptions: " + "; ".join(a.rstrip(". ") for a in assumptions) + ".")
    confidence = _confidence(outcome)
    if confidence:
        tail.append(confidence)
    producers = [r["specialist"] for r in outcome.results if r["status"] in ("ok", "partial")]
    if producers:
        tail.append("Next: " + NEXT_QUESTION.get(producers[-1], "What would you like to look at next?"))
    for limit in (8, 5, 3, 1, 0):
        evidence = _evidence(outcome, limit)
        parts = [*head, *(["Evidence:", *evidence] if evidence else []), *tail]
        text = "\n".join(parts)
        if len(text) <= max_chars:
            return text
    return text[: max_chars - 1] + "…"


def direct_answer(decision: dict[str, Any], notes: list[str], *, max_chars: int) -> str:
    """The answer for a turn that ran nothing: the planner's reply, question or refusal."""
    message = decision.get("message") or "I am not sure what you would like me to do; could you rephrase?"
    extra = [n for n in notes if n]
    text = "\n".join([message, *extra])
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"
