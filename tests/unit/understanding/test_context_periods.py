"""A date given in passing, in a clause about something else, is context: the period asked is the one
attached to the chiller or the reading the user asks about."""

from __future__ import annotations

from datetime import date

import pytest

from graph.understanding import understand
from tests.support.catalog import default_catalog


def _asked(message: str, reference: date = date(2021, 9, 20)) -> tuple[list[str], list[str]]:
    periods = understand(message, reference, catalog=default_catalog()).periods
    labels = [f"{m.window.start:%Y-%m-%d}..{m.window.end:%Y-%m-%d}" for m in periods.mentions if m.window]
    context = [f"{m.window.start:%Y-%m-%d}..{m.window.end:%Y-%m-%d}" for m in periods.context if m.window]
    return labels, context


@pytest.mark.parametrize(("message", "asked", "context"), [
    ("the electricians were here on july 14th, unrelated. but chiller 3's power in march looked high",
     ["2021-03-01..2021-04-01"], ["2021-07-14..2021-07-15"]),
    ("audit is on nov 2nd and we need the figures for #6 from april to june",
     ["2021-04-01..2021-07-01"], ["2020-11-02..2020-11-03"]),
    ("we're closing Q2. how did chiller 4 do in may?", ["2021-05-01..2021-06-01"], ["2021-04-01..2021-07-01"]),
])
def test_a_date_in_a_clause_about_something_else_is_context(message: str, asked: list[str],
                                                             context: list[str]) -> None:
    assert _asked(message) == (asked, context)


@pytest.mark.parametrize("message", [
    "compare chiller 3 in march with june",
    "how did it run in may and how about june?",
])
def test_periods_of_the_subject_stay(message: str) -> None:
    asked, context = _asked(message)
    assert asked and context == []
