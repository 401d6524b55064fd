"""The supervisor graph's state and the codecs between it and the planning types.

The state is checkpointed after every node, so it holds only plain JSON-like values (and LangChain
messages, which the checkpointer serialises natively): the dataclasses of `assetops.domain.turn` are turned
into dicts on the way in and rebuilt on the way out. Runtime objects (store, tool runner, LLM) never
live here; they travel in the per-turn `TurnContext`.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from assetops.domain.turn import Decision, Focus, SpecialistTask, TimeWindow
from specialists.base import SpecialistResult

TaskStatus = Literal["pending", "done", "failed", "skipped"]


class SupervisorState(TypedDict, total=False):
    """Everything the supervisor knows about a session; one LangGraph thread per session."""

    messages: Annotated[list[AnyMessage], add_messages]  # the dialog (user and assistant turns)
    reference_date: str  # ISO date relative phrases resolve against
    focus: dict[str, Any]  # the dialog focus (encoded `Focus`)
    artifact_ids: list[str]  # artifacts visible to the session, oldest first
    turn_index: int  # 1-based index of the current (or last) turn
    decision: dict[str, Any]  # this turn's decision: kind, message, intent, assumptions
    plan: list[dict[str, Any]]  # this turn's tasks (encoded `SpecialistTask` + status, attempts, reason)
    results: list[dict[str, Any]]  # this turn's specialist results (encoded `SpecialistResult`)
    step: int  # supervisor steps taken in this turn
    notes: list[str]  # replanning notes of this turn (shown in the answer)
    answer: str  # this turn's final answer


def encode_window(window: TimeWindow | None) -> dict[str, str] | None:
    """A window as ISO strings (None stays None)."""
    return window.to_dict() if window is not None else None


def decode_window(data: dict[str, Any] | None) -> TimeWindow | None:
    """The inverse of `encode_window`."""
    if not data:
        return None
    return TimeWindow(datetime.fromisoformat(data["start"]), datetime.fromisoformat(data["end"]),
                      data.get("label", ""))


def encode_focus(focus: Focus) -> dict[str, Any]:
    """A focus as a JSON-ready dict."""
    data = asdict(focus)
    data["window"] = encode_window(focus.window)
    return data


def decode_focus(data: dict[str, Any] | None) -> Focus:
    """The inverse of `encode_focus`; an empty or missing dict is an empty focus."""
    if not data:
        return Focus()
    values = {k: v for k, v in data.items() if k in Focus.__dataclass_fields__}
    values["window"] = decode_window(data.get("window"))
    return Focus(**values)


def encode_task(task: SpecialistTask, *, status: TaskStatus = "pending", attempts: int = 0) -> dict[str, Any]:
    """A task with its bookkeeping (status, attempts, skip reason) as a JSON-ready dict."""
    data = asdict(task)
    data["window"] = encode_window(task.window)
    data.update(status=status, attempts=attempts, reason="")
    return data


def decode_task(data: dict[str, Any]) -> SpecialistTask:
    """The `SpecialistTask` part of an encoded task (bookkeeping dropped)."""
    values = {k: v for k, v in data.items() if k in SpecialistTask.__dataclass_fields__}
    values["window"] = decode_window(data.get("window"))
    return SpecialistTask(**values)


def task_signature(data: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two tasks the same piece of work (used to drop duplicate follow-ups)."""
    window = data.get("window") or {}
    return (data["specialist"], data["action"], tuple(data.get("asset_ids") or ()),
            tuple(data.get("equipment_ids") or ()), window.get("start"), window.get("end"),
            tuple(sorted(data.get("sensors") or ())))


def encode_result(result: SpecialistResult, *, task_index: int) -> dict[str, Any]:
    """A specialist result as a JSON-ready dict, tagged with the plan index it answers."""
    data = asdict(result)
    data["follow_ups"] = [encode_task(t) for t in result.follow_ups]
    data["task_index"] = task_index
    return data


def encode_decision(decision: Decision) -> dict[str, Any]:
    """The parts of a decision the later nodes need (tasks and focus are stored separately)."""
    return {"kind": decision.kind, "message": decision.message, "intent": decision.intent,
            "assumptions": list(decision.assumptions), "shape": decision.shape, "scope": decision.scope}


def parse_reference_date(value: str | date | None, default: date) -> date:
    """A reference date from state or input (ISO string or date); `default` when missing."""
    if value is None or value == "":
        return default
    return value if isinstance(value, date) else date.fromisoformat(value)
