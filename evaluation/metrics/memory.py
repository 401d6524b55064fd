"""Memory metrics of a dialog's rollout: artifact reuse, redundant calls, fetches avoided.

Definitions (per dialog; corpus figures sum the counts):
- artifact reuse rate: in follow-up turns (turn 2 on), artifacts of earlier turns reused / (artifacts
  created + earlier ones reused);
  a follow-up answered from what earlier turns found scores 1, one that fetched everything again 0;
- redundant tool calls: an executed call (not answered from the memo) with the same tool and the same
  arguments as an earlier *successful* executed call of the same dialog; a retry after a failure is
  recovery, not redundancy;
- evidence fetches avoided: calls answered from the session memo (`reused_tool_calls`) plus, for every
  artifact reused in a later turn, the executed calls of the event that produced it, shared evenly
  among that event's output artifacts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from evaluation.metrics.rollout import group_turns, ratio, status_ok

Line = dict[str, Any]


@dataclass(frozen=True)
class MemoryCounts:
    """Raw counts of one dialog (summed over a corpus)."""

    follow_created: int = 0
    follow_reused: int = 0
    executed_calls: int = 0
    redundant_calls: int = 0
    memo_calls: int = 0
    fetches_avoided: float = 0.0

    def __add__(self, other: MemoryCounts) -> MemoryCounts:
        return MemoryCounts(*(a + b for a, b in zip(self.__dict__.values(), other.__dict__.values(), strict=True)))

    @property
    def reuse_rate(self) -> float | None:
        """Follow-up artifact reuse rate, None when follow-ups touched no artifact."""
        return ratio(self.follow_reused, self.follow_created + self.follow_reused)


NON_WORK_ROLES = frozenset({"supervisor", "respond_to_user", "user", "planner", "summarizer"})


def call_identity(call: dict[str, Any]) -> str:
    """Same tool, same arguments (argument order does not matter)."""
    return json.dumps([call.get("tool_name"), call.get("args") or {}], sort_keys=True, default=str)


def _calls(line: Line, key: str = "tool_calls") -> list[dict[str, Any]]:
    return [c for c in line.get(key) or [] if isinstance(c, dict)]


def memory_counts(lines: list[Line]) -> MemoryCounts:
    """The memory counts of one dialog's rollout lines."""
    seen_ok: set[str] = set()
    produced_by: dict[str, float] = {}  # artifact id of an earlier turn -> executed calls attributed to it
    created = reused = executed = redundant = memo = 0
    avoided = 0.0
    for number, turn in enumerate(group_turns(lines), start=1):
        made_now: dict[str, float] = {}
        for line in turn:
            calls = _calls(line)
            outputs = list(line.get("output_artifact_ids") or [])
            earlier = [a for a in line.get("reused_artifact_ids") or [] if a in produced_by]
            for call in calls:
                executed += 1
                identity = call_identity(call)
                redundant += identity in seen_ok
                if status_ok(call.get("status")):
                    seen_ok.add(identity)
            memo_here = len(_calls(line, "reused_tool_calls"))
            memo += memo_here
            avoided += memo_here + sum(produced_by[a] for a in earlier)
            made_now.update({a: len(calls) / len(outputs) for a in outputs})
            if number > 1 and line.get("agent_role") not in NON_WORK_ROLES:
                created += len(outputs)
                reused += len(earlier)
        produced_by.update(made_now)
    return MemoryCounts(follow_created=created, follow_reused=reused, executed_calls=executed,
                        redundant_calls=redundant, memo_calls=memo, fetches_avoided=avoided)
