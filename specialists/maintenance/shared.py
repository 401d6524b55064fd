"""What every maintenance handler shares: the equipment and period of a task, storing an artifact, the result."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from artifacts.model import Artifact, new_artifact_id
from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome


def equipment_of(task: SpecialistTask, catalog: FleetCatalog) -> list[tuple[str, str | None]]:
    """(equipment id, asset name) pairs of the task; chiller names map to their Maximo ids."""
    pairs = [(eid, catalog.asset_id_of(eid)) for eid in task.equipment_ids]
    for asset in task.asset_ids:
        equipment_id = catalog.equipment_id_of(asset) or asset
        if equipment_id not in task.equipment_ids:
            pairs.append((equipment_id, asset))
    return pairs


def date_args(task: SpecialistTask, reference: date) -> dict[str, str]:
    """start_date/end_date tool arguments: the task window, never past the session's reference date
    (records dated after "today" of the dialog must not leak into answers)."""
    end = reference if task.window is None else min(task.window.end.date(), reference)
    args = {"end_date": end.isoformat()}
    if task.window is not None:
        start = task.window.start.date()
        # ("since the trip" on the reference day itself: that day's records, not an empty span the tools refuse)
        args["start_date"] = start.isoformat()
        if start >= end:
            args["end_date"] = (start + timedelta(days=1)).isoformat()
    return args


def period_label(task: SpecialistTask) -> str:
    """The task's period as the answer names it ("last year", "2020-01-01 to 2021-01-01", "all history")."""
    if task.window is None:
        return "all history"
    return task.window.label or f"{task.window.start.date()} to {task.window.end.date()}"


def with_notes(head: str, notes: list[str]) -> str:
    """A finding and the sentences that follow it ("None in the period. The last one before was ...")."""
    return " ".join([f"{head}.", *notes]) if notes else head


async def save_artifact(ctx: SpecialistContext, task: SpecialistTask, *, kind: str, summary: str,
                        observations: list[str], results: dict[str, Any], calls: list[ToolOutcome],
                        assets: list[str] | None = None, equipment: list[str] | None = None,
                        confidence: float | None = None, assumptions: list[str] | None = None) -> Artifact:
    """Store a maintenance artifact of this task (window, equipment and the calls that made it)."""
    artifact = Artifact(
        id=new_artifact_id("maintenance"), **ctx.new_artifact_fields(), producer="maintenance", kind=kind,
        asset_ids=assets if assets is not None else list(task.asset_ids),
        equipment_ids=equipment if equipment is not None else [e for e, _ in equipment_of(task, ctx.catalog)],
        window_start=task.window.start if task.window else None,
        window_end=task.window.end if task.window else None,
        tool_calls=[c.as_artifact_call() for c in calls], observations=observations, results=results,
        summary=summary, confidence=confidence, assumptions=assumptions or [],
    )
    return await ctx.store.put(artifact)


def maintenance_result(task: SpecialistTask, summary: str, artifacts: list[Artifact], errors: list[str] | None = None,
                       status: str | None = None) -> SpecialistResult:
    """ok when everything was answered, partial when some equipment failed, failed when nothing was produced."""
    state = status or ("partial" if errors and artifacts else "failed" if errors else "ok")
    return SpecialistResult("maintenance", task.action, state, summary,  # type: ignore[arg-type]
                            artifact_ids=[a.id for a in artifacts], errors=errors or [])
