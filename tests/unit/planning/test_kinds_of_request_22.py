"""Kinds of request met in a development set: the cause asked by its noun or by what a symptom points to, a
present-tense state question after a period long past, whether a chiller has readings at all, and a total asked
together with the part that was corrective."""

from __future__ import annotations

from datetime import date

import pytest

from graph.answering.verdicts import yes_no_verdict
from graph.understanding.request import asks_about_now, asks_data_available, read_request
from tests.unit.answering.builders import art
from tests.unit.planning.dialog import Dialog, at, steps


@pytest.mark.parametrize("question", [
    "What's the likely mechanical reason it's slipping?",
    "what would knock the condenser flow down like that?",
    "What does frequent cycling usually point to on a chiller like that?",
    "Is that just the warmer weather, or is something actually off with it?",
])
def test_cause_questions_in_other_words_ask_the_cause(question: str) -> None:
    assert read_request(question).asks_cause


@pytest.mark.parametrize("question", ["what is the cause code on that work order?", "what does the forecast say?",
                                      "what was the reason code"])
def test_a_code_or_a_forecast_is_not_a_cause_question(question: str) -> None:
    assert not read_request(question).asks_cause


def test_a_present_tense_state_question_after_a_period_long_past_looks_at_the_recent_days() -> None:
    assert asks_about_now("is its evaporator fouling up ?") and not asks_about_now("was it fouling in may?")
    assert not asks_about_now("is it still down?") and not asks_about_now("is that something worth looking at?")
    dialog = Dialog(reference_date=date(2021, 6, 1))
    dialog.say("ch9 alerts since jan 1 - what rules r tripping and how many of each")
    dialog.say("how many did it throw over the same stretch last yr, all rules together?")
    decision = dialog.say("straight answer: is its evaporator fouling up? y/n")
    diagnosis = next(t for t in decision.tasks if t.action == "diagnose")
    assert diagnosis.window is not None and diagnosis.window.end == at(2021, 6, 1)


def test_whether_a_chiller_has_readings_is_its_data_coverage() -> None:
    assert asks_data_available("do we have any sensor data on that one ?")
    assert asks_data_available("is there telemetry for 12?") and asks_data_available("does 13 log any readings")
    assert not asks_data_available("do we have work orders for it") and not asks_data_available(
        "do they have a history of failures")
    dialog = Dialog(reference_date=date(2021, 6, 1))
    dialog.say("what does the maintenance record on chiller 13 look like from 2019 up to now?")
    decision = dialog.say("do we have any sensor data on that one?")
    assert decision.kind == "answer" and decision.message.startswith("No, Chiller 13 has work orders")
    decision = dialog.say("what sensor data does chiller 13 have?")  # not asked yes or no: what exists, shown
    assert ("maintenance", "wo_summary") in steps(decision)


def test_readings_there_are_is_a_yes_that_lists_them() -> None:
    inventory = art("sensor_inventory", {"sensors": ["Chiller 9 Tonnage"]}, asset="Chiller 9", producer="data",
                    summary="Chiller 9 has 1 sensors (Tonnage); telemetry from 2016-01-01.")
    assert yes_no_verdict("is there any data on chiller 9?", [inventory]).answer == "Yes"


def test_totals_and_how_many_were_corrective_lists_every_order() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 1))
    decision = dialog.say("What does the maintenance record on Chiller 13 look like from 2019 up to now? "
                          "Totals and how many were corrective.")
    summary = next(t for t in decision.tasks if t.action == "wo_summary")
    assert summary.params.get("kind") == "all"
    only = Dialog(reference_date=date(2021, 6, 1)).say("how many corrective work orders on chiller 13 in total?")
    assert next(t for t in only.tasks if t.action == "wo_summary").params.get("kind") == "corrective"


def test_a_symptom_the_site_has_a_rule_for_is_answered_from_that_rule_s_alerts() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 1))
    asked = dialog.say("Did any of the MAIN units short-cycle in April?")
    assert asked.intent == "alerts" and dialog.focus.asked_rules == ["RUL0022"]
    worst = dialog.say("Which was the worst offender?")  # right after the counts: the one with the most
    assert worst.intent == "alerts"
    usual = dialog.say("What does frequent cycling usually point to on a chiller like that?")
    assert usual.intent == "failure_modes"  # what it points to in general, not how often the rule fired


def test_that_summer_is_the_summer_of_the_period_discussed() -> None:
    from assetops.domain.turn import TimeWindow
    from graph.understanding.model import understand
    from tests.support.catalog import default_catalog
    june = TimeWindow(at(2020, 6, 1), at(2020, 7, 1), "June 2020")
    found = understand("what maintenance got done on it that summer?", date(2021, 6, 1), june,
                       catalog=default_catalog()).window
    assert found is not None and (found.start, found.end) == (at(2020, 6, 1), at(2020, 9, 1))


def test_the_period_an_answer_picks_is_the_one_it_names_first() -> None:
    from assetops.domain.turn import TimeWindow
    from graph.nodes.respond import picked_period
    junes = [TimeWindow(at(y, 6, 1), at(y, 7, 1), f"June {y}") for y in (2018, 2019, 2020)]
    answer = "June 2020 looks worse on efficiency: 0.47 kW/ton against 0.45 kW/ton in June 2019."
    assert picked_period(answer, junes) == junes[2]
    assert picked_period("Chiller 6 has the highest load.", junes) is None


def test_a_pick_on_a_named_reading_between_two_chillers_compares_that_reading() -> None:
    from graph.answering.asked_figures import asked_sensors
    question = "Between Chiller 4 and Chiller 6, which one pushed more condenser water through in May?"
    decision = Dialog(reference_date=date(2021, 6, 1)).say(question)
    assert decision.intent == "compare"
    assert {s.split(" ", 2)[2] for t in decision.tasks for s in t.sensors} == {"Condenser Water Flow"}
    assert asked_sensors(question) == ["Condenser Water Flow"]


def test_which_one_ran_more_hours_picks_between_the_chillers_just_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 1))
    dialog.say("ch9 tonnage avg last wk?")
    dialog.say("same for ch6")
    decision = dialog.say("k which 1 actually ran more hrs")
    assert decision.intent == "history" and {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6", "Chiller 9"}
    assert read_request("which ran more efficiently?").comparative  # (a reading, no running time: not this pick)


def test_mostly_what_sort_after_a_count_is_that_count_and_same_question_repeats_the_count() -> None:
    from graph.answering.fleet_ranking import compare_assets
    from tests.unit.answering.builders import alerts
    dialog = Dialog(reference_date=date(2021, 6, 1))
    dialog.say("Which MAIN chiller threw the most alerts last month?")
    sort = dialog.say("mostly what sort?")
    assert sort.intent == "alerts"
    again = dialog.say("Same question for the month before.")
    assert again.intent == "alerts"
    six = alerts("Chiller 6", "CWC04006", {"RUL0012": 41}, start="2021-05-01", end="2021-06-01")
    nine = alerts("Chiller 9", "CWC04009", {"RUL0018": 9}, start="2021-05-01", end="2021-06-01")
    ranked = compare_assets([six, nine])
    assert ranked is not None and ranked.headline.startswith("Chiller 6 (CWC04006) has the most alerts")


def test_which_of_two_chillers_went_up_more_between_two_months_is_ranked_on_the_move() -> None:
    from graph.answering.period_verdict import change_ranking
    from tests.unit.answering.builders import window
    dialog = Dialog(reference_date=date(2021, 6, 1))
    dialog.say("Put Chiller 3 and Chiller 9 side by side on average power draw for April this year.")
    dialog.say("Now do May.")
    decision = dialog.say("So which of the two went up more between April and May?")
    assert decision.intent == "compare"
    kw = "Power Input"
    reads = [window("Chiller 3", "2021-04-01", "2021-05-01", {kw: (94.5, "kW")}, id="a3"),
             window("Chiller 3", "2021-05-01", "2021-06-01", {kw: (149.2, "kW")}, id="b3"),
             window("Chiller 9", "2021-04-01", "2021-05-01", {kw: (76.6, "kW")}, id="a9"),
             window("Chiller 9", "2021-05-01", "2021-06-01", {kw: (215.2, "kW")}, id="b9")]
    ranked = change_ranking("So which of the two went up more between April and May?", reads, reading=kw)
    assert ranked is not None and ranked.first == "Chiller 9"
