"""Which planned tasks the artifacts already satisfy: for a supervisor re-deciding after results.

The planner plans a turn once; after specialist results the supervisor can ask which tasks are
still outstanding instead of planning the same message again (which would repeat the work).
"""

from __future__ import annotations

from collections.abc import Sequence

from assetops.domain.turn import Decision, SpecialistTask
from graph.planning.artifacts import ArtifactSummary


def satisfied_by(task: SpecialistTask, artifacts: Sequence[ArtifactSummary]) -> ArtifactSummary | None:
    """The latest artifact that did this task's work: same producer and action (kind), the same
    assets, a window covering the task's, every task sensor, and no key result contradicting a
    task parameter (e.g. another `rule_id`)."""
    for artifact in reversed(artifacts):
        if (artifact.producer, artifact.kind) != (task.specialist, task.action):
            continue
        if set(artifact.asset_ids) != set(task.asset_ids) and task.asset_ids:
            continue
        if task.window is not None and (artifact.window is None or not (
                artifact.window.start <= task.window.start and task.window.end <= artifact.window.end)):
            continue
        if artifact.sensors and not set(task.sensors) <= set(artifact.sensors):
            continue
        if any(key in artifact.key_results and artifact.key_results[key] != value
               for key, value in task.params.items()):
            continue
        return artifact
    return None


def outstanding_tasks(decision: Decision, artifacts: Sequence[ArtifactSummary]) -> list[int]:
    """Indexes of the decision's tasks that no artifact satisfies yet, in plan order."""
    return [index for index, task in enumerate(decision.tasks) if satisfied_by(task, artifacts) is None]
