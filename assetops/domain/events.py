"""Typed events of a turn: what the turn runner yields and every client consumes.

REST collects them into one reply, the websocket streams them, the rollout exporter writes them as
event-stream JSONL and the profiler reads them. One envelope, a `type` discriminator.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

EventType = Literal[
    "turn_started",
    "supervisor_decision",
    "specialist_started",
    "specialist_finished",
    "tool_call_started",
    "tool_call_finished",
    "artifact_created",
    "artifact_reused",
    "partial_text",
    "final_answer",
    "error",
    "done",
]


def _now() -> datetime:
    return datetime.now(UTC)


class TurnEvent(BaseModel):
    """One event of a turn. `data` carries the type-specific payload (see the helpers below)."""

    type: EventType
    session_id: str
    turn_index: int
    timestamp: datetime = Field(default_factory=_now)
    specialist: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)


def tool_call_payload(
    *, call_id: str, name: str, args: dict[str, Any], status: str | None = None, latency_ms: float | None = None,
    error: str | None = None, reused: bool = False, result_preview: str | None = None,
) -> dict[str, Any]:
    """Payload of tool_call_started / tool_call_finished (name qualified as server.tool)."""
    payload: dict[str, Any] = {"call_id": call_id, "name": name, "args": args, "reused": reused}
    if status is not None:
        payload.update(status=status, latency_ms=latency_ms, error=error, result_preview=result_preview)
    return payload
