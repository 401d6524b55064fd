"""Recovery by failure kind, on real turns: every failure a specialist can meet is followed, in the
same turn and by the same specialist, by a successful call that says what was found, so the turn's
rollout scores recovery success under the harness's rules (ROLLOUT_FORMAT.md 2.4, computed by
evaluation.metrics.rollout) and the answer states the finding.

Each test scripts the planner with one task that meets one failure kind on the generated fleet;
everything below the planner (supervisor, specialists, tool framework, database, artifact store, the
TTM checkpoint) is the real thing. Where the data holds no such failure, the database is changed the
way a real site's would be (a chiller that stopped), never the code under test.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import update

from app.services.rollout import rollout_lines
from assetops.db.tables import TelemetryRow
from assetops.domain.turn import Decision, Focus, SpecialistTask, TimeWindow
from evaluation.metrics.rollout import group_turns, status_ok, turn_outcome
from graph.deps import open_deps
from tests.integration.graph.graph_dialog_support import answer_of, turn_events

SITE_ZONE = ZoneInfo("America/New_York")
FLEET = ("2021-05-01", "2021-05-31", ("Chiller 3", "Chiller 4", "Chiller 9"))
REF = date(2021, 6, 1)
MAINTENANCE = "maintenance_planning_specialist"


def window(start: str, end: str, label: str = "") -> TimeWindow:
    return TimeWindow(datetime.fromisoformat(start).replace(tzinfo=SITE_ZONE),
                      datetime.fromisoformat(end).replace(tzinfo=SITE_ZONE), label)


def planner_of(task: SpecialistTask) -> Any:
    def plan(message: str, focus: Focus, reference_date: date, artifacts: list[Any]) -> Decision:
        return Decision("run", tasks=[task], focus=Focus(asset_ids=task.asset_ids, window=task.window))
    return plan


async def scored_turn(settings: Any, task: SpecialistTask, message: str,
                      prepare: Any = None) -> tuple[tuple[bool, bool], str, list[dict[str, Any]]]:
    """((recovery triggered, turn succeeded), answer, rollout lines) of one real turn running `task`."""
    async with open_deps(settings, llm=False, planner=planner_of(task)) as deps:
        if prepare is not None:
            await prepare(deps)
        events = await turn_events(deps, "recovery", message, REF)
    lines = rollout_lines("recovery", events, reference_date=REF)
    (turn,) = group_turns(lines)
    return turn_outcome(turn), answer_of(events), lines


def calls_of(lines: list[dict[str, Any]], role: str) -> list[tuple[str, bool]]:
    """(tool, ok) of every executed call of one role, in order."""
    return [(c["tool_name"], status_ok(c["status"])) for line in lines if line.get("agent_role") == role
            for c in line.get("tool_calls") or []]


async def test_no_alert_rules_for_an_equipment_is_answered_with_its_event_log(fleet_templates, tmp_path: Path) -> None:
    task = SpecialistTask("maintenance", "alert_rules", equipment_ids=["CWC04013"],
                          window=window("2021-05-01", "2021-06-01", "May 2021"))
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "Which alert rules fire on CWC04013?")
    assert outcome == (True, True)
    assert calls_of(lines, MAINTENANCE) == [("wo.get_alert_rules", False), ("wo.get_events", True)]
    assert "No alert rules on record for CWC04013: no alert has ever fired on it" in answer
    assert "work orders" in answer  # what its event log over the period does hold


async def test_rules_without_alerts_in_the_period_are_answered_with_the_rules_that_fired(
        fleet_templates, tmp_path: Path) -> None:
    task = SpecialistTask("maintenance", "alert_to_failure", equipment_ids=["CWC04009"],
                          window=window("2021-05-20", "2021-06-01", "the last ten days of May"))
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "Do the alerts on CWC04009 lead to repairs?")
    assert outcome == (True, True)
    calls = calls_of(lines, MAINTENANCE)
    assert ("wo.analyze_alert_to_failure", False) in calls and calls[-1] == ("wo.get_events", True)
    assert "No alerts of RUL0017, RUL0022 on CWC04009" in answer
    assert "the alerts in that period came from RUL0018" in answer


async def test_no_corrective_orders_in_the_period_is_answered_with_the_last_one_before(
        fleet_templates, tmp_path: Path) -> None:
    task = SpecialistTask("maintenance", "wo_summary", equipment_ids=["CWC04009"], params={"kind": "corrective"},
                          window=window("2021-05-01", "2021-06-01", "May 2021"))
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "Any corrective work on CWC04009 in May?")
    assert outcome == (True, True)
    assert calls_of(lines, MAINTENANCE)[-1] == ("wo.get_corrective_work_orders", True)
    assert "No corrective work orders on CWC04009 (May 2021)" in answer
    assert "The last one before the period was WO" in answer


async def test_an_empty_period_asked_about_again_is_answered_from_the_session_not_failed_again(
        fleet_templates, tmp_path: Path) -> None:
    """Bundling the repairs of a period a summary already found empty: the empty listing and the look
    back are the same calls, answered from the session (reused, not executed), so nothing fails and
    the answer still says what was found."""
    summary = SpecialistTask("maintenance", "wo_summary", equipment_ids=["CWC04009"], params={"kind": "corrective"},
                             window=window("2021-05-01", "2021-06-01", "May 2021"))
    bundle = SpecialistTask("maintenance", "bundle", equipment_ids=["CWC04009"], window=summary.window)
    tasks = iter([summary, bundle])

    def plan(message: str, focus: Focus, reference_date: date, artifacts: list[Any]) -> Decision:
        task = next(tasks)
        return Decision("run", tasks=[task], focus=Focus(asset_ids=task.asset_ids, window=task.window))

    async with open_deps(fleet_templates.settings_for(*FLEET, tmp_path), llm=False, planner=plan) as deps:
        first = await turn_events(deps, "again", "Any corrective work on CWC04009 in May?", REF)
        second = await turn_events(deps, "again", "Could any of it have been one visit?", REF)
    lines = rollout_lines("again", [*first, *second], reference_date=REF)
    turns = group_turns(lines)
    assert turn_outcome(turns[0]) == (True, True) and turn_outcome(turns[1]) == (False, True)
    reused = [c for line in turns[1] for c in line.get("reused_tool_calls") or []]
    assert [c["tool_name"] for c in reused] == ["wo.get_corrective_work_orders", "wo.get_corrective_work_orders"]
    answer = answer_of(second)
    assert "nothing to bundle" in answer and "The last one before the period was WO" in answer


async def test_nothing_to_bundle_in_the_period_is_answered_with_the_last_corrective_order(
        fleet_templates, tmp_path: Path) -> None:
    task = SpecialistTask("maintenance", "bundle", equipment_ids=["CWC04009"],
                          window=window("2021-05-01", "2021-06-01", "May 2021"))
    outcome, answer, _ = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                           "Could May's repairs on CWC04009 have been one visit?")
    assert outcome == (True, True)
    assert "nothing to bundle" in answer and "The last one before the period was WO" in answer


async def test_too_few_orders_to_predict_from_is_answered_from_the_whole_history(
        fleet_templates, tmp_path: Path) -> None:
    task = SpecialistTask("maintenance", "predict_next", equipment_ids=["CWC04009"],
                          window=window("2021-05-01", "2021-06-01", "May 2021"))
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "What work order comes next on CWC04009?")
    assert outcome == (True, True)
    assert calls_of(lines, MAINTENANCE) == [("wo.predict_next_work_order", False),
                                            ("wo.predict_next_work_order", True)]
    assert "the next is most likely" in answer and "whole history up to 2021-06-01" in answer


async def test_a_commanded_draft_without_a_diagnosis_is_an_inspection_order(fleet_templates, tmp_path: Path) -> None:
    task = SpecialistTask("maintenance", "draft_wo", asset_ids=["Chiller 9"], equipment_ids=["CWC04009"],
                          params={"work": "full condenser inspection", "check_duplicates": True})
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "Raise a work order for a full condenser inspection on Chiller 9.")
    assert outcome == (False, True)  # nothing failed: the draft is made
    assert calls_of(lines, MAINTENANCE) == [("wo.get_work_orders", True)]  # the duplicate check
    assert "full condenser inspection" in answer and "no diagnosis backs it" in answer


async def test_telemetry_not_fetched_yet_is_fetched_by_the_specialist_that_needs_it(
        fleet_templates, tmp_path: Path) -> None:
    """Trend statistics on a window nobody fetched: no failed step waiting for the data specialist."""
    task = SpecialistTask("timeseries", "trend_stats", asset_ids=["Chiller 9"],
                          window=window("2021-05-10", "2021-05-24", "two weeks in May"))
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "How have Chiller 9's sensors trended over those two weeks?")
    assert outcome == (False, True)
    assert ("iot.history_csv", True) in calls_of(lines, "time_series_analysis_specialist")
    assert not [line for line in lines if line.get("agent_role") == "data_collection_specialist"]
    assert "Chiller 9 sensor health" in answer


async def test_a_week_anomaly_detection_cannot_calibrate_on_is_rerun_over_four_weeks(
        fleet_templates, tmp_path: Path) -> None:
    """Chiller 9 stopped a day into the week asked about: every running sample falls in the
    calibration part and the tool has nothing to test. The specialist reruns over the four weeks
    before the same end, says so, and the turn scores recovery success."""
    async def stop_chiller_9(deps: Any) -> None:
        stopped = datetime(2021, 5, 26, 4, tzinfo=SITE_ZONE)  # before the calibration part (a fifth) ends
        async with deps.db.session() as session:
            await session.execute(update(TelemetryRow).where(TelemetryRow.asset_id == "Chiller 9",
                                                             TelemetryRow.ts >= stopped)
                                  .values(pct_loaded=0.0, tonnage=0.0, power_input=0.0, efficiency=0.0))

    task = SpecialistTask("timeseries", "anomaly_detection", asset_ids=["Chiller 9"], sensors=["Power Input"],
                          window=window("2021-05-25", "2021-06-01", "the last week of May"))
    outcome, answer, lines = await scored_turn(fleet_templates.settings_for(*FLEET, tmp_path), task,
                                               "Anything abnormal on Chiller 9 last week?", prepare=stop_chiller_9)
    tsad = [ok for name, ok in calls_of(lines, "time_series_analysis_specialist") if name == "tsfm.run_integrated_tsad"]
    assert tsad[0] is False and tsad[-1] is True
    assert outcome == (True, True)
    assert "28 days up to the window end" in answer
