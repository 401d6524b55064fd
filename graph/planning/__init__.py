"""Turn planning: the offline planner, the artifact summaries it reads, and task progress."""

from graph.planning.artifacts import ArtifactSummary
from graph.planning.offline import plan_turn
from graph.planning.progress import outstanding_tasks, satisfied_by

__all__ = ["ArtifactSummary", "outstanding_tasks", "plan_turn", "satisfied_by"]
