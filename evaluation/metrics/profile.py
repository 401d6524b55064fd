"""Profile figures: latency by turn position, tool-time share, tool and LLM calls and tokens per dialog.

Tool time is the wall time during which at least one tool call ran (the union of the calls'
[end - latency, end] intervals), so parallel calls are not counted twice and the share of wall time
stays in [0, 1].
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from evaluation.records import CallRecord, DialogRecord, TurnRecord


def busy_ms(calls: Sequence[CallRecord]) -> float:
    """The length of the union of the calls' intervals (ms)."""
    intervals = sorted((max(0.0, c.end_ms - c.latency_ms), c.end_ms) for c in calls if c.latency_ms > 0)
    total, current_start, current_end = 0.0, None, None
    for start, end in intervals:
        if current_end is None or start > current_end:
            if current_end is not None and current_start is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None and current_start is not None:
        total += current_end - current_start
    return total


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def latency_by_position(turns: Sequence[TurnRecord]) -> dict[str, float | None]:
    """Mean wall time of first turns, of turns 2-5, their ratio, and the mean per position 1..5."""
    first = [t.wall_ms for t in turns if t.index == 1]
    follow = [t.wall_ms for t in turns if 2 <= t.index <= 5]
    by_position = {f"turn_{n}_ms": _mean([t.wall_ms for t in turns if t.index == n]) for n in range(1, 6)}
    first_ms, follow_ms = _mean(first), _mean(follow)
    speedup = first_ms / follow_ms if first_ms is not None and follow_ms else None
    return {"first_turn_ms": first_ms, "follow_up_ms": follow_ms, "follow_up_speedup": speedup, **by_position}


def tool_time_share(turns: Sequence[TurnRecord]) -> float | None:
    """Tool busy time over wall time, summed over the turns."""
    wall = sum(t.wall_ms for t in turns)
    return sum(busy_ms(t.executed) for t in turns) / wall if wall else None


def tool_ms_by_server(turns: Sequence[TurnRecord]) -> dict[str, float]:
    """Summed latency of executed calls per tool server."""
    totals: dict[str, float] = defaultdict(float)
    for turn in turns:
        for call in turn.executed:
            totals[call.server] += call.latency_ms
    return dict(sorted(totals.items()))


def per_dialog(dialogs: Sequence[DialogRecord]) -> dict[str, float | None]:
    """Mean per dialog: executed tool calls, LLM calls, prompt and completion tokens, wall seconds."""
    def mean_of(fn: Any) -> float | None:
        return _mean([float(sum(fn(t) for t in d.turns)) for d in dialogs])
    return {"tool_calls": mean_of(lambda t: len(t.executed)), "llm_calls": mean_of(lambda t: t.llm_calls),
            "prompt_tokens": mean_of(lambda t: t.prompt_tokens),
            "completion_tokens": mean_of(lambda t: t.completion_tokens),
            "wall_s": mean_of(lambda t: t.wall_ms / 1000.0)}


def wall_split(turns: Sequence[TurnRecord]) -> dict[str, float]:
    """Wall seconds split into tool time (busy), LLM time and the rest (planning, composing, storing)."""
    wall = sum(t.wall_ms for t in turns) / 1000.0
    tool = sum(busy_ms(t.executed) for t in turns) / 1000.0
    llm = sum(t.llm_ms for t in turns) / 1000.0
    return {"tool_s": tool, "llm_s": llm, "other_s": max(0.0, wall - tool - llm)}


def profile_figures(dialogs: Sequence[DialogRecord]) -> dict[str, Any]:
    """Every profile figure of a suite run."""
    turns = [t for d in dialogs for t in d.turns]
    return {**latency_by_position(turns), "tool_time_share": tool_time_share(turns),
            "wall_s_total": sum(t.wall_ms for t in turns) / 1000.0,
            "tool_calls_total": sum(len(t.executed) for t in turns),
            "tool_ms_by_server": tool_ms_by_server(turns), "wall_split": wall_split(turns), "per_dialog": per_dialog(dialogs)}
