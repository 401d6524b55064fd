"""Per-run knobs of the supervisor graph, in one object (ARCHITECTURE.md: "one config object")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GraphConfig:
    """Limits that keep a turn bounded whatever the planner or the LLM asks for."""

    max_steps: int = 8  # supervisor decisions per turn before an honest partial answer
    max_parallel_specialists: int = 3  # specialists running at the same time within one dispatch
    # fan-out cap; tasks over it are dropped with a message. A whole-site diagnosis needs 4 x 3 + 1 tasks.
    max_tasks_per_turn: int = 16
    max_task_retries: int = 1  # re-runs of a failed specialist task before replanning around it
    answer_max_chars: int = 2400  # the answer stays readable however long the dialog grows
    prompt_messages: int = 8  # earlier dialog messages an LLM prompt sees
    prompt_artifacts: int = 12  # compact artifacts an LLM prompt sees (most recent first)
