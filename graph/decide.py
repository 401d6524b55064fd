"""Pure re-decision logic of the supervisor: which tasks are ready, and what a result changes.

After every dispatch the supervisor folds the specialists' results into the plan: a finished task
is done; a failed one is retried (the tool runner answers its successful calls from the session
memo, so only the failed part runs again) until its retries are spent, then the plan is rebuilt
around the missing evidence (its dependents are skipped with a reason); missing evidence a
specialist names (`follow_ups`) becomes new tasks, each at most once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.state import task_signature


@dataclass
class Replan:
    """What folding one step's results into the plan did: the new plan and notes for the answer."""

    plan: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    changed: bool = False


def ready_tasks(plan: list[dict[str, Any]]) -> list[int]:
    """Indexes of pending tasks whose dependencies are all done."""
    return [
        i for i, task in enumerate(plan)
        if task["status"] == "pending" and all(plan[d]["status"] == "done" for d in task.get("depends_on") or ())
    ]


def skip_orphans(plan: list[dict[str, Any]]) -> list[str]:
    """Skip pending tasks whose dependency failed or was skipped (in place); returns the notes."""
    notes: list[str] = []
    changed = True
    while changed:  # a skip can orphan further tasks down the chain
        changed = False
        for task in plan:
            if task["status"] != "pending":
                continue
            blocked = [d for d in task.get("depends_on") or () if plan[d]["status"] in ("failed", "skipped")]
            if blocked:
                task["status"] = "skipped"
                task["reason"] = f"needs the evidence of '{plan[blocked[0]].get('goal') or plan[blocked[0]]['action']}'"
                notes.append(f"Skipped {_label(task)}: it {task['reason']}, which could not be obtained.")
                changed = True
    return notes


def fold_results(plan: list[dict[str, Any]], results: list[dict[str, Any]], *, max_retries: int,
                 max_tasks: int) -> Replan:
    """Fold one dispatch's results into a copy of the plan (retries, follow-ups, skips).

    A follow-up runs before the retry of the task that asked for it (the retry depends on it); the
    follow-ups of a successful task are simply extra work.
    """
    new_plan = [dict(task) for task in plan]
    notes: list[str] = []
    known = {task_signature(task) for task in new_plan}
    for result in results:
        task = new_plan[result["task_index"]]
        notes.extend(_settle(task, result, max_retries))
        for follow_up in result.get("follow_ups") or ():
            if task_signature(follow_up) in known:
                continue
            if len(new_plan) >= max_tasks:
                notes.append(f"Not run (limit of {max_tasks} tasks per turn): {_label(follow_up)}.")
                continue
            known.add(task_signature(follow_up))
            new_plan.append({**follow_up, "status": "pending", "attempts": 0, "reason": "", "depends_on": []})
            if task["status"] == "pending":
                task["depends_on"] = [*(task.get("depends_on") or []), len(new_plan) - 1]
            notes.append(f"Added {_label(follow_up)} because {result['specialist']} reported missing evidence.")
    notes.extend(skip_orphans(new_plan))
    return Replan(plan=new_plan, notes=notes, changed=bool(notes) or bool(results))


def _settle(task: dict[str, Any], result: dict[str, Any], max_retries: int) -> list[str]:
    if result["status"] in ("ok", "partial"):
        task["status"] = "done"
        return []
    if result.get("unavailable"):
        task["status"] = "failed"
        task["reason"] = result["summary"]
        return [result["summary"]]
    if result.get("retryable", True) and task.get("attempts", 0) < max_retries:
        task["attempts"] = task.get("attempts", 0) + 1
        task["status"] = "pending"
        return [f"Retried {_label(task)} after: {_first_error(result)}."]
    task["status"] = "failed"
    task["reason"] = _first_error(result)
    return [f"Gave up on {_label(task)} after {task['attempts'] + 1} attempts: {task['reason']}."]


def _first_error(result: dict[str, Any]) -> str:
    errors = result.get("errors") or []
    return str(errors[0]) if errors else result.get("summary") or "unknown error"


def _label(task: dict[str, Any]) -> str:
    return task.get("goal") or f"{task['specialist']}.{task['action']}"


def capped_plan(plan: list[dict[str, Any]], max_tasks: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The first `max_tasks` tasks, and a note naming what went over the cap."""
    if len(plan) <= max_tasks:
        return plan, []
    dropped = plan[max_tasks:]
    kept = [dict(t, depends_on=[d for d in t.get("depends_on") or () if d < max_tasks]) for t in plan[:max_tasks]]
    return kept, [f"Not run (limit of {max_tasks} tasks per turn): {', '.join(_label(t) for t in dropped)}."]
