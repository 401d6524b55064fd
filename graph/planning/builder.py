"""`PlanBuilder`: collects the tasks of one turn, merges duplicates and adds data tasks only when needed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from assetops.domain.actions import ACTIONS
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask, TimeWindow
from graph.planning.artifacts import ArtifactSummary, uncovered_sensors


def describe_window(window: TimeWindow | None) -> str:
    """"2021-03-01..2021-05-31 (this spring)" for goals and messages (a midnight end is shown inclusive)."""
    if window is None:
        return "all available dates"
    if window.end.hour == 0 and window.end.minute == 0 and window.start.hour == 0:
        span = f"{window.start.date().isoformat()}..{(window.end - timedelta(days=1)).date().isoformat()}"
    else:
        span = f"{window.start:%Y-%m-%d %H:%M}..{window.end:%Y-%m-%d %H:%M}"
    return f"{span} ({window.label})" if window.label else span


@dataclass
class PlanBuilder:
    """The ordered task list of a plan; indexes returned by `add` are what `depends_on` refers to."""

    artifacts: Sequence[ArtifactSummary]
    tasks: list[SpecialistTask] = field(default_factory=list)

    def add(self, specialist: SpecialistId, action: str, *, goal: str, depends_on: Sequence[int] = (),
            **fields: object) -> int:
        """Append a task (or return the index of an identical one already planned)."""
        if action not in ACTIONS[specialist]:
            raise ValueError(f"{specialist} has no action {action!r}; known: {', '.join(ACTIONS[specialist])}")
        task = SpecialistTask(specialist=specialist, action=action, goal=goal,
                              depends_on=sorted(set(depends_on)), **fields)  # type: ignore[arg-type]
        for index, existing in enumerate(self.tasks):
            if _same_work(existing, task) or _same_scan(existing, task):
                existing.depends_on = sorted(set(existing.depends_on) | set(task.depends_on))
                existing.sensors = list(dict.fromkeys([*existing.sensors, *task.sensors]))
                return index
        self.tasks.append(task)
        return len(self.tasks) - 1

    def ensure_history(self, asset: str, window: TimeWindow, sensors: list[str], *, exact: bool = False) -> list[int]:
        """Indexes of the data tasks a later task on (asset, window, sensors) must wait for.

        Nothing is planned when earlier artifacts already hold the samples, or when a data task of
        this plan already fetches them; otherwise one history task fetches only what is missing.
        `exact`: the answer states the readings' figures over this window, so a wider earlier window does
        not do (the data specialist cuts this one out of it, with no tool call).
        """
        missing = uncovered_sensors(self.artifacts, asset, window, sensors, exact=exact)
        if not missing:
            return []
        planned = [i for i, t in enumerate(self.tasks) if t.specialist == "data" and t.action == "history"
                   and asset in t.asset_ids and t.window is not None
                   and t.window.start <= window.start and window.end <= t.window.end]
        for index in planned:
            task = self.tasks[index]
            task.sensors = list(dict.fromkeys([*task.sensors, *missing]))
            return [index]
        short = ", ".join(name.removeprefix(f"{asset} ") for name in missing)
        return [self.add("data", "history", asset_ids=[asset], window=window, sensors=missing,
                         goal=f"{asset} telemetry {describe_window(window)}: {short}")]


def _same_work(left: SpecialistTask, right: SpecialistTask) -> bool:
    return (left.specialist, left.action, left.asset_ids, left.equipment_ids, left.window, left.sensors,
            left.params) == (right.specialist, right.action, right.asset_ids, right.equipment_ids, right.window,
                             right.sensors, right.params)



# Analyses that read several sensors in one pass: two recipes asking one of them for the same chiller and window
# ("anything odd across the plant? which unit looks worst": the anomaly scan and the ranking's) run it once, on
# the sensors of both.
_SCANS = frozenset({"anomaly_detection"})


def _same_scan(left: SpecialistTask, right: SpecialistTask) -> bool:
    return left.action in _SCANS and (left.specialist, left.action, left.asset_ids, left.equipment_ids, left.window,
                                      left.params) == (right.specialist, right.action, right.asset_ids,
                                                       right.equipment_ids, right.window, right.params)
