"""Work orders asked about, not written: "did anyone raise a WO for the trip?" looks up whether one is on file,
"what work had we done on it earlier this month, before it tripped?" lists every order of this month so far, and
"raise a WO for the trip" still drafts one."""

from __future__ import annotations

from datetime import date

import pytest

from tests.unit.planning.dialog import Dialog, at, steps, window_of

TRIP = "#9 tripped yesterday afternoon. what was going on with it in the days before it went down?"


@pytest.mark.parametrize("question", ["did anyone raise a WO for the trip itself?", "was a work order opened for it?",
                                      "has a ticket been logged for that?"])
def test_whether_an_order_was_raised_is_looked_up_not_drafted(question: str) -> None:
    dialog = Dialog(reference_date=date(2019, 7, 24))
    dialog.say(TRIP)
    decision = dialog.say(question)
    assert steps(decision) == [("maintenance", "wo_summary")]
    assert not any(t.action == "draft_wo" for t in decision.tasks)


def test_raise_a_wo_as_a_command_still_drafts_one() -> None:
    dialog = Dialog(reference_date=date(2019, 7, 24))
    dialog.say(TRIP)
    assert ("maintenance", "draft_wo") in steps(dialog.say("raise a WO for the trip"))


def test_what_work_was_done_earlier_this_month_lists_every_order_of_the_month_so_far() -> None:
    dialog = Dialog(reference_date=date(2019, 7, 24), results={"wo_summary": {"kind": "corrective"}})
    dialog.say(TRIP)
    dialog.say("did anyone raise a WO for the trip itself?")
    decision = dialog.say("what work had we done on it earlier this month, before it tripped?")
    assert steps(decision) == [("maintenance", "wo_summary")]
    assert decision.tasks[0].params["kind"] == "all"
    assert window_of(decision, "wo_summary") == (at(2019, 7, 1), at(2019, 7, 25))


def test_same_for_the_return_repeats_the_last_request_on_the_return_temperature() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("chiller 9 chw supply temp last 7 days?")
    decision = dialog.say("same for the return")
    assert steps(decision) == [("data", "history")]
    assert [s.removeprefix("Chiller 9 ") for s in decision.tasks[0].sensors] == ["Return Temperature"]


def test_a_part_or_job_of_another_machine_word_is_the_chillers_records_not_another_machine() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how many corrective WOs on chiller 6 last year")
    decision = dialog.say("should we be bundling those pump seal jobs or is that overkill")
    assert decision.kind == "run" and ("maintenance", "bundle") in steps(decision)
    assert Dialog(reference_date=date(2021, 7, 1)).say("what about AHU 2?").kind == "reject"


def test_is_it_still_down_after_a_trip_reads_its_running_since_the_day_it_stopped() -> None:
    decision = Dialog(reference_date=date(2019, 7, 24)).say("ch9 tripped yday arvo round 3pm, is it still down?")
    assert steps(decision) == [("data", "history")]
    assert window_of(decision, "history") == (at(2019, 7, 23), at(2019, 7, 25))


def test_whether_an_order_was_raised_in_a_period_named_looks_in_that_period() -> None:
    dialog = Dialog(reference_date=date(2019, 8, 16))
    dialog.say("#6 has been drawing more kW at the same load for the last week or so. What's going on with it?")
    decision = dialog.say("has anyone raised a corrective WO on it yet this month?")
    assert window_of(decision, "wo_summary") == (at(2019, 8, 1), at(2019, 8, 17))


@pytest.mark.parametrize("request_", ["plan the fix but don't raise anything yet, I need to run it past the contractor",
                                      "work out the repair steps, do not file a work order",
                                      "put a plan together without opening a ticket"])
def test_a_write_ruled_out_in_the_message_writes_nothing(request_: str) -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("what's wrong with chiller 4 in june?")
    decision = dialog.say(request_)
    assert not any(t.action == "draft_wo" for t in decision.tasks)
    assert ("maintenance", "draft_wo") in steps(dialog.say("ok raise a WO for it"))  # asked for later: written
