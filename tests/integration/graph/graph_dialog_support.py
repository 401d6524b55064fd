"""Helpers of the dialog tests: run a turn, read its events, check the session-wide invariants."""

from __future__ import annotations

from datetime import date
from typing import Any

from assetops.domain.events import TurnEvent
from graph.runner import run_turn
from specialists.base import call_key


async def turn_events(deps: Any, session: str, message: str, reference_date: date, **kwargs: Any) -> list[TurnEvent]:
    """Every event of one turn."""
    return [e async for e in run_turn(deps, session, message, reference_date=reference_date, **kwargs)]


def of_type(events: list[TurnEvent], kind: str) -> list[TurnEvent]:
    """The events of one type, in order."""
    return [e for e in events if e.type == kind]


def answer_of(events: list[TurnEvent]) -> str:
    """The turn's final answer."""
    answers = of_type(events, "final_answer")
    assert len(answers) == 1, [e.type for e in events]
    return str(answers[0].data["text"])


def planned_specialists(events: list[TurnEvent]) -> set[str]:
    """Specialists in the supervisor's plan for the turn (dispatched, or skipped for missing evidence)."""
    return {t["specialist"] for e in of_type(events, "supervisor_decision") for t in e.data["plan"]}


def executed_calls(events: list[TurnEvent]) -> list[tuple[str, dict[str, Any]]]:
    """Tool calls that really ran (not answered from the session memo), with their status ok."""
    return [(e.data["name"], e.data["args"]) for e in of_type(events, "tool_call_finished")
            if not e.data["reused"] and e.data["status"] == "ok"]


def repeated_calls(session_events: list[TurnEvent]) -> list[str]:
    """Successful tool calls executed more than once in a session (must be empty)."""
    seen: set[str] = set()
    repeated = []
    for name, args in executed_calls(session_events):
        key = call_key(name, args)
        if key in seen:
            repeated.append(f"{name} {args}")
        seen.add(key)
    return repeated
