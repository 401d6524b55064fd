"""Conversations of the same kinds as DIALOGS.md in other words: typos, abbreviations, relative periods,
follow-ups resolved from the focus. None of these sentences is in DIALOGS.md."""

from __future__ import annotations

from datetime import date

import pytest

from tests.unit.planning.dialog import Dialog, at, short_sensors, step_set, steps, window_of

RESULTS = {"diagnose": {"hypotheses": ["Evaporator Water side fouling", "Purge Unit Excessive purge"]},
           "alert_rules": {"rules": [{"rule_id": "RUL0018"}, {"rule_id": "RUL0022"}]}}


def test_fault_diagnosis_in_other_words() -> None:
    dialog = Dialog(results=RESULTS)
    first = dialog.say("chiler 9 has been using way more kw than normal over the past month, whats up?")
    assert steps(first) == [("data", "history"), ("timeseries", "anomaly_detection")]
    assert first.tasks[0].asset_ids == ["Chiller 9"]
    assert window_of(first, "history") == (at(2021, 6, 1), at(2021, 7, 1))
    assert "Power Input" in short_sensors(first, "anomaly_detection")

    second = dialog.say("what could be behind it?")  # the causes of what was found, ranked on its evidence
    assert steps(second) == [("failure", "diagnose")]
    assert second.tasks[0].asset_ids == ["Chiller 9"]

    third = dialog.say("rank those with the remaining sensors")
    diagnosis = next(t for t in third.tasks if t.action == "diagnose")
    assert diagnosis.params["use_other_sensors"] is True
    analysis = next(t for t in third.tasks if t.action == "anomaly_detection")
    assert "Chiller 9 Power Input" not in analysis.sensors

    fourth = dialog.say("raise a WO for the top one")
    assert steps(fourth) == [("maintenance", "draft_wo")]
    assert fourth.tasks[0].params["failure_mode"] == "Evaporator Water side fouling"
    assert fourth.tasks[0].equipment_ids == ["CWC04009"]


def test_worse_efficiency_question_asks_for_the_cause_over_the_named_months() -> None:
    decision = Dialog().say("Chiller #6 efficiency has gotten worse over the last 3 months - why?")
    assert steps(decision) == [("data", "history"), ("timeseries", "anomaly_detection"), ("failure", "diagnose")]
    assert window_of(decision, "history") == (at(2021, 4, 1), at(2021, 7, 1))
    assert "Chiller Efficiency" in short_sensors(decision, "anomaly_detection")


def test_comparison_forecast_and_priority_in_other_words() -> None:
    dialog = Dialog()
    first = dialog.say("how do chiller 9 and chiller 4 stack up on kw/ton for june 2021?")
    assert ("data", "compare") in step_set(first)
    assert window_of(first, "compare") == (at(2021, 6, 1), at(2021, 7, 1))
    assert "Chiller Efficiency" in short_sensors(first, "compare")

    second = dialog.say("give me a 7 day forecast for both")
    forecasts = [t for t in second.tasks if t.action == "forecast"]
    assert sorted(t.asset_ids[0] for t in forecasts) == ["Chiller 4", "Chiller 9"]
    assert {t.params["horizon_end"] for t in forecasts} == {at(2021, 7, 8).isoformat()}

    third = dialog.say("which should we service first?")
    assert ("maintenance", "prioritize") in step_set(third)
    assert third.tasks[-1].asset_ids == ["Chiller 9", "Chiller 4"]


def test_plain_request_naming_two_chillers_becomes_a_comparison() -> None:
    decision = Dialog().say("show chillers 3 & 6 tonnage for last summer")
    assert ("data", "compare") in step_set(decision)
    assert window_of(decision, "compare") == (at(2020, 6, 1), at(2020, 9, 1))
    assert short_sensors(decision, "compare") == {"Tonnage"}


def test_all_chillers_expand_to_the_four_with_telemetry() -> None:
    decision = Dialog().say("compare all chillers kw/ton for Q2 2021")
    compare = next(t for t in decision.tasks if t.action == "compare")
    assert compare.asset_ids == ["Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"]
    assert window_of(decision, "compare") == (at(2021, 4, 1), at(2021, 7, 1))


def test_work_order_history_in_other_words() -> None:
    dialog = Dialog()
    first = dialog.say("list preventive W/Os on chiller 3 between 2019-01-01 and 2019-12-31")
    assert steps(first) == [("maintenance", "wo_summary")]
    assert first.tasks[0].params["kind"] == "preventive"
    assert first.tasks[0].equipment_ids == ["CWC04703"]
    assert window_of(first, "wo_summary") == (at(2019, 1, 1), at(2020, 1, 1))

    second = dialog.say("any visits we could have combined?")
    assert steps(second) == [("maintenance", "bundle")]
    assert window_of(second, "bundle") == (at(2019, 1, 1), at(2020, 1, 1))

    third = dialog.say("predict the next work order")
    assert steps(third) == [("maintenance", "predict_next")]


def test_work_order_only_chillers_are_fine_for_work_orders_but_not_for_telemetry() -> None:
    dialog = Dialog()
    first = dialog.say("pls give me a quick summary of chiller 12 maintenance history")
    assert steps(first) == [("maintenance", "wo_summary")]
    assert first.tasks[0].equipment_ids == ["CWC04012"]
    second = dialog.say("show me its telemetry for last month")
    assert second.kind == "answer" and not second.tasks
    assert "Chiller 12" in second.message and "Chiller 9" in second.message


def test_alert_triage_in_other_words() -> None:
    dialog = Dialog(results=RESULTS)
    first = dialog.say("which alarms does CWC04009 raise most often?")
    assert steps(first) == [("maintenance", "alert_rules")]
    assert first.tasks[0].equipment_ids == ["CWC04009"]

    second = dialog.say("do those alerts result in work orders?")
    assert [t.params["rule_id"] for t in second.tasks] == ["RUL0018", "RUL0022"]
    assert {t.action for t in second.tasks} == {"alert_to_failure"}

    third = dialog.say("what thresholds would cut the nuisance alarms?")
    assert steps(third) == [("data", "history"), ("timeseries", "threshold_suggestion")]
    assert {"Supply Temperature", "Liquid Refrigerant Evaporator Temperature"} <= short_sensors(
        third, "threshold_suggestion")


def test_alert_to_failure_without_known_rules_covers_every_rule_of_the_chiller() -> None:
    decision = Dialog().say("do the alerts on chiller 4 actually lead to maintenance?")
    assert steps(decision) == [("maintenance", "alert_to_failure")]
    assert decision.tasks[0].params["rule_ids"] == []
    assert decision.assumptions


def test_named_rule_is_analysed_alone() -> None:
    decision = Dialog().say("does RUL0018 on chiller 9 lead to work orders?")
    assert [(t.action, t.params["rule_ids"]) for t in decision.tasks] == [("alert_to_failure", ["RUL0018"])]


def test_trip_investigation_in_other_words() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 20))
    first = dialog.say("Chillr 6 shut down this morning, what happened?")
    assert steps(first) == [("data", "history"), ("timeseries", "anomaly_detection")]
    assert first.tasks[0].asset_ids == ["Chiller 6"]
    start, end = window_of(first, "history")  # "this morning": the trip day, as a named day is
    assert start == at(2021, 6, 20) and end == at(2021, 6, 21)

    second = dialog.say("why did it trip?")
    assert steps(second) == [("failure", "diagnose")]
    assert second.tasks[0].params.get("event") == "trip"

    third = dialog.say("give me a restart checklist and a post-repair validation plan")
    assert step_set(third) == {("maintenance", "restart_checklist"), ("maintenance", "validation_protocol")}


def test_trip_time_from_an_artifact_sets_the_pre_trip_window() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 15), results={"history": {"trip_time": "2020-07-15T14:30:00-04:00"}})
    dialog.say("ch9 tripped, investigate")
    decision = dialog.say("what did the day before the trip look like?")
    assert steps(decision) == [("timeseries", "trend_stats")]
    assert window_of(decision, "trend_stats") == (at(2020, 7, 14), at(2020, 7, 15))


def test_onboarding_in_other_words() -> None:
    dialog = Dialog()
    assert dialog.say("hi, what are you capable of?").kind == "answer"
    assert steps(dialog.say("list the chillers you know about")) == [("data", "inventory")]
    coverage = dialog.say("what sensors does chiller 9 have and how far back does the data go?")
    assert steps(coverage) == [("data", "sensors")]
    models = dialog.say("which forecasting models are available?")
    assert steps(models) == [("timeseries", "capabilities")]


def test_model_tuning_in_other_words() -> None:
    dialog = Dialog()
    first = dialog.say("tune TTM on ch4 tons using Jan-Jun 2020")
    assert steps(first) == [("data", "history"), ("timeseries", "finetune")]
    assert window_of(first, "finetune") == (at(2020, 1, 1), at(2020, 7, 1))
    assert short_sensors(first, "finetune") == {"Tonnage"}

    second = dialog.say("how good is it on the first week of July 2020?")
    evaluation = next(t for t in second.tasks if t.action == "evaluate_forecast")
    assert (evaluation.window.start, evaluation.window.end) == (at(2020, 7, 1), at(2020, 7, 8))
    assert evaluation.params["checkpoint_artifact_id"] is not None
    assert evaluation.asset_ids == ["Chiller 4"]


def test_sensor_health_in_other_words() -> None:
    dialog = Dialog()
    first = dialog.say("Can I trust the sensors on chiller 9 for the past 6 months?")
    assert steps(first) == [("data", "history"), ("timeseries", "trend_stats")]
    assert window_of(first, "trend_stats") == (at(2021, 1, 1), at(2021, 7, 1))

    second = dialog.say("is the condenser temp offset genuine or a sensor fault?")
    # (the diagnosis beside the validity check says whether a sensor fault leads)
    assert ("failure", "sensor_validity") in steps(second) and ("failure", "diagnose") in steps(second)
    validity = next(t for t in second.tasks if t.action == "sensor_validity")
    assert validity.sensors == ["Chiller 9 Condenser Water Supply To Chiller Temperature"]

    third = dialog.say("what should we do about it?")
    assert "draft_wo" not in {t.action for t in third.tasks} and third.focus.pending_offer == "draft_wo"
    draft = next(t for t in dialog.say("yes, raise it").tasks if t.action == "draft_wo")
    assert draft.params["purpose"] == "calibration"


def test_chiller_6_condenser_question_uses_its_return_sensor() -> None:
    decision = Dialog().say("is the chiller 6 condenser temperature drift real over the last quarter?")
    validity = next(t for t in decision.tasks if t.action == "sensor_validity")
    assert validity.sensors == ["Chiller 6 Condenser Water Return To Tower Temperature"]
    assert any("Chiller 6" in note for note in decision.assumptions)


def test_management_report_in_other_words() -> None:
    dialog = Dialog()
    first = dialog.say("Chiller 9 over May-June 2021, please")
    assert window_of(first, "history") == (at(2021, 5, 1), at(2021, 7, 1))
    second = dialog.say("any alarms or unusual readings in that period?")
    assert step_set(second) == {("maintenance", "alert_rules"), ("timeseries", "anomaly_detection")}
    third = dialog.say("what is behind it, and how serious?")
    assert ("failure", "diagnose") in step_set(third)
    assert next(t for t in third.tasks if t.action == "diagnose").params["severity"] is True
    fourth = dialog.say("any open work orders on it?")
    assert steps(fourth) == [("maintenance", "wo_summary")]
    fifth = dialog.say("put together a summary for my manager")
    assert steps(fifth) == [("maintenance", "report")]


def test_report_without_any_findings_gathers_evidence_first() -> None:
    decision = Dialog().say("write a management report on chiller 4 for March 2021")
    report = decision.tasks[-1]
    assert report.action == "report" and report.depends_on
    assert ("maintenance", "wo_summary") in step_set(decision)


@pytest.mark.parametrize(("follow_up", "asset", "window"), [
    ("and for chiller 3?", "Chiller 3", (at(2021, 3, 1), at(2021, 7, 1))),
    ("same period last year?", "Chiller 4", (at(2020, 3, 1), at(2020, 7, 1))),
    ("what about that one in 2019?", "Chiller 4", (at(2019, 1, 1), at(2020, 1, 1))),
])
def test_follow_ups_keep_the_request_and_change_only_what_they_name(
        follow_up: str, asset: str, window: tuple[object, object]) -> None:
    dialog = Dialog()
    dialog.say("ch4 efficiency looks bad since march, investigate")
    decision = dialog.say(follow_up)
    assert ("timeseries", "anomaly_detection") in step_set(decision)
    analysis = next(t for t in decision.tasks if t.action == "anomaly_detection")
    assert analysis.asset_ids == [asset]
    assert (analysis.window.start, analysis.window.end) == window


def test_naming_a_chiller_after_a_whole_site_check_narrows_it() -> None:
    dialog = Dialog()
    assert dialog.say("Check the chiller.").scope == "fleet"
    decision = dialog.say("Chiller 9")
    assert ("timeseries", "anomaly_detection") in steps(decision)  # its telemetry window is reused
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 9"}


def test_the_chiller_with_one_in_focus_is_assumed_and_said() -> None:
    dialog = Dialog()
    dialog.say("Chiller 4 kW for the past week")
    decision = dialog.say("Check the chiller.")
    assert decision.kind == "run" and decision.tasks[0].asset_ids == ["Chiller 4"]
    assert any("Chiller 4" in note for note in decision.assumptions)


def test_the_chiller_with_two_in_focus_covers_both_and_says_so() -> None:
    """Issue 11: a clarifying question only when nothing can decide; with two discussed, both are
    checked (the answer ranks them) and the assumption is stated."""
    dialog = Dialog()
    dialog.say("compare chiller 3 and chiller 9 tonnage in july 2020")
    decision = dialog.say("check the chiller")
    assert decision.kind == "run" and {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 9"}
    assert any("Chiller 3" in note and "Chiller 9" in note for note in decision.assumptions)
    both = dialog.say("check both")
    assert {t.asset_ids[0] for t in both.tasks} == {"Chiller 3", "Chiller 9"}


def test_point_value_for_a_day() -> None:
    dialog = Dialog()
    first = dialog.say("what was chiller 3 supply temp on 2020-06-14?")
    assert steps(first) == [("data", "point_value")]
    assert window_of(first, "point_value") == (at(2020, 6, 14), at(2020, 6, 15))
    second = dialog.say("what about chiller 4 on that day?")
    assert second.tasks[0].asset_ids == ["Chiller 4"]
    assert window_of(second, "point_value") == (at(2020, 6, 14), at(2020, 6, 15))


def test_naming_a_failure_mode_asks_for_a_diagnosis_that_checks_it() -> None:
    decision = Dialog().say("Chiller 6 condenser approach has been climbing since May 2020. Is it fouling?")
    diagnosis = next(t for t in decision.tasks if t.action == "diagnose")
    assert diagnosis.params["failure_modes"] == ["Condenser Water side fouling"]
    assert window_of(decision, "diagnose") == (at(2020, 5, 1), at(2021, 7, 1))
    assert decision.tasks[-1].action == "diagnose" and decision.tasks[-1].depends_on


def test_a_failure_mode_follow_up_without_request_words_is_a_diagnosis() -> None:
    dialog = Dialog()
    dialog.say("Show me evaporator approach for chiller 9 during summer 2016")
    decision = dialog.say("was there refrigerant loss?")
    assert steps(decision)[-1] == ("failure", "diagnose")
    assert decision.tasks[-1].params["failure_modes"] == ["Purge Unit Excessive purge"]
    mapping = dialog.say("what sensors would show that?")
    assert steps(mapping) == [("failure", "failure_modes"), ("failure", "sensor_mapping")]


def test_compare_with_one_more_chiller_adds_it_to_the_one_discussed() -> None:
    dialog = Dialog()
    dialog.say("What is the kW/ton trend for CH-3 over the last 90 days?")
    decision = dialog.say("how does that compare with chiller 4?")
    compare = next(t for t in decision.tasks if t.action == "compare")
    assert compare.asset_ids == ["Chiller 3", "Chiller 4"]
    assert [t.asset_ids for t in decision.tasks if t.action == "history"] == [["Chiller 4"]]


def test_one_chiller_over_two_periods_is_compared_across_them() -> None:
    decision = Dialog().say("Compare chiller 9 this June against June 2020")
    histories = [t for t in decision.tasks if t.action == "history"]
    assert sorted((t.window.start, t.window.end) for t in histories) == [
        (at(2020, 6, 1), at(2020, 7, 1)), (at(2021, 6, 1), at(2021, 7, 1))]
    compare = next(t for t in decision.tasks if t.action == "compare")
    assert len(compare.params["windows"]) == 2


def test_scheduling_a_cleaning_drafts_a_work_order_for_the_chiller_in_focus() -> None:
    dialog = Dialog()
    dialog.say("chiller 6 condenser flow last month")
    decision = dialog.say("schedule a tube cleaning")
    assert steps(decision) == [("maintenance", "draft_wo")]
    assert decision.tasks[0].equipment_ids == ["CWC04006"]


def test_most_likely_failure_mode_is_a_ranking_not_a_catalogue() -> None:
    dialog = Dialog()
    dialog.say("investigate chiller 9 evaporator approach high alerts in june 2021")
    assert steps(dialog.say("which failure mode is most likely?")) == [("failure", "diagnose")]


def test_spelled_out_chiller_number_and_yesterday() -> None:
    decision = Dialog().say("hey, chiller nine is acting weird since yesterday")
    assert decision.tasks[0].asset_ids == ["Chiller 9"]
    assert ("timeseries", "anomaly_detection") in step_set(decision)


def test_which_chiller_is_a_question_over_the_focus_not_a_request_to_pick_one() -> None:
    dialog = Dialog()
    dialog.say("I need the maintenance backlog for the whole fleet")
    decision = dialog.say("which chiller has the most corrective work?")
    assert decision.kind == "run"
    assert len(decision.tasks) == 11 and {t.params["kind"] for t in decision.tasks} == {"corrective"}


def test_forecast_beyond_the_reference_date_uses_the_latest_recorded_month() -> None:
    decision = Dialog().say("forecast chiller 6 tonnage for the first week of august 2021")
    forecast = next(t for t in decision.tasks if t.action == "forecast")
    assert (forecast.window.start, forecast.window.end) == (at(2021, 6, 1), at(2021, 7, 1))
    assert forecast.params["horizon_start"] == at(2021, 8, 1).isoformat()
    assert forecast.params["horizon_hours"] == 38 * 24  # from July 1 (end of the data) to August 8


def test_high_versus_low_load_behaviour_uses_load_bins() -> None:
    decision = Dialog().say("how does chiller 9 efficiency behave at high vs low load in summer 2020?")
    assert ("timeseries", "load_bins") in step_set(decision)
    assert "Chiller % Loaded" in short_sensors(decision, "load_bins")
    assert window_of(decision, "load_bins") == (at(2020, 6, 1), at(2020, 9, 1))


def test_generic_failure_modes_need_no_chiller() -> None:
    decision = Dialog().say("what are the possible failure modes of a chiller?")
    assert steps(decision) == [("failure", "failure_modes")]
    assert decision.tasks[0].params == {"asset_name": "Chiller"}


def test_sensor_relevance_question_names_the_failure_mode() -> None:
    decision = Dialog().say("which sensors are related to condenser fouling on chiller 6?")
    mapping = next(t for t in decision.tasks if t.action == "sensor_mapping")
    assert mapping.params["failure_modes"] == ["Condenser Water side fouling"]
    assert "Chiller 6 Condenser Water Return To Tower Temperature" in mapping.sensors


def test_a_period_against_the_same_period_last_year_in_one_message() -> None:
    decision = Dialog().say("Chiller 4 kW/ton over the past 2 weeks vs the same period last year")
    compare = next(t for t in decision.tasks if t.action == "compare")
    assert [w["start"][:10] for w in compare.params["windows"]] == ["2021-06-17", "2020-06-17"]
