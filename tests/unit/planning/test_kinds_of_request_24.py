"""Kinds of request met in a development set (heldout24): periods up to or from a year's start, a site name between
"which" and "chiller", a chiller after a maintenance verb, a job the user says was done and "has it helped?", job
words spelled apart, texting shorthand, what fails next, the readings that would show a fault, a fault looked for
in the data and "more than it should"."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from graph.answering.compose import symptom_readings
from graph.state import decode_focus, encode_focus
from graph.understanding.last_done import last_done_job
from graph.understanding.model import understand
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import Dialog, at, steps

REFERENCE = date(2020, 7, 15)


def _window(message: str) -> tuple[object, object]:
    periods = understand(message, REFERENCE, catalog=default_catalog()).periods
    assert periods.first is not None and periods.first.window is not None, message
    return periods.first.window.start, periods.first.window.end


def test_since_the_new_year_is_this_year_so_far() -> None:
    assert _window("which chiller set off the most alarms since new year?") == (at(2020, 1, 1), at(2020, 7, 16))
    assert _window("any trips on 9 since the start of the month?") == (at(2020, 7, 1), at(2020, 7, 16))


def test_before_a_period_is_everything_up_to_its_start() -> None:
    start, end = _window("Before this year, when did 6 last need corrective work on the condenser side?")
    assert end == at(2020, 1, 1) and start < at(2015, 1, 1)
    assert _window("any corrective work on 6 prior to june?")[1] == at(2020, 6, 1)
    # "the week before" a day is no open span back to the first record
    assert _window("what did 9 do the week before June 14 2020?")[0] >= at(2020, 6, 1)


def test_which_main_chiller_asks_across_the_site_after_a_pick() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("Quick one for the monthly: which MAIN chiller had the worst kW/ton in June?")
    ranked = ["Chiller 3", "Chiller 6", "Chiller 4", "Chiller 9"]
    dialog.focus = replace(dialog.focus, picked="Chiller 3", ranked=ranked, picked_for="bad")
    best = dialog.say("and the best one?")
    assert any(set(t.asset_ids) == set(ranked) for t in best.tasks)


def test_a_chiller_number_after_a_maintenance_verb() -> None:
    decision = Dialog(reference_date=REFERENCE).say("should I fix 6 before next summer?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}
    listed = Dialog(reference_date=REFERENCE).say("any corrective work on 6 prior to june?")
    assert {a for t in listed.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_a_job_said_done_on_a_day_sets_before_and_after_for_has_it_helped() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("The condenser water going back to the tower off chiller 6 has been warmer than I'd expect since "
               "early May. What's going on with it?")
    dialog.say("It was shut down for a tube clean on the 9th. Is it back on now?")
    assert [(w.start, w.label) for w in dialog.focus.told_jobs] == [(at(2020, 7, 9), "clean tub")]
    assert decode_focus(encode_focus(dialog.focus)) == dialog.focus
    helped = dialog.say("Has the clean actually helped, going by the numbers since?")
    windows = [t.window for t in helped.tasks if t.action == "history"]
    assert [(w.start, w.end) for w in windows if w is not None] == [(at(2020, 6, 9), at(2020, 7, 9)),
                                                                     (at(2020, 7, 10), at(2020, 7, 16))]


def test_asking_when_a_job_was_last_done_tells_of_no_job() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("when was chiller 6 last cleaned before june?")
    assert dialog.focus.told_jobs == []


def test_a_job_word_spelled_apart_is_one_job() -> None:
    assert last_done_job(Text.of("When did it last have its oil analysed?"), vocabulary()) >= {"oil", "analysi"}


def test_texting_shorthand() -> None:
    assert Text.of("y that one").joined == "why that one"
    assert Text.of("r the others ok").joined == "are the others ok"
    assert "should" in Text.of("burnin more power than they shld lately??").tokens
    assert Text.of("y").joined == "y"  # alone it may be a yes


def test_what_fails_next_is_the_next_failure_not_a_forecast() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    assert dialog.say("what will fail next on chiller 6?").intent == "predict_next"
    assert dialog.say("what's the next thing to break on 9?").intent == "predict_next"


def test_the_readings_that_would_show_a_fault_are_its_sensor_relations() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    shown = dialog.say("Which readings would tell me the evaporator on chiller 4 is fouling up?")
    assert steps(shown) == [("failure", "sensor_mapping")]
    looked_for = dialog.say("Any sign of that on 4 so far this summer?")
    assert ("failure", "diagnose") in steps(looked_for)


def test_more_than_it_should_is_looked_into() -> None:
    decision = Dialog(reference_date=REFERENCE).say("any of the main chillers burnin more power than they shld lately??")
    assert decision.intent == "investigate"
    assert {t.action for t in decision.tasks} >= {"anomaly_detection", "prioritize"}


def test_a_diagnosis_of_a_named_reading_states_its_level() -> None:
    decision = Dialog(reference_date=REFERENCE).say(
        "The condenser water going back to the tower off chiller 6 has been warmer than I'd expect since early May. "
        "What's going on with it?")
    assert "Condenser Water Return To Tower Temperature" in symptom_readings(decision.tasks)
    usual = Dialog(reference_date=REFERENCE).say("diagnose chiller 6 over the last month")
    assert symptom_readings(usual.tasks) == []


def test_a_refused_period_ahead_is_not_carried_on() -> None:
    dialog = Dialog(reference_date=date(2021, 8, 16))
    dialog.say("sorry, chiller 3. average tonnage for the first two weeks of august?")
    assert dialog.say("And for December 2023?").kind == "reject"
    assert dialog.focus.window is not None and dialog.focus.window.start == at(2021, 8, 1)
    assert dialog.say("Fine. Does chiller 14 have any sensor data at all?").kind == "answer"


def test_a_forecast_years_ahead_is_refused_with_what_works() -> None:
    dialog = Dialog(reference_date=date(2021, 8, 16))
    dialog.say("My bad, the 28th of february. Was chiller 9 even running that day?")
    refused = dialog.say("Then forecast its load for 2040.")
    assert refused.kind == "reject" and "next two weeks" in refused.message
    assert Dialog(reference_date=date(2021, 8, 16)).say("forecast chiller 9 tonnage for the next two weeks").kind == "run"


def test_worked_harder_is_load() -> None:
    decision = Dialog(reference_date=date(2021, 8, 16)).say(
        "Was chiller 3 worked harder this July than last July? Yes or no first, then the numbers.")
    assert {s.split(" ", 2)[2] for t in decision.tasks for s in t.sensors} == {"Chiller % Loaded"}
    assert ("data", "compare") in steps(decision)
