"""Building artifacts and results the same way in every handler of the timeseries and failure specialists."""

from __future__ import annotations

from typing import Any, Literal

from artifacts.model import Artifact, new_artifact_id
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome


def build_artifact(
    ctx: SpecialistContext,
    producer: SpecialistId,
    kind: str,
    *,
    asset_ids: list[str],
    window: TimeWindow | None,
    sensors: list[str],
    summary: str,
    observations: list[str] | None = None,
    results: dict[str, Any] | None = None,
    calls: list[ToolOutcome] | None = None,
    data_ref: str | None = None,
    confidence: float | None = None,
    assumptions: list[str] | None = None,
) -> Artifact:
    """An artifact of this task with the shared fields filled in (not yet stored)."""
    return Artifact(
        id=new_artifact_id(producer),
        producer=producer,
        kind=kind,
        site=ctx.catalog.site,
        asset_ids=list(asset_ids),
        equipment_ids=ctx.catalog.equipment_ids_of(asset_ids),
        window_start=window.start if window else None,
        window_end=window.end if window else None,
        sensors=list(sensors),
        tool_calls=[c.as_artifact_call() for c in calls or []],
        observations=list(observations or []),
        results=dict(results or {}),
        data_ref=data_ref,
        assumptions=list(assumptions or []),
        confidence=confidence,
        summary=summary,
        **ctx.new_artifact_fields(),
    )


def no_telemetry(specialist: SpecialistId, task: SpecialistTask, errors: list[str]) -> SpecialistResult:
    """The answer when no telemetry could be had for the task (none held, and fetching it failed)."""
    return SpecialistResult(
        specialist,
        task.action,
        "failed",
        "No telemetry to analyse: " + "; ".join(errors),
        errors=errors or ["no telemetry for the task"],
    )


def tool_errors(outcomes: list[ToolOutcome]) -> list[str]:
    """One line per failed tool call."""
    return [f"{o.name}: {o.error}" for o in outcomes if not o.ok]


Status = Literal["ok", "partial", "failed"]


def result_status(*, produced: bool, complete: bool) -> Status:
    """ok when everything asked for was produced, partial when some was, failed when nothing was."""
    return "failed" if not produced else "ok" if complete else "partial"
