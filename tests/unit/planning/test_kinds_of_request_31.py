"""Kinds of request met this stop: a comparison of two periods that names which side is asked about."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog

SEPTEMBER = date(2020, 9, 15)


def _span(window: object) -> tuple[date, date]:
    return window.start.date(), window.end.date()  # type: ignore[attr-defined]


def test_a_period_set_against_another_leaves_the_asked_one_under_discussion() -> None:
    dialog = Dialog(reference_date=SEPTEMBER)
    dialog.say("the evaporator on chiller 4 seems sluggish. what did its supply temp average in june, and how does "
               "that stack up compared to may?")
    assert _span(dialog.focus.window) == (date(2020, 6, 1), date(2020, 7, 1))
    assert dialog.focus.earlier_window is not None
    assert _span(dialog.focus.earlier_window) == (date(2020, 5, 1), date(2020, 6, 1))
    decision = dialog.say("did chiller 6 do the same that month?")
    assert {_span(t.window) for t in decision.tasks if t.window is not None} == {(date(2020, 6, 1), date(2020, 7, 1))}


def test_a_comparison_between_two_months_with_no_side_is_about_the_span() -> None:
    dialog = Dialog(reference_date=SEPTEMBER)
    dialog.say("how much has chiller 6's kW/ton moved between march and june?")
    assert _span(dialog.focus.window) == (date(2020, 3, 1), date(2020, 7, 1))
