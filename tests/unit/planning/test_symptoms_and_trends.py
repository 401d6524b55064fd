"""A symptom stated on one chiller asks for its cause; "is it getting worse?" asks how the readings moved;
a deadline in advice ("can it wait till the fall?") is not the period to analyse."""

from __future__ import annotations

import pytest

from tests.unit.planning.dialog import Dialog, steps


@pytest.mark.parametrize("message", [
    "The evaporator refrigerant temp on 4 has been sliding for weeks while the supply holds at setpoint. "
    "What do you make of that?",
    "evaporator approach on ch3 keeps widening since June, the other units look normal. what's going on?",
    "what's wrong with chiller 6 exactly?",
])
def test_a_symptom_on_one_chiller_is_diagnosed(message: str) -> None:
    decision = Dialog().say(message)
    assert ("failure", "diagnose") in steps(decision)
    assert len({a for t in decision.tasks for a in t.asset_ids}) == 1


@pytest.mark.parametrize("message", ["Chiller 4 power this spring, anything odd?", "is chiller 3 ok?"])
def test_asking_whether_something_is_off_is_a_look_not_a_diagnosis(message: str) -> None:
    assert ("failure", "diagnose") not in steps(Dialog().say(message))


def test_is_it_getting_worse_after_a_look_measures_the_trend_of_the_readings_discussed() -> None:
    dialog = Dialog()
    dialog.say("How did Chiller 9 do in June?")
    decision = dialog.say("is it getting worse?")
    assert steps(decision)[-1] == ("timeseries", "trend_stats")
    assert decision.tasks[-1].asset_ids == ["Chiller 9"]
    window = decision.tasks[-1].window
    assert window is not None and (window.end - window.start).days >= 28


def test_is_it_getting_worse_after_a_work_order_listing_is_about_breakdowns() -> None:
    dialog = Dialog()
    dialog.say("pull ch9's corrective work orders for 2018 thru 2020")
    assert ("timeseries", "trend_stats") not in steps(dialog.say("is it getting worse?"))


def test_a_deadline_in_advice_keeps_the_period_discussed() -> None:
    dialog = Dialog()
    first = dialog.say("How did Chiller 4 run this spring?")
    advice = dialog.say("Is it worth a condenser tube cleaning before July, or can that wait till the fall?")
    assert advice.focus.window == first.focus.window


def test_each_question_of_a_compound_message_gets_its_work_and_the_first_sets_the_shape() -> None:
    dialog = Dialog()
    dialog.say("How did Chiller 9 do in June?")
    decision = dialog.say("so what caused it, and how do we know it's properly fixed before we trust it again?")
    assert {("failure", "diagnose"), ("maintenance", "validation_protocol")} <= set(steps(decision))
    advice = Dialog()
    advice.say("any alarms on chiller 9 in the past two weeks?")
    cause = advice.say("what failure mode is behind those, and which sensors should I be watching?")
    assert ("failure", "diagnose") in steps(cause) and cause.shape == "open"


def test_a_command_after_a_question_details_it_rather_than_asking_another_thing() -> None:
    decision = Dialog().say("is CWC04006 breaking down more often than it used to? look at 2017-2020")
    assert steps(decision) == [("maintenance", "wo_summary")]


def test_rule_out_is_not_a_request_for_alert_rules() -> None:
    dialog = Dialog()
    dialog.say("How did Chiller 9 do in June?")
    decision = dialog.say("What's behind it, and is there anything we should rule out?")
    assert ("maintenance", "alert_rules") not in steps(decision)
    assert ("failure", "diagnose") in steps(decision)


def test_two_periods_asked_for_one_chiller_are_compared_side_by_side() -> None:
    dialog = Dialog()
    dialog.say("How did chiller 4 do this spring?")
    decision = dialog.say("what was its kW/ton in May, and in May last year?")
    compare = next(t for t in decision.tasks if t.action == "compare")
    assert [w["label"] for w in compare.params["windows"]] == ["May 2021", "May 2020"]


def test_a_weekday_is_the_latest_such_day_before_the_reference_date_and_back_up_looks_since_then() -> None:
    from datetime import date

    dialog = Dialog(reference_date=date(2018, 8, 16))  # a Thursday
    trip = dialog.say("ch3 tripped tuesday afternoon around 1:40. what do the data show?")
    assert trip.focus.window is not None and trip.focus.window.start.date() == date(2018, 8, 14)
    back = dialog.say("is it back up now?")
    assert steps(back) == [("data", "history")]
    window = back.tasks[0].window
    assert window is not None and window.start.date() == date(2018, 8, 15) and window.end.date() == date(2018, 8, 17)
    assert back.focus.window == trip.focus.window  # the trip stays what is discussed


def test_building_up_is_a_verb_not_the_building() -> None:
    dialog = Dialog()
    dialog.say("ch3 tripped yesterday, what do the data show?")
    decision = dialog.say("anything building up in the hours before it went down?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3"}


def test_the_runner_up_and_the_other_one_follow_the_last_ranking() -> None:
    from dataclasses import replace

    dialog = Dialog()
    dialog.say("which chiller racked up the most corrective work orders last year?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6", ranked=["Chiller 6", "Chiller 13", "Chiller 1"])
    runner_up = dialog.say("and the runner-up?")
    assert {a for t in runner_up.tasks for a in t.asset_ids} == {"Chiller 13"}
    dialog.say("for 6, what were they mostly?")
    other = dialog.say("and the other one?")
    assert {a for t in other.tasks for a in t.asset_ids} == {"Chiller 13"}


def test_a_follow_up_on_a_work_order_listing_keeps_listing_work_orders() -> None:
    dialog = Dialog()
    dialog.say("which chiller racked up the most corrective work orders last year?")
    decision = dialog.say("for 6, what were they mostly?")
    assert steps(decision) == [("maintenance", "wo_summary")]
    assert decision.tasks[0].asset_ids == ["Chiller 6"]


def test_did_the_repair_work_looks_before_and_after_the_period_named_and_finds_the_order() -> None:
    from datetime import date

    dialog = Dialog(reference_date=date(2021, 8, 10))
    dialog.say("I need ch4's story for Q2, April to June. How did it run?")
    decision = dialog.say("They cleaned its condenser tubes in July. Did that actually fix it?")
    histories = [t.window for t in decision.tasks if t.action == "history"]
    assert [(w.start.date(), w.end.date()) for w in histories if w is not None] == [
        (date(2021, 6, 1), date(2021, 7, 1)), (date(2021, 8, 1), date(2021, 8, 11))]
    assert ("maintenance", "wo_summary") in steps(decision)
    assert decision.focus.window is not None and decision.focus.window.label == "Q2 2021"  # Q2 stays discussed


@pytest.mark.parametrize("message", [
    "Forecast says a heat wave from Thursday. Which machine worries you most going into it?",
    "before next week's heat wave, which units worry you?",
])
def test_a_pick_by_concern_across_the_site_ranks_on_fault_evidence(message: str) -> None:
    decision = Dialog().say(message)
    assert ("maintenance", "prioritize") in steps(decision) and decision.scope == "fleet"
    assert sum(1 for t in decision.tasks if t.action == "diagnose") == 4


def test_fine_tuning_saves_a_model_so_a_question_about_it_gets_advice_and_an_offer() -> None:
    dialog = Dialog()
    dialog.say("Forecast chiller 3's tonnage for the coming week.")
    asked = dialog.say("Would fine-tuning the model on our own data make that forecast better? Is it worth it?")
    assert ("timeseries", "finetune") not in steps(asked)
    assert ("timeseries", "evaluate_forecast") in steps(asked) and asked.focus.pending_offer == "finetune"
    commanded = dialog.say("OK, go ahead: fine-tune it on May and June 2021 and rerun the forecast.")
    assert ("timeseries", "finetune") in steps(commanded)


@pytest.mark.parametrize("message", ["train a tonnage forecaster for chiller 9 on the 2020 data",
                                     "Fine-tune a forecaster for Chiller 3 tonnage on 2019 data."])
def test_a_command_to_train_a_model_is_a_write_that_runs(message: str) -> None:
    assert ("timeseries", "finetune") in steps(Dialog().say(message))


def test_asking_whether_one_of_the_chillers_is_to_blame_ranks_them() -> None:
    decision = Dialog().say("Our plant used more electricity this spring. Is one of the chillers to blame?")
    assert ("maintenance", "prioritize") in steps(decision) and decision.scope == "fleet"


def test_a_look_at_one_chiller_with_no_reading_named_covers_all_its_readings() -> None:
    decision = Dialog().say("anything weird on ch6 last week?")
    analysed = next(t for t in decision.tasks if t.action == "anomaly_detection").sensors
    assert "Chiller 6 Condenser Water Flow" in analysed
    named = Dialog().say("anything weird on ch6 power last week?")
    assert "Chiller 6 Condenser Water Flow" not in next(t for t in named.tasks if t.action == "anomaly_detection").sensors
