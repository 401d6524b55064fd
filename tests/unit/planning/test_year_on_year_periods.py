"""One chiller's same stretch over several years: "this year" is this year's stretch, "the August before that"
steps past every August discussed, and "of those three Augusts, which one ..." picks among them on the reading."""

from __future__ import annotations

from datetime import date

from graph.answering.asked_figures import period_pick
from graph.understanding.model import understand
from graph.understanding.request import read_request
from tests.support.catalog import default_catalog
from tests.unit.answering.builders import window
from tests.unit.planning.dialog import Dialog, at


def _year_on_year() -> Dialog:
    dialog = Dialog(reference_date=date(2021, 9, 20))
    dialog.say("I'd like to see how Chiller 6's power draw this August stacks up against August last year.")
    return dialog


def _compared(decision: object) -> list[str]:
    task = next(t for t in decision.tasks if t.action == "compare")  # type: ignore[attr-defined]
    return [w["start"][:7] for w in task.params.get("windows", [])] or [f"{task.window.start:%Y-%m}"]


def test_this_year_is_this_year_s_stretch_set_against_the_other_one() -> None:
    assert read_request("Was it carrying more load this year, or about the same?").shape == "yes_no"
    decision = _year_on_year().say("Was it carrying more load this year, or about the same?")
    assert sorted(_compared(decision)) == ["2020-08", "2021-08"]


def test_the_august_before_that_steps_past_the_augusts_discussed_and_those_three_are_picked_among() -> None:
    dialog = _year_on_year()
    before = dialog.say("And the August before that?")
    assert any(t.window is not None and t.window.start == at(2019, 8, 1) for t in before.tasks)
    assert [w.start.year for w in dialog.focus.periods] == [2019, 2020, 2021]
    pick = dialog.say("Of those three Augusts, which one had the worst kW/ton?")
    assert pick.intent == "compare" and sorted(_compared(pick)) == ["2019-08", "2020-08", "2021-08"]


def test_a_month_before_or_after_the_one_discussed() -> None:
    from assetops.domain.turn import TimeWindow
    august = TimeWindow(at(2020, 8, 1), at(2020, 9, 1), "August 2020")
    found = understand("and the june after that?", date(2021, 9, 20), august, catalog=default_catalog()).window
    assert found is not None and (found.start, found.end) == (at(2021, 6, 1), at(2021, 7, 1))


def test_the_worst_of_the_periods_leads_when_the_worst_is_asked() -> None:
    eff = "Chiller Efficiency"
    figures = [window("Chiller 6", f"{y}-08-01", f"{y}-09-01", {eff: (v, "kW/ton")}, id=f"a{y}")
               for y, v in ((2019, 0.50), (2020, 0.43), (2021, 0.45))]
    worst = period_pick("Of those three Augusts, which one had the worst kW/ton?", figures)
    assert worst is not None and worst.headline.startswith("August 2019 looks worse")
    best = period_pick("of those three Augusts, which was the most efficient?", figures)
    assert best is not None and best.headline.startswith("August 2020 looks healthier")


def test_between_a_month_and_the_end_of_another_is_one_span_and_texted_n_joins_chillers() -> None:
    said = understand("Between June and the end of August, which chiller racked up the most alarms?", date(2021, 9, 20),
                      catalog=default_catalog())
    assert [(m.window.start, m.window.end) for m in said.periods.mentions if m.window] == [(at(2021, 6, 1), at(2021, 9, 1))]
    two = understand("how much did it move between march and june?", date(2021, 9, 20), catalog=default_catalog())
    assert len(two.periods.mentions) == 2  # two months set against each other, not the span between
    assert understand("avg tonnage on chilers 4 n 9?", date(2021, 9, 20), catalog=default_catalog()).assets.assets == [
        "Chiller 4", "Chiller 9"]
    # ("X or nah?" is no pick between two things; "worth ..." asks advice, which answers yes or no first)
    assert read_request("worth getting a tech out to 6 or nah?").shape == "recommend"
    assert read_request("getting worse or nah?").shape == "yes_no"
