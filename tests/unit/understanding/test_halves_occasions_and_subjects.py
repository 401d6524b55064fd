"""Periods and chillers in everyday phrasing: "the first half of the year" is six months of the reference year, a
weekday that owns something ("Thursday's meeting") is an occasion rather than a day to read, a bare number between
"did" and a verb or before a participle is a chiller, and "rank them by total alarms" ranks on the alert counts."""

from __future__ import annotations

from datetime import date

import pytest

from graph.understanding.assets import find_assets
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import Dialog, at, steps, window_of


def chillers(message: str) -> list[str]:
    return find_assets(Text.of(message), vocabulary(), default_catalog()).assets


@pytest.mark.parametrize(("message", "reference", "window"), [
    ("how many alarms did chiller 6 log in the first half of the year?", date(2021, 7, 1),
     (at(2021, 1, 1), at(2021, 7, 1))),
    ("alerts on chiller 6 in the second half of last year?", date(2021, 7, 1), (at(2020, 7, 1), at(2021, 1, 1))),
    ("chiller 6 alerts, H1 this year", date(2021, 5, 10), (at(2021, 1, 1), at(2021, 5, 11))),  # not over yet
])
def test_a_half_of_the_year_is_six_months_of_that_year(message: str, reference: date,
                                                       window: tuple[object, object]) -> None:
    assert window_of(Dialog(reference_date=reference).say(message), "alert_rules") == window


def test_a_weekday_that_owns_something_is_an_occasion_not_the_period_asked() -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "Need a one-pager for Thursday's meeting on Chiller 9 covering May and June: alarms and work orders")
    assert {window_of(decision, action) for action in ("wo_summary", "alert_rules")} == {(at(2021, 5, 1),
                                                                                          at(2021, 7, 1))}
    on_thursday = Dialog(reference_date=date(2021, 7, 1)).say("what did chiller 9 do on thursday?")
    assert window_of(on_thursday, "history") == (at(2021, 6, 24), at(2021, 6, 25))


@pytest.mark.parametrize(("message", "expected"), [
    ("how many alarms did 6 log in the first half of the year?", ["Chiller 6"]),
    ("what did 9 do in may?", ["Chiller 9"]),
    ("were the PMs on 6 done at the same rate each year?", ["Chiller 6"]),
    ("did 3 alarms fire on it?", []),
    ("did 4 chillers trip?", []),
])
def test_a_bare_number_as_the_subject_of_a_verb_is_a_chiller(message: str, expected: list[str]) -> None:
    assert chillers(message) == expected


def test_rank_the_chillers_by_total_alarms_ranks_on_the_alert_counts() -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "for the annual report, rank the chillers by total alarms last year")
    assert {action for _, action in steps(decision)} == {"alert_rules"}
    assert len(decision.tasks) >= 4
