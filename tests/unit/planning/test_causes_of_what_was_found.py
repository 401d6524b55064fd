"""A cause asked of what the dialog found ("what would explain the jump?", "what could be behind it?") is diagnosed
on that event's evidence: in the later of two periods just compared, and the answer
leads with the ranked causes rather than the figures a statement before the question set side by side."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graph.answering.shapes import AnswerInputs, shaped_lead
from tests.unit.answering.builders import diagnosis, window
from tests.unit.planning.dialog import Dialog, at, steps, window_of


@pytest.mark.parametrize("cause", ["what would explain the jump?", "load wasnt that different tho. what would "
                                   "explain the jump?", "any idea what might be causing that?"])
def test_the_cause_of_a_change_between_two_periods_is_looked_for_in_the_later_one(cause: str) -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("pull up chiller 4's kw trend for may")
    dialog.say("how does that stack up against may last year")  # the dialog's period is now May 2020
    decision = dialog.say(cause)
    assert steps(decision)[-1] == ("failure", "diagnose")
    assert window_of(decision, "diagnose") == (at(2021, 5, 1), at(2021, 6, 1))


@pytest.mark.parametrize("event", ["what would explain the trip?", "what could be behind it?",
                                   "what would explain that spike?"])
def test_what_could_explain_the_event_discussed_is_a_diagnosis(event: str) -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("did chiller 3 trip in june?")
    assert steps(dialog.say(event))[-1] == ("failure", "diagnose")


def test_a_cause_question_after_a_statement_leads_with_the_diagnosis_not_the_statement_figures() -> None:
    may_21, may_20 = (datetime(2021, 5, 1, 4, tzinfo=UTC), datetime(2021, 6, 1, 4, tzinfo=UTC)), \
        (datetime(2020, 5, 1, 4, tzinfo=UTC), datetime(2020, 6, 1, 4, tzinfo=UTC))
    now = window("Chiller 4", "2021-05-01", "2021-06-01", {"Chiller % Loaded": (54.1, "%")})
    before = window("Chiller 4", "2020-05-01", "2020-06-01", {"Chiller % Loaded": (49.5, "%")})
    assert (now.window_start, before.window_start) == (may_21[0], may_20[0])
    found = diagnosis("Chiller 4", ("Condenser Water side fouling", 0.84, 0.96), ("Compressor Overheating", 0.0, 0.15))
    inputs = AnswerInputs(shape="open", scope="asset", question="load wasnt that different tho. what would explain "
                          "the jump?", artifacts=[now, found, before], fetched=["Chiller % Loaded"])
    assert shaped_lead(inputs) is None  # the diagnosis's own summary answers
    figures = AnswerInputs(shape="open", scope="asset", question="load wasnt that different tho. how did it compare?",
                           artifacts=[now, before], fetched=["Chiller % Loaded"])
    lead = shaped_lead(figures)
    assert lead is not None and "54.1%" in lead.first  # without a cause asked, the figures lead as before


def test_a_choice_between_two_faults_is_weighed_on_the_chiller_discussed() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 1))
    dialog.say("whats the condenser return temp doing on chiller 6 in june")
    decision = dialog.say("so fouling or a flow problem? one word then why")
    assert steps(decision)[-1] == ("failure", "diagnose")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_is_that_the_worst_in_the_fleet_ranks_the_reading_discussed_across_the_fleet() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how was chiller 4 on kw/t last month")
    decision = dialog.say("is that the worst in the fleet for june?")
    assert {action for _, action in steps(decision)} == {"history"}
    assert {t.asset_ids[0] for t in decision.tasks} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}
    assert decision.focus.picked == "Chiller 4"  # the subject held against the rest
