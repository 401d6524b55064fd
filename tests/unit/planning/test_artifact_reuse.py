"""Artifacts decide what is fetched again: only missing sensors/windows, never a held one."""

from __future__ import annotations

from assetops.domain.turn import Focus, TimeWindow
from graph.planning import ArtifactSummary, outstanding_tasks, plan_turn
from graph.planning.artifacts import (
    analysed_sensors,
    event_time_from,
    hypotheses_from,
    rule_ids_from,
    uncovered_sensors,
)
from graph.planning.builder import PlanBuilder
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import REFERENCE, at

SPRING = TimeWindow(at(2021, 3, 1), at(2021, 6, 1), "spring 2021")
APRIL = TimeWindow(at(2021, 4, 1), at(2021, 5, 1), "April 2021")
HISTORY = ArtifactSummary(id="h1", producer="data", kind="history", asset_ids=("Chiller 4",), window=SPRING,
                          sensors=("Chiller 4 Power Input", "Chiller 4 Tonnage"))


def test_sensors_held_over_a_wider_window_are_covered() -> None:
    assert uncovered_sensors([HISTORY], "Chiller 4", APRIL, ["Chiller 4 Power Input", "Chiller 4 Supply Temperature"]) \
        == ["Chiller 4 Supply Temperature"]


def test_a_window_reaching_outside_the_artifact_is_not_covered() -> None:
    june = TimeWindow(at(2021, 5, 15), at(2021, 6, 15))
    assert uncovered_sensors([HISTORY], "Chiller 4", june, ["Chiller 4 Power Input"]) == ["Chiller 4 Power Input"]


def test_another_asset_is_not_covered() -> None:
    assert uncovered_sensors([HISTORY], "Chiller 3", APRIL, ["Chiller 3 Power Input"]) == ["Chiller 3 Power Input"]


def test_ensure_history_plans_nothing_when_held_and_merges_into_a_planned_fetch() -> None:
    plan = PlanBuilder([HISTORY])
    assert plan.ensure_history("Chiller 4", APRIL, ["Chiller 4 Power Input"]) == []
    first = plan.ensure_history("Chiller 4", SPRING, ["Chiller 4 Supply Temperature"])
    second = plan.ensure_history("Chiller 4", APRIL, ["Chiller 4 Return Temperature"])
    assert first == second == [0]
    assert plan.tasks[0].sensors == ["Chiller 4 Supply Temperature", "Chiller 4 Return Temperature"]


def test_identical_tasks_are_planned_once() -> None:
    plan = PlanBuilder([])
    assert plan.add("maintenance", "predict_next", goal="a", equipment_ids=["CWC04009"]) == 0
    assert plan.add("maintenance", "predict_next", goal="b", equipment_ids=["CWC04009"]) == 0
    assert len(plan.tasks) == 1


def test_unknown_actions_are_a_programming_error() -> None:
    try:
        PlanBuilder([]).add("data", "teleport", goal="x")
    except ValueError as error:
        assert "teleport" in str(error)
    else:
        raise AssertionError("an unknown action was accepted")


def test_readers_of_key_results() -> None:
    artifacts = [
        ArtifactSummary(id="t", producer="timeseries", kind="anomaly_detection", asset_ids=("Chiller 4",),
                        window=SPRING, sensors=("Chiller 4 Power Input",)),
        ArtifactSummary(id="d", producer="failure", kind="diagnose", asset_ids=("Chiller 4",),
                        key_results={"hypotheses": [{"failure_mode": "Condenser Water side fouling"}, "Other"]}),
        ArtifactSummary(id="r", producer="maintenance", kind="alert_rules", asset_ids=("Chiller 4",),
                        summary="RUL0018 fired 138 times", key_results={"rule_ids": ["RUL0022"]}),
        ArtifactSummary(id="e", producer="data", kind="history", key_results={"trip_time": "2021-06-30T14:30:00-04:00"}),
    ]
    assert analysed_sensors(artifacts, "Chiller 4", APRIL) == {"Chiller 4 Power Input"}
    assert hypotheses_from(artifacts, ["Chiller 4"]) == ["Condenser Water side fouling", "Other"]
    assert rule_ids_from(artifacts, ["Chiller 4"]) == ["RUL0022", "RUL0018"]
    assert event_time_from(artifacts) == at(2021, 6, 30, 14, 30)


def test_follow_up_analysis_fetches_only_what_the_artifacts_lack() -> None:
    focus = Focus(asset_ids=["Chiller 4"], equipment_ids=["CWC04704"], window=SPRING,
                  sensors=["Chiller 4 Power Input"], last_intent="investigate")
    decision = plan_turn("any anomalies in the power and tonnage?", focus, REFERENCE, [HISTORY], catalog=default_catalog())
    assert [(t.specialist, t.action) for t in decision.tasks] == [("data", "history"),
                                                                   ("timeseries", "anomaly_detection")]
    fetched = set(decision.tasks[0].sensors)
    assert not fetched & {"Chiller 4 Power Input", "Chiller 4 Tonnage"}
    assert {"Chiller 4 Power Input", "Chiller 4 Tonnage"} <= set(decision.tasks[1].sensors)


def test_analysis_on_held_sensors_needs_no_data_task() -> None:
    held = ArtifactSummary(id="h2", producer="data", kind="history", asset_ids=("Chiller 4",), window=SPRING)
    focus = Focus(asset_ids=["Chiller 4"], window=SPRING, last_intent="history")
    decision = plan_turn("any anomalies?", focus, REFERENCE, [held], catalog=default_catalog())
    assert [(t.specialist, t.action) for t in decision.tasks] == [("timeseries", "anomaly_detection")]
    assert decision.tasks[0].depends_on == []


def test_outstanding_tasks_shrink_as_artifacts_arrive() -> None:
    decision = plan_turn("Chiller 4 power this spring, anything odd?", Focus(), REFERENCE, catalog=default_catalog())
    assert outstanding_tasks(decision, []) == [0, 1]
    fetched = [ArtifactSummary(id="a", producer="data", kind="history", asset_ids=("Chiller 4",),
                               window=SPRING, sensors=tuple(decision.tasks[0].sensors))]
    assert outstanding_tasks(decision, fetched) == [1]


def test_a_rule_result_does_not_satisfy_another_rule() -> None:
    focus = Focus(asset_ids=["Chiller 9"], rule_ids=["RUL0018", "RUL0022"], last_intent="alerts")
    decision = plan_turn("do they lead to maintenance?", focus, REFERENCE, catalog=default_catalog())
    done = [ArtifactSummary(id="x", producer="maintenance", kind="alert_to_failure", asset_ids=("Chiller 9",),
                            key_results={"rule_id": "RUL0018"})]
    assert [decision.tasks[i].params["rule_id"] for i in outstanding_tasks(decision, done)] == ["RUL0022"]
