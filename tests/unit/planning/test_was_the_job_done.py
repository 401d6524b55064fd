"""Whether a job was done, however it is asked: "did anyone log a leak check or a top-up?", "has any freon work been
done?", "has 6 had its tubes cleaned yet?" ask the work orders yes or no; "A or B" inside such a question widens
what counts rather than offering a choice (a comparison between two periods still does)."""

from __future__ import annotations

from datetime import date

import pytest

from graph.answering.shapes import AnswerInputs, shaped_lead
from graph.understanding.last_done import last_done_job
from graph.understanding.request import read_request
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.unit.answering.builders import orders
from tests.unit.planning.dialog import Dialog, steps

ASKED = ["did anyone log a leak check or a refrigerant top-up on it this year?",
         "has any leak detection or freon work been done on it this year?",
         "has 4 had its condenser tubes cleaned yet this year?"]


@pytest.mark.parametrize("question", ASKED)
def test_the_job_asked_is_read_and_the_work_orders_are_looked_up(question: str) -> None:
    assert last_done_job(Text.of(question), vocabulary())
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("did chiller 4 run ok in june?")
    assert steps(dialog.say(question)) == [("maintenance", "wo_summary")]


@pytest.mark.parametrize(("question", "shape"), [
    ("did anyone log a leak check or a refrigerant top-up on it this year?", "yes_no"),
    ("has any leak detection or freon work been done on it this year?", "yes_no"),
    ("is it fouling or a flow problem?", "which"),
    ("did we see more alarms in may or june?", "which"),
])
def test_a_or_b_in_a_question_of_whether_anything_happened_is_not_a_choice(question: str, shape: str) -> None:
    assert read_request(question).shape == shape


def test_either_job_offered_answers_yes_with_the_order_that_did_it() -> None:
    listing = orders("Chiller 4", "CWC04704", total=14, corrective=3, start="2021-01-01", end="2021-07-02")
    listing.results["latest_per_job"] = [
        {"wo_id": "WO157168", "date": "2021-06-14", "code": "MT008", "description": "Leak Detection: Refrigerant "
         "Leak Survey"},
        {"wo_id": "WO157001", "date": "2021-05-02", "code": "MT001", "description": "Routine Maintenance"}]
    lead = shaped_lead(AnswerInputs(shape="yes_no", scope="asset", question=ASKED[0], artifacts=[listing]))
    assert lead is not None and lead.first.startswith("Yes, Chiller 4: WO157168 on 2021-06-14")
    both = shaped_lead(AnswerInputs(shape="yes_no", scope="asset", question="did anyone log a leak check and a "
                                    "freon top-up on it?", artifacts=[listing]))
    assert both is not None and both.first.startswith("No")  # both asked: no order does both


def test_a_negated_opener_still_asks_whether_the_job_was_done() -> None:
    question = "didnt someone already do a WO on the strainer this month"
    assert read_request(question).shape == "yes_no"
    assert last_done_job(Text.of(question), vocabulary())
    dialog = Dialog(reference_date=date(2020, 8, 20))
    dialog.say("ch3 cond flow looks low this week")
    assert steps(dialog.say(question)) == [("maintenance", "wo_summary")]
