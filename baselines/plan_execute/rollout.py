"""The baseline's rollout with the plan-execute roles of ROLLOUT_FORMAT.md §1.4.

The turn's events are the supervisor's types; here the exporter's lines are renamed so the harness
scores these turns with its plan-execute rules: each decision becomes a `planner` line
(`plan_generation`, or `replan_generation` with `plan_kind: "replan"`) carrying the plan's steps,
each specialist step an `executor` / `plan_execution` line (status failed when a call failed), and
the answer a `summarizer` / `final_response` line.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from app.services.rollout import rollout_lines
from assetops.domain.events import TurnEvent

PASSTHROUGH_ROLES = frozenset({"user", "respond_to_user"})


def _steps(plan: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"step_number": i + 1, "task": t.get("goal") or f"{t['specialist']}.{t['action']}",
             "specialist": t["specialist"], "action": t["action"],
             "dependencies": [d + 1 for d in t.get("depends_on") or []]} for i, t in enumerate(plan)]


def _executor_line(line: dict[str, Any]) -> dict[str, Any]:
    failed_call = any(isinstance(c, dict) and c.get("status") not in (None, "", "ok", "success")
                      for c in line.get("tool_calls") or [])
    return {**line, "agent_role": "executor", "task_type": "plan_execution", "specialist_role": line["agent_role"],
            "step_action": line.get("task_type"), "status": "failed" if failed_call or line["status"] != "ok" else "ok"}


def plan_execute_lines(session_id: str, events: list[TurnEvent], *,
                       reference_date: date | None = None) -> list[dict[str, Any]]:
    """The rollout lines of a baseline session (same content as the supervisor's, plan-execute roles)."""
    decisions: dict[int, list[dict[str, Any]]] = {}
    for event in events:
        if event.type == "supervisor_decision":
            decisions.setdefault(event.turn_index, []).append(event.data)
    out: list[dict[str, Any]] = []
    for line in rollout_lines(session_id, events, reference_date=reference_date):
        role = line["agent_role"]
        if role == "supervisor":
            turn = int(str(line["turn_id"]).removeprefix("turn_"))
            data = decisions.get(turn, [{}]).pop(0) if decisions.get(turn) else {}
            kind = str(data.get("plan_kind") or "original")
            out.append({**line, "agent_role": "planner",
                        "task_type": "replan_generation" if kind == "replan" else "plan_generation",
                        "plan_kind": kind, "plan": {"raw": "", "steps": _steps(data.get("plan") or [])}})
        elif role == "respond_to_user":
            out.append({**line, "agent_role": "summarizer"})
        elif role in PASSTHROUGH_ROLES:
            out.append(line)
        else:
            out.append(_executor_line(line))
    return out
