"""Export a session as event-stream JSONL (docs/ROLLOUT_FORMAT.md, adapter assetops_event_stream_v1).

Pure: stored turn events in, one dict per line out. Per turn: the user event, every supervisor
decision, one event per specialist task with its executed tool calls (qualified `server.tool`
names, args as objects, status ok/failed) and artifact ids, then respond_to_user/final_response.
Calls answered from the session memo were not executed again, so they are listed under
`reused_tool_calls` (ignored by the harness) instead of `tool_calls`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from assetops.domain.events import TurnEvent
from assetops.domain.specialists import rollout_role


def _ts(event: TurnEvent) -> str:
    return event.timestamp.isoformat(timespec="microseconds")


def _tool_call(event: TurnEvent, order: int) -> dict[str, Any]:
    data = event.data
    ok = data.get("status") == "ok"
    return {"order": order, "tool_name": data.get("name"), "args": data.get("args") or {},
            "status": "ok" if ok else "failed", "latency_ms": data.get("latency_ms"),
            "result": data.get("result_preview") if ok else None, "error": None if ok else data.get("error")}


@dataclass
class _OpenTask:
    """A specialist task between its started and finished events, collecting its tool calls."""

    started: TurnEvent
    calls: list[dict[str, Any]] = field(default_factory=list)
    reused: list[dict[str, Any]] = field(default_factory=list)


def rollout_lines(session_id: str, events: list[TurnEvent], *, reference_date: date | None = None) -> list[dict[str, Any]]:
    """The JSONL lines (as dicts) of a session's stored events."""
    lines: list[dict[str, Any]] = []
    visible: list[str] = []
    turns = sorted({e.turn_index for e in events})
    for turn_index in turns:
        turn_id = f"turn_{turn_index:03d}"
        base = {"case_id": session_id, "turn_id": turn_id}
        # Open tasks by dispatch index; a tool call belongs to the earliest open task of its specialist.
        open_tasks: dict[Any, _OpenTask] = {}
        for event in (e for e in events if e.turn_index == turn_index):
            data = event.data
            if event.type == "turn_started":
                lines.append({**base, "timestamp": _ts(event), "agent_role": "user", "task_type": "user_question",
                              "status": "ok", "tool_calls": [], "user_message": data.get("message", ""),
                              "reference_date": data.get("reference_date") or (reference_date.isoformat()
                                                                               if reference_date else None),
                              "input_artifact_ids": [], "output_artifact_ids": []})
            elif event.type == "supervisor_decision":
                lines.append({**base, "timestamp": _ts(event), "agent_role": "supervisor",
                              "task_type": "supervisor_decision", "status": "ok", "tool_calls": [],
                              "decision": {k: data.get(k) for k in ("kind", "intent", "message", "tasks")},
                              "input_artifact_ids": list(visible), "output_artifact_ids": []})
            elif event.type == "specialist_started":
                open_tasks[data.get("index", len(open_tasks))] = _OpenTask(event)
            elif event.type == "tool_call_finished":
                owner = next((t for t in open_tasks.values()
                              if (t.started.specialist or t.started.data.get("specialist")) == event.specialist), None)
                if owner is not None:
                    target = owner.reused if data.get("reused") else owner.calls
                    target.append(_tool_call(event, len(target) + 1))
            elif event.type == "specialist_finished":
                specialist = str(data.get("specialist") or event.specialist)
                task = open_tasks.pop(data.get("index"), None) or _OpenTask(event)
                outputs = list(data.get("artifact_ids") or [])
                failed = data.get("status") == "failed" and not outputs
                lines.append({**base, "timestamp": _ts(event), "agent_role": rollout_role(specialist),
                              "task_type": str(data.get("action") or "task"), "status": "failed" if failed else "ok",
                              "task": {"goal": task.started.data.get("goal"),
                                       "asset_ids": task.started.data.get("asset_ids"),
                                       "time_window": task.started.data.get("window")},
                              "tool_calls": task.calls, "reused_tool_calls": task.reused,
                              "input_artifact_ids": list(task.started.data.get("input_artifact_ids") or []),
                              "output_artifact_ids": outputs,
                              "reused_artifact_ids": list(data.get("reused_artifact_ids") or []),
                              "summary": data.get("summary"),
                              "error_message": "; ".join(data.get("errors") or []) or None})
                visible.extend(a for a in outputs + list(data.get("reused_artifact_ids") or []) if a not in visible)
            elif event.type == "final_answer":
                lines.append({**base, "timestamp": _ts(event), "agent_role": "respond_to_user",
                              "task_type": "final_response", "status": "ok", "tool_calls": [],
                              "final_response": data.get("text", ""), "input_artifact_ids": list(visible),
                              "output_artifact_ids": []})
    return lines


def to_jsonl(lines: list[dict[str, Any]]) -> str:
    """One compact JSON object per line."""
    return "".join(json.dumps(line, default=str) + "\n" for line in lines)
