"""Kinds of request met this stop: a period that does not exist said before anything else, a dismissed request that
leaves out nothing, a report named as the occasion, a period already covered given as context, a pick between the
periods counted, "which of the three" after chillers discussed apart, and orders counted by the work they were for."""

from __future__ import annotations

from datetime import date

from graph.answering.asked_figures import coded_order_count_sentence
from tests.unit.answering.builders import art
from tests.unit.planning.dialog import Dialog, step_set, window_of

AUTUMN = date(2020, 10, 1)
SPRING = date(2021, 4, 15)


def _wo_params(decision: object, action: str = "wo_summary") -> list[dict[str, object]]:
    return [dict(t.params) for t in decision.tasks if t.action == action]  # type: ignore[attr-defined]


def test_an_impossible_date_is_refused_before_the_chiller_without_telemetry() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("any wos on chiller 14 in sept")
    decision = dialog.say("ok and its power trend for 2020-09-31")
    assert decision.kind == "reject" and "not a valid date" in (decision.message or "")


def test_a_quarter_that_does_not_exist_is_refused() -> None:
    decision = Dialog(reference_date=SPRING).say("chiller 9 efficiency for Q5 2020")
    assert decision.kind == "reject" and "Q1 to Q4" in (decision.message or "")
    assert Dialog(reference_date=SPRING).say("chiller 9 efficiency for Q3 2020").kind == "run"


def test_forget_that_dismisses_the_last_request_and_leaves_the_kind_named() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("any wos on chiller 14 in sept")
    assert _wo_params(dialog.say("forget that. how many preventive on 14 this year"))[0]["kind"] == "preventive"
    assert _wo_params(Dialog(reference_date=AUTUMN).say(
        "forget the preventive ones, how many on 14 this year"))[0]["kind"] == "corrective"


def test_a_report_named_as_the_occasion_asks_for_the_reading() -> None:
    decision = Dialog(reference_date=SPRING).say("annual energy report: 2020 avg kW/ton for chillers 3 and 4")
    assert ("maintenance", "report") not in step_set(decision)
    assert {t.asset_ids[0] for t in decision.tasks if t.action == "history"} == {"Chiller 3", "Chiller 4"}


def test_a_root_cause_for_the_report_is_a_diagnosis() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("what was Chiller 4's kW/ton in Q1 2021?")
    decision = dialog.say("whats driving that? I need a root cause for the report, not just numbers")
    assert ("failure", "diagnose") in step_set(decision) and ("maintenance", "report") not in step_set(decision)
    assert ("maintenance", "report") in step_set(Dialog(reference_date=SPRING).say(
        "write me a report on chiller 4 for management"))


def test_bare_numbers_compared_are_two_chillers() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("2020 avg kW/ton for chillers 3 and 4")
    decision = dialog.say("was 3 less efficient than 4 in 2020?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 4"}


def test_a_period_already_covered_is_context_for_the_one_needed() -> None:
    decision = Dialog(reference_date=AUTUMN).say(
        "had the energy audit figures for june on ch9 already, what i actually need is last month. avg power while it "
        "was running?")
    start, end = window_of(decision, "history")
    assert (start.date(), end.date()) == (date(2020, 9, 1), date(2020, 10, 1))
    assert len([t for t in decision.tasks if t.action == "history"]) == 1


def test_which_summer_was_worse_picks_between_the_summers_counted() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("ch6 corrective wos jun-aug 2019?")
    dialog.say("and this summer")
    decision = dialog.say("so which summer was worse")
    assert step_set(decision) == {("maintenance", "wo_summary")}
    assert {t.window.start.year for t in decision.tasks if t.window} == {2019, 2020}
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_which_of_the_three_is_every_chiller_discussed() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("pull chiller 13 wo's for this year")
    dialog.say("same period for ch12 and ch14, corrective only")
    decision = dialog.say("so which of the three breaks down the most")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 12", "Chiller 13", "Chiller 14"}


def test_orders_counted_by_the_work_their_codes_name() -> None:
    listing = art("work_order_summary", {"total": 20, "corrective": 4, "top_codes": [
        {"code": "MT001", "description": "Routine Maintenance", "count": 3},
        {"code": "L002", "description": "Water Leak", "count": 2},
        {"code": "M009", "description": "Seal Failure", "count": 1}]},
        asset="Chiller 13", equipment=["CWC04013"], producer="maintenance")
    said = coded_order_count_sentence("those leaks on it, how many", [listing])
    assert said is not None and said.startswith("2 leak work orders on CWC04013") and "L002 Water Leak (2)" in said
    assert coded_order_count_sentence("how many were failures?", [listing]) is None  # "failure" names no family
    assert coded_order_count_sentence("what were the leaks?", [listing]) is None  # no count asked
