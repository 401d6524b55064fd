"""Dialog kinds the seventh fresh set showed the planner missing, tested on new sentences of each kind: a period
named only as the other side of a comparison, a gerund sentence that sets the scene, "which of the two",
"how many of those", indirect questions, change in progress, a yes/no about data a chiller lacks, and a request
about something else entirely."""

from __future__ import annotations

from datetime import date

import pytest

from graph.understanding.off_topic import topic_words
from graph.understanding.request import read_request, request_sentences
from graph.understanding.text import Text
from tests.unit.planning.dialog import Dialog, at, steps, window_of


def test_a_period_after_than_is_the_other_side_and_the_dialog_keeps_its_own() -> None:
    dialog = Dialog(reference_date=date(2020, 11, 20))
    dialog.say("how many breakdown jobs did CWC04006 have this year?")
    compared = dialog.say("was it worse than the year before?")
    assert window_of(compared, "wo_summary") == (at(2020, 1, 1), at(2020, 11, 21))
    assert [t.window.start.year for t in compared.tasks if t.window] == [2020, 2019]
    assert compared.focus.window is not None and compared.focus.window.start == at(2020, 1, 1)
    after = dialog.say("any of those worth bundling into one visit?")
    assert steps(after) == [("maintenance", "bundle")]
    assert window_of(after, "bundle") == (at(2020, 1, 1), at(2020, 11, 21))


def test_alerts_compared_with_the_same_month_a_year_earlier_fetch_both_months() -> None:
    dialog = Dialog(reference_date=date(2021, 2, 10))
    dialog.say("how was chiller 4 running in november? power and load")
    compared = dialog.say("did it throw fewer alarms this time than the year before?")
    assert [(t.action, t.window.start, t.window.end) for t in compared.tasks if t.window] == [
        ("alert_rules", at(2020, 11, 1), at(2020, 12, 1)), ("alert_rules", at(2019, 11, 1), at(2019, 12, 1))]


def test_a_gerund_sentence_sets_the_scene_and_does_not_ask() -> None:
    message = "Prepping the monthly energy report. What was Chiller 9's load in March?"
    assert request_sentences(message) == "What was Chiller 9's load in March?"
    decision = Dialog(reference_date=date(2021, 5, 4)).say(message)
    assert {s for s, _ in steps(decision)} == {"data"}
    assert decision.tasks[0].window is not None and decision.tasks[0].window.start == at(2021, 3, 1)
    # an imperative is no scene ("bring up ...") and neither is a question
    assert request_sentences("Bring up chiller 4. Is it running?") == "Bring up chiller 4. Is it running?"


def test_which_of_the_two_picks_among_the_chillers_discussed_one_after_the_other() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 10))
    dialog.say("what was chiller 4's efficiency in may?")
    dialog.say("and for chiller 6?")
    pick = dialog.say("which of the two did better?")
    assert set(pick.focus.asset_ids) == {"Chiller 4", "Chiller 6"}
    assert {s for s, _ in steps(pick)} == {"data"}


def test_how_many_of_those_counts_the_records_listed_last_over_its_own_period() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 20))
    dialog.say("which alarms has chiller 3 been raising over the last month?")
    counted = dialog.say("diagnose it")
    assert counted.focus.listed == "alerts"
    again = dialog.say("how many of those since the 10th?")
    assert steps(again) == [("maintenance", "alert_rules")]
    assert window_of(again, "alert_rules")[0] == at(2021, 6, 10)


@pytest.mark.parametrize(("message", "shape", "cause"), [
    ("do you know why chiller 6 tripped?", "open", True),
    ("any idea which unit burns the most power?", "which", False),
    ("does anyone know if chiller 4 is back on?", "yes_no", False),
    ("the approach on 9 keeps widening, any idea why?", "open", True),
])
def test_an_indirect_question_is_read_from_its_embedded_question(message: str, shape: str, cause: bool) -> None:
    reading = read_request(message)
    assert (reading.shape, reading.asks_cause) == (shape, cause)


@pytest.mark.parametrize("message", [
    "has the condenser flow on chiller 3 been falling since march?",
    "is chiller 9's approach widening?",
    "have chiller 4's kW been climbing this month?",
])
def test_a_move_in_progress_asks_whether_it_keeps_changing(message: str) -> None:
    assert read_request(message).asks_change
    decision = Dialog().say(message)
    assert ("timeseries", "trend_stats") in steps(decision)


def test_a_yes_no_about_telemetry_a_chiller_lacks_is_answered_no() -> None:
    decision = Dialog().say("is there any sensor data for chiller 13?")
    assert decision.kind == "answer" and decision.message.startswith("No, Chiller 13")
    shown = Dialog().say("show chiller 13's power last week")
    assert shown.kind == "answer" and "no telemetry" in shown.message and not shown.tasks


@pytest.mark.parametrize("message", ["could you help me plan a birthday party for my team?", "tell me a joke",
                                     "can you translate this into spanish?"])
def test_a_request_about_something_else_is_declined_and_the_dialog_keeps_its_subject(message: str) -> None:
    dialog = Dialog()
    dialog.say("how did chiller 9 run last week?")
    decision = dialog.say(message)
    assert decision.kind == "reject" and decision.intent == "off_topic"
    assert "Chiller 9" in decision.message and decision.focus.asset_ids == ["Chiller 9"]
    assert steps(dialog.say("and its flow?")) == [("data", "history")]


@pytest.mark.parametrize("message", ["help", "blah blah", "hmm interesting", "give me the rundown", "why?",
                                     "and the other one?", "what's the weather doing to the plant?"])
def test_short_follow_ups_noise_and_domain_words_are_not_off_topic(message: str) -> None:
    dialog = Dialog()
    dialog.say("how did chiller 9 run last week?")
    assert dialog.say(message).intent != "off_topic"


def test_topic_words_split_the_domain_from_the_rest() -> None:
    known, unknown = topic_words(Text.of("write a haiku about the condenser"))
    assert "condenser" in known and "haiku" in unknown


@pytest.mark.parametrize("message", [
    "#4 has been drawing more amps at the same load since monday. is something wrong with it?",
    "chiller 6's condenser approach crept up all week. should I be worried?",
])
def test_asking_whether_what_was_just_described_is_a_fault_gets_a_diagnosis(message: str) -> None:
    assert ("failure", "diagnose") in steps(Dialog().say(message))


@pytest.mark.parametrize("message", ["is something wrong with chiller 6?", "ok. anything off on chiller 3?"])
def test_asking_whether_something_is_wrong_without_describing_it_is_a_look(message: str) -> None:
    assert ("failure", "diagnose") not in steps(Dialog().say(message))


def test_alarms_since_it_came_back_are_counted_from_the_repair_not_a_running_check() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 28))
    dialog.say("ch9 had its condenser tubes cleaned on the 14th. did that fix it?")
    since = dialog.say("any approach alarms since it came back on?")
    assert steps(since) == [("maintenance", "alert_rules")]
    assert window_of(since, "alert_rules") == (at(2021, 7, 14), at(2021, 7, 29))
    assert steps(dialog.say("is it back up?")) == [("data", "history")]


def test_a_change_between_two_months_compares_them_and_the_doubt_is_about_that_reading() -> None:
    dialog = Dialog(reference_date=date(2019, 6, 30))
    dialog.say("is one of chiller 4's sensors drifting since spring?")
    moved = dialog.say("how far has its condenser water flow shifted between march and june?")
    assert moved.intent is not None and moved.intent.startswith("compare")
    assert moved.focus.window is not None and (moved.focus.window.start, moved.focus.window.end) == (
        at(2019, 3, 1), at(2019, 7, 1))
    doubt = dialog.say("is that the sensor, or is the building load really different?")
    assert steps(doubt)[-1] == ("failure", "sensor_validity") and doubt.focus.asset_ids == ["Chiller 4"]
    assert next(t for t in doubt.tasks if t.action == "sensor_validity").sensors == ["Chiller 4 Condenser Water Flow"]


def test_a_commanded_draft_is_drafted_even_when_its_words_also_ask_whether_one_exists() -> None:
    dialog = Dialog()
    dialog.say("is chiller 9's return temperature sensor drifting?")
    assert steps(dialog.say("ok, raise a recalibration work order for that sensor")) == [("maintenance", "draft_wo")]
    assert steps(Dialog().say("was a work order for that ever raised on chiller 9?"))[0] == ("maintenance", "wo_summary")


def test_picks_among_periods_and_on_running_time_are_not_fault_rankings() -> None:
    month = Dialog(reference_date=date(2021, 4, 2)).say("which month had the most alarms on chiller 9 this year?")
    assert steps(month) == [("maintenance", "alert_rules")]
    longest = Dialog().say("which unit ran the longest last month?")
    assert {s for s, _ in steps(longest)} == {"data"} and len(longest.tasks) == 4


def test_when_it_was_last_repaired_reads_the_whole_work_order_history() -> None:
    dialog = Dialog(reference_date=date(2021, 4, 2))
    dialog.say("how did chiller 9 run in Q1?")
    last = dialog.say("when did it last have a breakdown job?")
    assert steps(last) == [("maintenance", "wo_summary")] and last.tasks[0].window is None


def test_a_reading_at_a_time_of_day_asks_for_that_moment() -> None:
    decision = Dialog(reference_date=date(2021, 6, 15)).say("what was ch4's kw/ton at 2pm yesterday?")
    assert steps(decision) == [("data", "point_value")]
    assert decision.tasks[0].params["at"] == at(2021, 6, 14, 14, 0).isoformat()


def test_will_it_tomorrow_is_a_forecast() -> None:
    decision = Dialog(reference_date=date(2021, 6, 15)).say("will ch9 need more than 300 kW tomorrow?")
    assert ("timeseries", "forecast") in steps(decision)


@pytest.mark.parametrize("message", ["write it up in a few lines for my boss", "write me a summary of this"])
def test_writing_text_up_is_no_work_order(message: str) -> None:
    dialog = Dialog()
    dialog.say("is chiller 9 ok?")
    assert ("maintenance", "draft_wo") not in steps(dialog.say(message))


@pytest.mark.parametrize(("message", "opening"), [
    ("which chillers don't have sensors?", "7 chillers at site MAIN have no sensor data"),
    ("which units have telemetry?", "4 chillers at site MAIN report telemetry")])
def test_which_chillers_are_monitored_is_answered_from_the_catalog(message: str, opening: str) -> None:
    decision = Dialog().say(message)
    assert decision.kind == "answer" and decision.message.startswith(opening)
    assert Dialog().say("which of the monitored chillers had the most alarms last month?").kind == "run"


def test_it_after_comparing_with_another_chiller_is_the_chiller_compared() -> None:
    dialog = Dialog(reference_date=date(2018, 8, 20))
    dialog.say("ch4 evap temps look low to me")
    dialog.say("and how does that compare with ch3 over the same days?")
    assert {a for t in dialog.say("so is it a refrigerant leak?").tasks for a in t.asset_ids} == {"Chiller 4"}


def test_comparing_periods_for_the_worst_one_is_no_new_ranking() -> None:
    from dataclasses import replace

    dialog = Dialog(reference_date=date(2021, 6, 20))
    dialog.say("give me a one-line status for each chiller")
    dialog.focus = replace(dialog.focus, picked="Chiller 4")  # the answer's pick, as the service records it
    decision = dialog.say("compare this week to last week for the worst one")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4"}
    assert ("maintenance", "prioritize") not in steps(decision)


def test_the_worse_one_of_two_is_the_one_picked() -> None:
    from dataclasses import replace

    dialog = Dialog(reference_date=date(2021, 1, 15))
    dialog.say("top 2 chillers by kW/ton in december?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6")
    decision = dialog.say("why is the worse one worse?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_the_two_periods_a_reading_was_compared_over_carry_to_records_and_to_another_chiller() -> None:
    dialog = Dialog(reference_date=date(2021, 8, 3))
    dialog.say("chiller 6 power in july, and how does that compare with july last year")
    alarms = dialog.say("was there a change in alarms between those two julys?")
    assert [t.window and (t.window.start, t.window.end) for t in alarms.tasks] == [
        (at(2020, 7, 1), at(2020, 8, 1)), (at(2021, 7, 1), at(2021, 8, 1))]
    again = dialog.say("same comparison for chiller 4")
    assert ("data", "compare") in steps(again)
    fetched = {(t.asset_ids[0], t.window.start) for t in again.tasks if t.action == "history" and t.window}
    assert fetched == {("Chiller 4", at(2020, 7, 1)), ("Chiller 4", at(2021, 7, 1))}


def test_the_week_leading_up_to_a_trip_of_unknown_time_ends_with_the_trip_window() -> None:
    dialog = Dialog(reference_date=date(2019, 7, 24))
    dialog.say("chiller 9 tripped yesterday afternoon. look into it")
    lead_up = dialog.say("what was the kw doing in the week leading up to it?")
    assert {(t.window.start, t.window.end) for t in lead_up.tasks if t.window} == {(at(2019, 7, 17), at(2019, 7, 24))}


def test_a_likeness_to_another_chiller_is_no_repeat_of_the_period_comparison() -> None:
    dialog = Dialog(reference_date=date(2021, 8, 3))
    dialog.say("chiller 6 power in july, and how does that compare with july last year")
    likeness = dialog.say("is that the same thing chiller 9 had?")
    assert {a for t in likeness.tasks for a in t.asset_ids} == {"Chiller 6", "Chiller 9"}  # not chiller 9 alone
