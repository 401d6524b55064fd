"""Pure re-decision logic of the supervisor: which tasks are ready, and what a result changes.

After every dispatch the supervisor folds the specialists' results into the plan: a finished task
is done; a failed one is retried (the tool runner answers its successful calls from the session
memo, so only the failed part runs again) until its retries are spent, then the plan is rebuilt
around the missing evidence (its dependents are skipped with a reason); missing evidence a
specialist names (`follow_ups`) becomes new tasks, each at most once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from assetops.domain.turn import SpecialistResult, SpecialistTask


@dataclass
class Replan:
    """What folding one step's results into the plan did: the new plan and notes for the answer."""

    plan: list[SpecialistTask]
    notes: list[str] = field(default_factory=list)
    changed: bool = False


def ready_tasks(plan: list[SpecialistTask]) -> list[int]:
    """Indexes of pending tasks whose dependencies are all done."""
    return [
        i for i, task in enumerate(plan)
        if task.status == "pending" and all(plan[d].status == "done" for d in task.depends_on)
    ]


def skip_orphans(plan: list[SpecialistTask]) -> list[str]:
    """Skip pending tasks whose dependency failed or was skipped (in place); returns the notes."""
    notes: list[str] = []
    changed = True
    while changed:  # a skip can orphan further tasks down the chain
        changed = False
        for task in plan:
            if task.status != "pending":
                continue
            blocked = [d for d in task.depends_on if plan[d].status in ("failed", "skipped")]
            if blocked:
                needed = plan[blocked[0]]
                task.status = "skipped"
                task.reason = f"needs the evidence of '{needed.goal or needed.action}'"
                notes.append(f"Skipped {task.label}: it {task.reason}, which could not be obtained.")
                changed = True
    return notes


def fold_results(plan: list[SpecialistTask], results: list[SpecialistResult], *, max_retries: int,
                 max_tasks: int) -> Replan:
    """Fold one dispatch's results into a copy of the plan (retries, follow-ups, skips).

    A follow-up runs before the retry of the task that asked for it (the retry depends on it); the
    follow-ups of a successful task are simply extra work.
    """
    new_plan = [replace(task, depends_on=list(task.depends_on)) for task in plan]
    notes: list[str] = []
    known = {task.signature() for task in new_plan}
    for result in results:
        task = new_plan[result.task_index]
        notes.extend(_settle(task, result, max_retries))
        for follow_up in result.follow_ups:
            if follow_up.signature() in known:
                continue
            if len(new_plan) >= max_tasks:
                notes.append(f"Not run (limit of {max_tasks} tasks per turn): {follow_up.label}.")
                continue
            known.add(follow_up.signature())
            new_plan.append(replace(follow_up, status="pending", attempts=0, reason="", depends_on=[]))
            if task.status == "pending":
                task.depends_on = [*task.depends_on, len(new_plan) - 1]
            notes.append(f"Added {follow_up.label} because {result.specialist} reported missing evidence.")
    notes.extend(skip_orphans(new_plan))
    return Replan(plan=new_plan, notes=notes, changed=bool(notes) or bool(results))


def _settle(task: SpecialistTask, result: SpecialistResult, max_retries: int) -> list[str]:
    if result.status in ("ok", "partial"):
        task.status = "done"
        return []
    if result.unavailable:
        task.status = "failed"
        task.reason = result.summary
        return [result.summary]
    if result.retryable and task.attempts < max_retries:
        task.attempts += 1
        task.status = "pending"
        return [f"Retried {task.label} after: {result.first_error()}."]
    task.status = "failed"
    task.reason = result.first_error()
    return [f"Gave up on {task.label} after {task.attempts + 1} attempts: {task.reason}."]


def capped_plan(plan: list[SpecialistTask], max_tasks: int) -> tuple[list[SpecialistTask], list[str]]:
    """The first `max_tasks` tasks, and a note naming what went over the cap."""
    if len(plan) <= max_tasks:
        return plan, []
    dropped = plan[max_tasks:]
    kept = [replace(t, depends_on=[d for d in t.depends_on if d < max_tasks]) for t in plan[:max_tasks]]
    return kept, [f"Not run (limit of {max_tasks} tasks per turn): {', '.join(t.label for t in dropped)}."]
