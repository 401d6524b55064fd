"""The data specialist: inventory, sensors, history (the evidence base), point values, comparisons."""

from __future__ import annotations

from datetime import datetime, timedelta

from assetops.domain.catalog import FleetCatalog
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, SpecialistResult
from specialists.data import catalog, point
from specialists.data.compare import comparison_artifact
from specialists.data.evidence import NAMED_SENSORS_MAX, focused_summary, result_status, window_label
from specialists.data.history import AssetHistory, collect_histories, requested_sensors
from specialists.dispatch import Handlers, dispatch

DEFAULT_LOOKBACK = timedelta(days=7)


def task_assets(task: SpecialistTask, catalog: FleetCatalog) -> list[str]:
    """The task's assets, from asset ids or (mapped) equipment ids."""
    assets = list(task.asset_ids)
    for code in task.equipment_ids:
        name = catalog.asset_id_of(code)
        if name and name not in assets:
            assets.append(name)
    return assets


def task_window(task: SpecialistTask, ctx: SpecialistContext) -> tuple[TimeWindow, list[str]]:
    """The task's window, or the week before the reference date (stated as an assumption)."""
    if task.window is not None:
        return task.window, []
    end = datetime.combine(ctx.reference_date, datetime.min.time())
    return TimeWindow(end - DEFAULT_LOOKBACK, end, "last 7 days"), [
        "No window was given; used the 7 days before the reference date."]


def _summary_for(task: SpecialistTask, history: AssetHistory, catalog: FleetCatalog) -> str:
    """The window's summary, led by the few sensors this task names when the window was reused (its
    stored summary may lead with other sensors)."""
    artifact = history.artifact
    if artifact is None:
        return ""
    named = 0 < len(task.sensors) <= NAMED_SENSORS_MAX
    if not (named and history.reused_id and artifact.asset_ids and artifact.window_start and artifact.window_end):
        return artifact.summary
    asset_id = artifact.asset_ids[0]
    label = window_label(artifact.window_start, artifact.window_end, catalog.zone)
    return focused_summary(artifact.results, asset_id, label, requested_sensors(asset_id, task.sensors, catalog)) \
        or artifact.summary


def _history_result(task: SpecialistTask, histories: list[AssetHistory], extra: list[str],
                    catalog: FleetCatalog) -> SpecialistResult:
    created = [h.artifact.id for h in histories if h.artifact is not None and h.created]
    reused = [h.reused_id for h in histories if h.reused_id]
    errors = [f"{h.asset_id}: {h.error}" for h in histories if h.error]
    parts = []
    for history in histories:
        if history.artifact is not None:
            gaps = [line for line in history.artifact.observations if line.startswith(("No data", history.asset_id))]
            note = " (reused from earlier in the session)" if history.reused_id else ""
            parts.append(_summary_for(task, history, catalog) + note + (" " + " ".join(gaps[:2]) if gaps else ""))
    parts += [f"No telemetry for {e.rstrip('.')}." for e in errors]
    status = result_status(errors, bool(created or reused))
    return SpecialistResult("data", task.action, status, " ".join(parts + extra), artifact_ids=created,
                            reused_artifact_ids=reused, errors=errors)


async def _sensors(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    return await catalog.sensors(replace_assets(task, ctx.catalog), ctx)


async def _point_value(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    return await point.point_value(replace_assets(task, ctx.catalog), ctx)


def _compared_periods(task: SpecialistTask) -> list[TimeWindow]:
    """The periods a one-chiller comparison spans (the planner's `windows` parameter), in order."""
    periods = []
    for entry in task.params.get("windows") or []:
        if isinstance(entry, dict) and entry.get("start") and entry.get("end"):
            periods.append(TimeWindow(datetime.fromisoformat(str(entry["start"])),
                                      datetime.fromisoformat(str(entry["end"])), str(entry.get("label") or "")))
    return periods


async def history(task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
    """A telemetry window per asset (reused when the session has it); `compare` adds a side-by-side
    comparison artifact when two or more windows were obtained."""
    assets = task_assets(task, ctx.catalog)
    if not assets:
        return SpecialistResult("data", task.action, "failed", "Which asset? The request names none.",
                                errors=["no asset in the task"])
    window, assumptions = task_window(task, ctx)
    periods = _compared_periods(task)
    if task.action == "compare" and len(assets) == 1 and len(periods) > 1:
        # one chiller over several periods ("in May, and in May last year?"): every period's window, each
        # reused or sliced from the session when it holds it, so the answer has both sides
        histories = [h for period in periods
                     for h in await collect_histories(ctx, assets, period.start, period.end, task.sensors)]
        return _history_result(task, histories, [], ctx.catalog)
    histories = await collect_histories(ctx, assets, window.start, window.end, task.sensors)
    result = _history_result(task, histories, [], ctx.catalog)
    if task.action == "compare" and sum(h.artifact is not None for h in histories) >= 2:
        comparison = await comparison_artifact(ctx, histories)
        result.artifact_ids.append(comparison.id)
        # The sources are cited by artifact id in the answer (result.artifact_ids), not in the text.
        gaps = [line for h in histories if h.artifact for line in h.artifact.observations if line.startswith("No data")]
        result.summary = " ".join([comparison.summary, *gaps[:2]])
    if assumptions:
        result.summary += " " + assumptions[0]
    return result


HANDLERS: Handlers = {
    "inventory": catalog.inventory,
    "sensors": _sensors,
    "history": history,
    "point_value": _point_value,
    "compare": history,
}


class DataSpecialist:
    """Collects and summarises telemetry; reuses the session's artifacts before calling any tool."""

    id: SpecialistId = "data"
    handlers: Handlers = HANDLERS

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        """Run one data task (see `assetops.domain.actions.ACTIONS["data"]`)."""
        return await dispatch("data", self.handlers, task, ctx)


def replace_assets(task: SpecialistTask, catalog: FleetCatalog) -> SpecialistTask:
    """The task with equipment ids mapped onto asset ids."""
    task.asset_ids = task_assets(task, catalog)
    return task
