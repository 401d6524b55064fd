"""The boundary between running a suite and scoring it: what one turn and one dialog left behind.

Built from a turn's typed events (graph/events.py), whichever way the turn ran (embedded, over REST,
supervisor or plan-execute), so every metric reads the same records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assetops.domain.events import TurnEvent


@dataclass(frozen=True)
class CallRecord:
    """One tool call as the turn reported it; `reused` calls were answered from the session memo."""

    name: str
    args: dict[str, Any]
    status: str
    latency_ms: float
    reused: bool
    end_ms: float  # when it finished, ms after the turn started (its interval is [end - latency, end])

    @property
    def server(self) -> str:
        """The tool server (the part of the qualified name before the dot)."""
        return self.name.split(".", 1)[0] if "." in self.name else "?"


@dataclass
class TurnRecord:
    """One turn: what was asked, answered, called and how long it took."""

    dialog_id: str
    index: int
    text: str
    answer: str
    status: str
    wall_ms: float
    calls: list[CallRecord] = field(default_factory=list)
    llm_calls: int = 0
    llm_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    kinds: list[str] = field(default_factory=list)  # decision kinds (run, answer, clarify, reject, error)

    @property
    def executed(self) -> list[CallRecord]:
        """The calls that really ran (not answered from the memo)."""
        return [c for c in self.calls if not c.reused]


@dataclass
class DialogRecord:
    """One dialog of a suite run: its turns, its rollout lines and the per-turn check results."""

    dialog_id: str
    arch: str
    turns: list[TurnRecord]
    rollout: list[dict[str, Any]]
    checks: list[Any] = field(default_factory=list)  # bench.heldout_bench.TurnResult per turn


def turn_record(dialog_id: str, index: int, text: str, events: list[TurnEvent]) -> TurnRecord:
    """The record of one turn from its events (the `done` event carries the timings)."""
    started = events[0].timestamp if events else None
    calls = [CallRecord(name=str(e.data.get("name")), args=dict(e.data.get("args") or {}),
                        status=str(e.data.get("status")), latency_ms=float(e.data.get("latency_ms") or 0.0),
                        reused=bool(e.data.get("reused")),
                        end_ms=(e.timestamp - started).total_seconds() * 1000.0 if started else 0.0)
             for e in events if e.type == "tool_call_finished"]
    done = next((e.data for e in reversed(events) if e.type == "done"), {})
    timings = done.get("timings") or {}
    answer = next((str(e.data.get("text") or "") for e in reversed(events) if e.type == "final_answer"), "")
    kinds = sorted({str(e.data.get("kind")) for e in events if e.type in ("supervisor_decision", "final_answer")})
    return TurnRecord(dialog_id=dialog_id, index=index, text=text, answer=answer, status=str(done.get("status")),
                      wall_ms=float(timings.get("wall_ms") or 0.0), calls=calls,
                      llm_calls=int(timings.get("llm_calls") or 0), llm_ms=float(timings.get("llm_ms") or 0.0),
                      prompt_tokens=int(timings.get("prompt_tokens") or 0),
                      completion_tokens=int(timings.get("completion_tokens") or 0), kinds=kinds)
