"""A scripted conversation for planner tests: each run task becomes an artifact, as the supervisor would."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from assetops.domain.turn import Decision, Focus
from graph.planning import ArtifactSummary, plan_turn
from tests.support.catalog import default_catalog

SITE = ZoneInfo("America/New_York")
REFERENCE = date(2021, 7, 1)


def at(*parts: int) -> datetime:
    """An aware site-time datetime."""
    return datetime(*parts, tzinfo=SITE)  # type: ignore[misc]


@dataclass
class Dialog:
    """Plays turns through `plan_turn`, carrying the focus and turning every task into an artifact.

    `results` adds key results to the artifacts of an action (e.g. ranked hypotheses for "diagnose").
    """

    reference_date: date = REFERENCE
    results: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    focus: Focus = field(default_factory=Focus)
    artifacts: list[ArtifactSummary] = field(default_factory=list)

    def say(self, message: str) -> Decision:
        decision = plan_turn(message, self.focus, self.reference_date, list(self.artifacts), catalog=default_catalog())
        self.focus = decision.focus
        for task in decision.tasks:
            self.artifacts.append(ArtifactSummary(
                id=f"art{len(self.artifacts)}", producer=task.specialist, kind=task.action,
                asset_ids=tuple(task.asset_ids), window=task.window, sensors=tuple(task.sensors),
                key_results=dict(self.results.get(task.action, {}))))
        return decision


def steps(decision: Decision) -> list[tuple[str, str]]:
    """(specialist, action) of each task, in plan order."""
    return [(t.specialist, t.action) for t in decision.tasks]


def step_set(decision: Decision) -> set[tuple[str, str]]:
    """The distinct (specialist, action) pairs of a plan."""
    return set(steps(decision))


def window_of(decision: Decision, action: str) -> tuple[datetime, datetime]:
    """The window of the first task with `action`."""
    task = next(t for t in decision.tasks if t.action == action)
    assert task.window is not None
    return task.window.start, task.window.end


def short_sensors(decision: Decision, action: str) -> set[str]:
    """Sensors of the first task with `action`, without the asset prefix."""
    task = next(t for t in decision.tasks if t.action == action)
    return {s.split(" ", 2)[2] for s in task.sensors}
