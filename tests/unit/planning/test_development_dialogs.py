"""Every turn of docs/DIALOGS.md D1..D10: specialists/actions, assets and windows (reference 2021-07-01)."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog, at, short_sensors, step_set, steps, window_of

HYPOTHESES = {"diagnose": {"hypotheses": ["Condenser Water side fouling", "Purge Unit Excessive purge"]}}


def test_d1_fault_diagnosis_chiller_4() -> None:
    dialog = Dialog(results=HYPOTHESES)
    first = dialog.say("Chiller 4 at MAIN has been drawing more power than usual this spring. What's going on?")
    assert first.kind == "run"
    assert steps(first) == [("data", "history"), ("timeseries", "anomaly_detection")]
    assert first.tasks[1].depends_on == [0]
    assert {t.asset_ids[0] for t in first.tasks} == {"Chiller 4"}
    assert window_of(first, "history") == (at(2021, 3, 1), at(2021, 6, 1))
    assert short_sensors(first, "anomaly_detection") == {"Power Input", "Chiller Efficiency"}
    assert {"Power Input", "Chiller Efficiency"} <= short_sensors(first, "history")

    second = dialog.say("Which failure modes could explain that?")
    assert steps(second) == [("failure", "failure_modes"), ("failure", "sensor_mapping")]
    assert second.tasks[1].depends_on == [0]
    assert window_of(second, "failure_modes") == (at(2021, 3, 1), at(2021, 6, 1))

    third = dialog.say("Rank them using the other sensors.")
    assert ("failure", "diagnose") in step_set(third)
    diagnosis = next(t for t in third.tasks if t.action == "diagnose")
    assert diagnosis.params["use_other_sensors"] is True
    analysis = next(t for t in third.tasks if t.action == "anomaly_detection")
    assert not {"Chiller 4 Power Input", "Chiller 4 Chiller Efficiency"} & set(analysis.sensors)
    fetch = next(t for t in third.tasks if t.action == "history")
    assert not {"Chiller 4 Power Input", "Chiller 4 Chiller Efficiency", "Chiller 4 Tonnage"} & set(fetch.sensors)

    fourth = dialog.say("Draft a work order for the most likely one.")
    assert steps(fourth) == [("maintenance", "draft_wo")]
    assert fourth.tasks[0].equipment_ids == ["CWC04704"]
    assert fourth.tasks[0].params["failure_mode"] == "Condenser Water side fouling"


def test_d2_comparison_chillers_3_and_4() -> None:
    dialog = Dialog()
    first = dialog.say("Compare how Chillers 3 and 4 performed in August 2020.")
    histories = [t for t in first.tasks if t.action == "history"]
    assert sorted(t.asset_ids[0] for t in histories) == ["Chiller 3", "Chiller 4"]
    assert all(not t.depends_on for t in histories)
    compare = next(t for t in first.tasks if t.action == "compare")
    assert sorted(compare.depends_on) == [first.tasks.index(t) for t in histories]
    assert window_of(first, "compare") == (at(2020, 8, 1), at(2020, 9, 1))
    assert {"Chiller Efficiency", "Tonnage", "Chiller % Loaded"} <= short_sensors(first, "compare")

    second = dialog.say("Forecast both for the next two weeks.")
    forecasts = [t for t in second.tasks if t.action == "forecast"]
    assert sorted(t.asset_ids[0] for t in forecasts) == ["Chiller 3", "Chiller 4"]
    assert all(t.params["horizon_start"] == at(2021, 7, 1).isoformat() for t in forecasts)
    assert all(t.params["horizon_end"] == at(2021, 7, 15).isoformat() for t in forecasts)
    for forecast in forecasts:  # each forecast waits only for its own chiller's data
        assert all(second.tasks[i].asset_ids == forecast.asset_ids for i in forecast.depends_on)

    third = dialog.say("Which one needs attention first and why?")
    assert step_set(third) == {("failure", "diagnose"), ("maintenance", "prioritize")}
    prioritize = next(t for t in third.tasks if t.action == "prioritize")
    assert prioritize.asset_ids == ["Chiller 3", "Chiller 4"]
    assert len(prioritize.depends_on) == 2


def test_d3_work_order_history_chiller_6() -> None:
    dialog = Dialog()
    first = dialog.say("Give me a summary of corrective maintenance on CWC04006 since 2018.")
    assert steps(first) == [("maintenance", "wo_summary")]
    assert first.tasks[0].equipment_ids == ["CWC04006"]
    assert first.tasks[0].params["kind"] == "corrective"
    assert window_of(first, "wo_summary") == (at(2018, 1, 1), at(2021, 7, 1))

    second = dialog.say("Any of those that should have been done in one visit?")
    assert steps(second) == [("maintenance", "bundle")]
    assert second.tasks[0].equipment_ids == ["CWC04006"]
    assert window_of(second, "bundle") == (at(2018, 1, 1), at(2021, 7, 1))

    third = dialog.say("What is likely to come next?")
    assert steps(third) == [("maintenance", "predict_next")]
    assert third.tasks[0].equipment_ids == ["CWC04006"]


def test_d4_alert_triage_chiller_3() -> None:
    dialog = Dialog(results={"alert_rules": {"rule_ids": ["RUL0012", "RUL0017", "RUL0021", "RUL0022"]}})
    first = dialog.say("We keep getting alerts on Chiller 3. Which rules fire and how often?")
    assert steps(first) == [("maintenance", "alert_rules")]
    assert first.tasks[0].equipment_ids == ["CWC04703"]

    second = dialog.say("Do any of them actually lead to maintenance?")
    assert {t.action for t in second.tasks} == {"alert_to_failure"}
    assert [t.params["rule_id"] for t in second.tasks] == ["RUL0012", "RUL0017", "RUL0021", "RUL0022"]
    assert all(not t.depends_on for t in second.tasks)

    third = dialog.say("Suggest better thresholds.")
    assert steps(third) == [("data", "history"), ("timeseries", "threshold_suggestion")]
    assert third.tasks[1].params["rule_ids"] == ["RUL0012", "RUL0017", "RUL0021", "RUL0022"]
    assert third.assumptions  # the baseline period is stated


def test_d5_trip_with_dead_sensor_chiller_9() -> None:
    trip_day = date(2020, 7, 15)
    dialog = Dialog(reference_date=trip_day)
    first = dialog.say("Chiller 9 just tripped. Investigate.")
    assert steps(first) == [("data", "history"), ("timeseries", "anomaly_detection")]
    start, end = window_of(first, "history")
    assert start <= at(2020, 7, 14) and end >= at(2020, 7, 16)  # the last 24 h of the trip day are inside
    assert len(first.tasks[0].sensors) == 10  # every sensor: one may have died

    second = dialog.say("What happened before the trip?")
    assert steps(second) == [("timeseries", "trend_stats")]
    assert second.tasks[0].params["segment"] == "before_event"

    third = dialog.say("Cause?")
    assert steps(third) == [("failure", "diagnose")]
    assert third.tasks[0].asset_ids == ["Chiller 9"]

    fourth = dialog.say("How do we restart safely, and how do we know it's fixed?")
    assert steps(fourth) == [("maintenance", "restart_checklist"), ("maintenance", "validation_protocol")]


def test_d6_onboarding() -> None:
    dialog = Dialog()
    first = dialog.say("What can you do?")
    assert first.kind == "answer" and not first.tasks
    for word in ("Data", "Time series", "Failure", "Maintenance", "MAIN", "Chiller 9", "CWC04006"):
        assert word in first.message

    second = dialog.say("What data do you have on Chiller 6?")
    assert steps(second) == [("data", "sensors")]
    assert second.tasks[0].asset_ids == ["Chiller 6"]

    third = dialog.say("And what models can I run on it?")
    assert steps(third) == [("timeseries", "capabilities")]
    assert third.tasks[0].asset_ids == ["Chiller 6"]


def test_d7_model_tuning_chiller_3() -> None:
    dialog = Dialog(results={"finetune": {"model_checkpoint": "tuned_models/chiller3_tonnage"}})
    first = dialog.say("Fine-tune a forecaster for Chiller 3 tonnage on 2019 data.")
    assert steps(first) == [("data", "history"), ("timeseries", "finetune")]
    assert window_of(first, "finetune") == (at(2019, 1, 1), at(2020, 1, 1))
    assert short_sensors(first, "finetune") == {"Tonnage"}

    second = dialog.say("Use it to forecast the first week of 2020 and tell me how far off it was.")
    evaluation = next(t for t in second.tasks if t.action == "evaluate_forecast")
    assert evaluation.asset_ids == ["Chiller 3"]
    assert (evaluation.window.start, evaluation.window.end) == (at(2020, 1, 1), at(2020, 1, 8))
    assert evaluation.params["checkpoint_artifact_id"] == "art1"
    assert evaluation.params["model_checkpoint"] == "tuned_models/chiller3_tonnage"
    assert short_sensors(second, "evaluate_forecast") == {"Tonnage"}


def test_d8_sensor_health_chiller_6() -> None:
    dialog = Dialog()
    first = dialog.say("Are any Chiller 6 sensors unreliable over the last quarter?")
    assert steps(first) == [("data", "history"), ("timeseries", "trend_stats")]
    assert window_of(first, "trend_stats") == (at(2021, 4, 1), at(2021, 7, 1))
    assert "Condenser Water Return To Tower Temperature" in short_sensors(first, "trend_stats")

    second = dialog.say("Is the supply temperature drift real?")
    assert steps(second) == [("failure", "sensor_validity")]  # the quarter's data is already held
    assert second.tasks[0].sensors == ["Chiller 6 Supply Temperature"]

    third = dialog.say("Plan the fix.")
    assert ("maintenance", "draft_wo") in step_set(third)
    draft = next(t for t in third.tasks if t.action == "draft_wo")
    assert draft.params["purpose"] == "calibration"
    assert draft.equipment_ids == ["CWC04006"]


def test_d9_ambiguity_and_bad_input() -> None:
    first = Dialog().say("Check the chiller.")  # four fit: a status of all four, ranked (DIALOGS.md D9.1)
    assert first.kind == "run" and first.scope == "fleet"
    assert {a for t in first.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}

    second = Dialog().say("The one we talked about.")
    assert second.kind == "clarify" and not second.tasks

    third = Dialog().say("Show Chiller 99 data for 2035.")
    assert third.kind == "reject"
    assert "Chiller 99" in third.message and "2016-01-01 to 2021-12-31" in third.message

    log = "2021-06-14T03:15:00-04:00 CH9 ALARM RUL0018 Evaporator Approach High value=7.9\n" * 700
    fourth = Dialog().say(log)
    assert len(log) > 50_000
    assert fourth.kind == "reject" and "Chiller 9" in fourth.message


def test_d10_management_report_chiller_9() -> None:
    dialog = Dialog()
    first = dialog.say("Review Chiller 9's last two months.")
    assert steps(first) == [("data", "history")]
    assert window_of(first, "history") == (at(2021, 5, 1), at(2021, 7, 1))

    second = dialog.say("Any anomalies or rule violations?")
    assert step_set(second) == {("timeseries", "anomaly_detection"), ("maintenance", "alert_rules")}
    assert all(not t.depends_on for t in second.tasks)  # parallel, the data is already held

    third = dialog.say("Root cause and severity?")
    assert steps(third) == [("failure", "diagnose")]
    assert third.tasks[0].params["severity"] is True

    fourth = dialog.say("Existing work orders for it?")
    assert steps(fourth) == [("maintenance", "wo_summary")]
    assert fourth.tasks[0].equipment_ids == ["CWC04009"]

    fifth = dialog.say("Summarise all of this for management.")
    assert steps(fifth) == [("maintenance", "report")]
    assert fifth.tasks[0].params["artifact_ids"] == [a.id for a in dialog.artifacts[:-1]]
