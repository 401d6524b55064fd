"""The supervisor graph's state: typed turn objects, checkpointed as they are.

The state is checkpointed after every node. The LangGraph checkpointer (JsonPlusSerializer) stores
the dataclasses of `assetops.domain.turn` and LangChain messages natively, so the plan, the results,
the decision and the focus cross node boundaries as typed objects, never as dicts of strings
(tests/integration/graph/test_checkpoint_types.py checks the round trip on SQLite and PostgreSQL).
Runtime objects (store, tool runner, LLM) never live here; they travel in the per-turn `TurnContext`.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from assetops.domain.turn import Focus, SpecialistResult, SpecialistTask, TimeWindow, TurnDecision

# The dataclasses the state holds (the checkpointer's allowlist of types to rebuild).
STATE_TYPES: tuple[type, ...] = (Focus, SpecialistResult, SpecialistTask, TimeWindow, TurnDecision)


class SupervisorState(TypedDict, total=False):
    """Everything the supervisor knows about a session; one LangGraph thread per session."""

    messages: Annotated[list[AnyMessage], add_messages]  # the dialog (user and assistant turns)
    reference_date: str  # ISO date relative phrases resolve against
    focus: Focus  # the dialog focus, carried across turns
    artifact_ids: list[str]  # artifacts visible to the session, oldest first
    turn_index: int  # 1-based index of the current (or last) turn
    decision: TurnDecision | None  # this turn's decision: kind, message, intent, assumptions, shape, scope
    plan: list[SpecialistTask]  # this turn's tasks, with their status, attempts and reason
    results: list[SpecialistResult]  # this turn's specialist results, tagged with the task and step
    step: int  # supervisor steps taken in this turn
    notes: list[str]  # replanning notes of this turn (shown in the answer)
    answer: str  # this turn's final answer


def state_focus(state: SupervisorState) -> Focus:
    """The session's focus (an empty one for a new session; a checkpoint written before the state
    was typed holds it as a dict)."""
    value: Any = state.get("focus")
    if isinstance(value, Focus):
        return value
    return decode_focus(value if isinstance(value, dict) else None)


def encode_window(window: TimeWindow | None) -> dict[str, str] | None:
    """A window as ISO strings (None stays None): for prompts and events, not for the state."""
    return window.to_dict() if window is not None else None


def decode_window(data: dict[str, Any] | None) -> TimeWindow | None:
    """The inverse of `encode_window`."""
    if not data:
        return None
    return TimeWindow(datetime.fromisoformat(data["start"]), datetime.fromisoformat(data["end"]),
                      data.get("label", ""))


def encode_focus(focus: Focus) -> dict[str, Any]:
    """A focus as a JSON-ready dict (the LLM prompt shows it)."""
    data = asdict(focus)
    data["window"] = encode_window(focus.window)
    data["earlier_window"] = encode_window(focus.earlier_window)
    for key in ("periods", "named_periods", "told_jobs"):
        data[key] = [encode_window(w) for w in getattr(focus, key)]
    data["told_event"] = focus.told_event.isoformat() if focus.told_event is not None else None
    return data


def decode_focus(data: dict[str, Any] | None) -> Focus:
    """The inverse of `encode_focus`; an empty or missing dict is an empty focus."""
    if not data:
        return Focus()
    values = {k: v for k, v in data.items() if k in Focus.__dataclass_fields__}
    values["window"] = decode_window(data.get("window"))
    values["earlier_window"] = decode_window(data.get("earlier_window"))
    for key in ("periods", "named_periods", "told_jobs"):
        values[key] = [w for w in (decode_window(d) for d in data.get(key) or []) if w is not None]
    told = data.get("told_event")
    values["told_event"] = datetime.fromisoformat(told) if isinstance(told, str) else told
    return Focus(**values)


def parse_reference_date(value: str | date | None, default: date) -> date:
    """A reference date from state or input (ISO string or date); `default` when missing."""
    if value is None or value == "":
        return default
    return value if isinstance(value, date) else date.fromisoformat(value)
