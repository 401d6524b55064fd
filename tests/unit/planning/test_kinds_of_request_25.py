"""Kinds of request met in a development set (heldout25): holidays as days, a listing "broken down by rule" (no split
by month), "the one you picked", a new pick "of the two", and the set a pick is made from said first."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from graph.understanding.request import read_request
from tests.unit.planning.dialog import Dialog, at

REFERENCE = date(2021, 4, 20)


def _windows(message: str) -> set[tuple[object, object]]:
    decision = Dialog(reference_date=REFERENCE).say(message)
    return {(t.window.start, t.window.end) for t in decision.tasks if t.window is not None}


def test_a_holiday_is_its_latest_day() -> None:
    assert _windows("any breakdowns on chiller 6 since christmas?") == {(at(2020, 12, 25), at(2021, 4, 20))}
    assert _windows("what did chiller 9 do over thanksgiving?") == {(at(2020, 11, 26), at(2020, 11, 27))}
    assert _windows("alarms on chiller 9 on christmas day 2019") == {(at(2019, 12, 25), at(2019, 12, 26))}


def test_broken_down_by_rule_is_no_split_by_month() -> None:
    assert _windows("ch6 alerts since jan, broken down by rule") == {(at(2021, 1, 1), at(2021, 4, 20))}
    assert len(_windows("ch6 alerts since jan, broken down by month")) == 4  # April so far is the fourth


def test_the_one_you_picked_is_the_last_pick() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("We've got budget for exactly one condenser tube cleaning this quarter. Which chiller should get it?")
    dialog.focus = replace(dialog.focus, picked="Chiller 4", ranked=["Chiller 4", "Chiller 6"])
    dialog.say("Why not Chiller 6? It's been the problem child all year.")
    drafted = dialog.say("Fine, convinced. Draft the cleaning work order for the one you picked.")
    assert [(t.action, t.asset_ids) for t in drafted.tasks] == [("draft_wo", ["Chiller 4"])]


def test_which_of_the_two_is_a_new_pick_between_them() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("Give me a side-by-side of Chillers 3 and 9 for this spring: load, tonnage and power.")
    dialog.focus = replace(dialog.focus, picked="Chiller 3", ranked=["Chiller 3", "Chiller 9"])
    pick = dialog.say("And which was the more efficient of the two, per ton?")
    assert ("compare", ["Chiller 3", "Chiller 9"]) in [(t.action, t.asset_ids) for t in pick.tasks]


def test_the_set_named_before_which_is_still_a_pick() -> None:
    assert read_request("of the ones with data, which has been running the most since the start of april?").shape \
        == "which"
    assert read_request("between the two, which is worse?").shape == "which"


def test_what_is_driving_the_top_one_breaks_its_records_down() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    ranked = dialog.say("Rank all four telemetry chillers by number of alerts since the start of the year.")
    assert ranked.intent == "alerts"
    assert dialog.say("whats driving the top one").intent == "alerts"


def test_a_period_said_first_then_a_yes_no_on_its_rank() -> None:
    assert read_request("Over the same months last year, was it also the noisiest?").shape == "yes_no"
    assert read_request("over the last month how did 9 run?").shape == "open"


def test_more_than_it_should_on_one_chiller_is_a_health_check() -> None:
    decision = Dialog(reference_date=date(2019, 8, 22)).say(
        "ch6 was pulling way more kw than it should for the load around the 12th. is it still doing that?")
    assert decision.intent == "investigate"
    found = Dialog(reference_date=date(2021, 6, 16)).say(
        "One of our units seems to be burning more electricity than it should these last few weeks. Can you find it?")
    assert found.intent == "history"  # its readings first: the diagnosis follows from what they show
