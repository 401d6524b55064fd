"""Recovery and parallelism of real turns on a generated fleet (data specialist, real tools).

The planner is scripted so each test controls exactly one task; everything below it (supervisor,
data specialist, tool framework, database, artifact store) is the real thing.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import update

from assetops.db.tables import TelemetryRow
from assetops.domain.turn import Decision, Focus, SpecialistTask, TimeWindow
from assetops.profiling import Profile
from graph.deps import open_deps
from specialists.base import ToolOutcome
from tests.integration.graph.graph_dialog_support import answer_of, of_type, turn_events

SITE_ZONE = ZoneInfo("America/New_York")
FLEET = ("2021-05-01", "2021-05-31", ("Chiller 3", "Chiller 4", "Chiller 9"))
REF = date(2021, 6, 1)


def window(start: str, end: str) -> TimeWindow:
    return TimeWindow(datetime.fromisoformat(start).replace(tzinfo=SITE_ZONE),
                      datetime.fromisoformat(end).replace(tzinfo=SITE_ZONE))


def planner_of(task: SpecialistTask) -> Any:
    def plan(message: str, focus: Focus, reference_date: date, artifacts: list[Any]) -> Decision:
        return Decision("run", tasks=[task], focus=Focus(asset_ids=task.asset_ids, window=task.window))
    return plan


async def framework(calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
    from tools.framework import run_many

    results = await run_many(calls, specialist=specialist)
    return [ToolOutcome(r.name, r.args, r.status, r.output, r.error, r.latency_ms) for r in results]


async def test_a_two_asset_comparison_fetches_both_assets_concurrently(fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    task = SpecialistTask("data", "compare", asset_ids=["Chiller 3", "Chiller 4"],
                          window=window("2021-05-10", "2021-05-20"))
    profile = Profile()
    async with open_deps(settings, llm=False, planner=planner_of(task)) as deps:
        events = await turn_events(deps, "parallel", "compare 3 and 4", REF, profile=profile)
    fetches = [c for c in profile.tool_calls if c.tool == "history_csv"]
    assert sorted(c.args["asset_id"] for c in fetches) == ["Chiller 3", "Chiller 4"]
    first, second = fetches
    assert max(first.started_at, second.started_at) < min(first.finished_at, second.finished_at)
    answer = answer_of(events)
    assert "Chiller 3" in answer and "Chiller 4" in answer and "Chiller Efficiency" in answer


async def test_a_failed_tool_call_is_retried_with_corrected_arguments(fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    task = SpecialistTask("data", "history", asset_ids=["Chiller 4"], window=window("2021-05-03", "2021-05-06"))
    sabotaged: list[dict[str, Any]] = []

    async def garble_first_fetch(calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
        # The first history fetch goes out with the asset in the wrong form; the real tool rejects it.
        if not sabotaged:
            for index, (name, args) in enumerate(calls):
                if name == "iot.history_csv":
                    sabotaged.append({**args, "asset_id": "chiller4"})
                    calls = [*calls[:index], (name, sabotaged[0]), *calls[index + 1:]]
                    break
        return await framework(calls, specialist)

    async with open_deps(settings, llm=False, planner=planner_of(task), tool_executor=garble_first_fetch) as deps:
        events = await turn_events(deps, "retry", "history", REF)
    fetches = [e.data for e in of_type(events, "tool_call_finished") if e.data["name"] == "iot.history_csv"]
    assert [(f["args"]["asset_id"], f["status"]) for f in fetches] == [("chiller4", "error"), ("Chiller 4", "ok")]
    assert "unknown asset_id chiller4" in fetches[0]["error"]
    finished = of_type(events, "specialist_finished")[0].data
    assert finished["status"] == "ok" and finished["artifact_ids"]
    assert "Not available" not in answer_of(events)


async def test_a_sensor_without_data_is_reported_and_the_analysis_continues(fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    async with open_deps(settings, llm=False, planner=planner_of(SpecialistTask(
            "data", "history", asset_ids=["Chiller 9"], window=window("2021-05-10", "2021-05-12"),
            sensors=["Chiller 9 Condenser Water Flow", "Chiller 9 Power Input"]))) as deps:
        async with deps.db.session() as session:
            await session.execute(update(TelemetryRow).where(TelemetryRow.asset_id == "Chiller 9")
                                  .values(condenser_water_flow=None))
        events = await turn_events(deps, "dead-sensor", "history", REF)
        artifact = await deps.store.get(of_type(events, "artifact_created")[0].data["artifact_id"])
    assert artifact is not None
    assert artifact.results["sensors_without_data"] == ["Chiller 9 Condenser Water Flow"]
    assert artifact.results["stats"]["Chiller 9 Power Input"]["count"] > 0
    answer = answer_of(events)
    assert "No data for Chiller 9 Condenser Water Flow" in answer
    assert "Power Input: mean" in answer
    assert of_type(events, "done")[0].data["status"] == "ok"


async def test_a_narrower_window_later_in_the_session_is_cut_from_the_stored_artifact(fleet_templates,
                                                                                         tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(*FLEET, tmp_path)
    wide = SpecialistTask("data", "history", asset_ids=["Chiller 9"], window=window("2021-05-01", "2021-05-20"))
    narrow = SpecialistTask("data", "history", asset_ids=["Chiller 9"], window=window("2021-05-05", "2021-05-07"))
    async with open_deps(settings, llm=False, planner=planner_of(wide)) as deps:
        first = await turn_events(deps, "slice", "wide", REF)
        deps.planner = planner_of(narrow)
        second = await turn_events(deps, "slice", "narrow", REF)
        created = await deps.store.get(of_type(second, "artifact_created")[0].data["artifact_id"])
    wide_id = of_type(first, "artifact_created")[0].data["artifact_id"]
    assert of_type(second, "tool_call_started") == []
    assert [e.data["artifact_id"] for e in of_type(second, "artifact_reused")] == [wide_id]
    assert created is not None and created.results["rows"] < 3 * 96 and created.window_start is not None
