"""Periods resolved against the reference date 2021-07-01 (site time, half-open windows)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from assetops.domain.turn import TimeWindow
from graph.understanding.periods import find_periods
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog

SITE = ZoneInfo("America/New_York")
REFERENCE = date(2021, 7, 1)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=SITE)  # type: ignore[misc]


def first_window(message: str, **kwargs: object) -> tuple[datetime, datetime]:
    periods = find_periods(Text.of(message).joined, vocabulary(), REFERENCE, **kwargs, zone=default_catalog().zone)  # type: ignore[arg-type]
    assert periods.first is not None, f"no period in {message!r}"
    window = periods.first.window
    assert window is not None
    return window.start, window.end


@pytest.mark.parametrize(("message", "start", "end"), [
    ("June 14, 2020", at(2020, 6, 14), at(2020, 6, 15)),
    ("on 14 June 2020", at(2020, 6, 14), at(2020, 6, 15)),
    ("2020-06-14", at(2020, 6, 14), at(2020, 6, 15)),
    ("6/14/2020", at(2020, 6, 14), at(2020, 6, 15)),
    ("August 2020", at(2020, 8, 1), at(2020, 9, 1)),
    ("Mar-May 2021", at(2021, 3, 1), at(2021, 6, 1)),
    ("from March to May 2021", at(2021, 3, 1), at(2021, 6, 1)),
    ("between 2021-06-01 and 2021-06-15", at(2021, 6, 1), at(2021, 6, 16)),
    ("Nov-Feb 2021", at(2020, 11, 1), at(2021, 3, 1)),
    ("since 2018", at(2018, 1, 1), at(2021, 7, 1)),
    ("since March", at(2021, 3, 1), at(2021, 7, 1)),
    ("first week of 2020", at(2020, 1, 1), at(2020, 1, 8)),
    ("on 2019 data", at(2019, 1, 1), at(2020, 1, 1)),
    ("Q2 2021", at(2021, 4, 1), at(2021, 7, 1)),
    ("first half of 2020", at(2020, 1, 1), at(2020, 7, 1)),
    ("in May", at(2021, 5, 1), at(2021, 6, 1)),
    ("in August", at(2020, 8, 1), at(2020, 9, 1)),
    ("summer 2016", at(2016, 6, 1), at(2016, 9, 1)),
])
def test_absolute_dates(message: str, start: datetime, end: datetime) -> None:
    assert first_window(message) == (start, end)


@pytest.mark.parametrize(("message", "start", "end"), [
    ("this spring", at(2021, 3, 1), at(2021, 6, 1)),
    ("last summer", at(2020, 6, 1), at(2020, 9, 1)),
    ("past month", at(2021, 6, 1), at(2021, 7, 1)),
    ("over the last two months", at(2021, 5, 1), at(2021, 7, 1)),
    ("the last 30 days", at(2021, 6, 1), at(2021, 7, 1)),
    ("last quarter", at(2021, 4, 1), at(2021, 7, 1)),
    ("last year", at(2020, 1, 1), at(2021, 1, 1)),
    ("past year", at(2020, 7, 1), at(2021, 7, 1)),
    ("last 24 h", at(2021, 7, 1), at(2021, 7, 2)),
    ("the past 6 hours", at(2021, 7, 1, 18), at(2021, 7, 2)),
    ("yesterday", at(2021, 6, 30), at(2021, 7, 1)),
    ("3 weeks ago", at(2021, 6, 10), at(2021, 6, 17)),
    ("next week", at(2021, 7, 1), at(2021, 7, 8)),
    ("for the next two weeks", at(2021, 7, 1), at(2021, 7, 15)),
    ("this year", at(2021, 1, 1), at(2021, 7, 2)),
])
def test_relative_periods(message: str, start: datetime, end: datetime) -> None:
    assert first_window(message) == (start, end)


def test_same_period_last_year_shifts_the_focus_window() -> None:
    focus = TimeWindow(at(2020, 8, 1), at(2020, 9, 1), "August 2020")
    assert first_window("and the same period last year?", focus_window=focus) == (at(2019, 8, 1), at(2019, 9, 1))


def test_same_period_last_year_without_focus_is_a_problem_not_a_guess() -> None:
    periods = find_periods(Text.of("same period last year").joined, vocabulary(), REFERENCE, zone=default_catalog().zone)
    assert periods.mentions == []
    assert periods.problems


def test_day_before_the_trip_uses_the_event_time() -> None:
    trip = at(2020, 7, 15, 14, 30)
    assert first_window("what about the day before the trip?", event=trip) == (at(2020, 7, 14), at(2020, 7, 15))
    assert first_window("what happened before the trip?", event=trip) == (at(2020, 7, 14, 14, 30), trip)


def test_event_period_without_event_time_is_flagged_with_no_window() -> None:
    periods = find_periods(Text.of("what happened before the trip").joined, vocabulary(), REFERENCE, zone=default_catalog().zone)
    assert [(m.kind, m.window) for m in periods.mentions] == [("event", None)]


@pytest.mark.parametrize("message", ["Feb 30 2020", "2020-13-45", "31/31/2020"])
def test_impossible_dates_are_problems(message: str) -> None:
    periods = find_periods(Text.of(message).joined, vocabulary(), REFERENCE, zone=default_catalog().zone)
    assert periods.problems and not periods.mentions


def test_far_future_year_is_parsed_so_the_planner_can_refuse_it() -> None:
    assert first_window("data for 2035") == (at(2035, 1, 1), at(2036, 1, 1))


def test_may_as_a_verb_is_not_a_month() -> None:
    assert find_periods(Text.of("it may trip again").joined, vocabulary(), REFERENCE, zone=default_catalog().zone).mentions == []


def test_windows_are_aware_and_in_site_time() -> None:
    start, _ = first_window("June 14, 2020")
    assert start.utcoffset() is not None and start.utcoffset().total_seconds() == -4 * 3600  # EDT
    start, _ = first_window("January 2020")
    assert start.utcoffset().total_seconds() == -5 * 3600  # EST


@pytest.mark.parametrize(("message", "start", "end"), [
    ("around June 14th", at(2021, 6, 14), at(2021, 6, 15)),
    ("on July 4", at(2020, 7, 4), at(2020, 7, 5)),
])
def test_day_without_year_is_the_latest_one_not_after_the_reference_date(
        message: str, start: datetime, end: datetime) -> None:
    assert first_window(message) == (start, end)


def test_the_week_before_and_the_day_after_move_around_the_focus_window() -> None:
    focus = TimeWindow(at(2021, 6, 14), at(2021, 6, 15), "June 14")
    assert first_window("what about the week before?", focus_window=focus) == (at(2021, 6, 7), at(2021, 6, 14))
    assert first_window("and the day after?", focus_window=focus) == (at(2021, 6, 15), at(2021, 6, 16))


@pytest.mark.parametrize(("message", "reference", "start", "end"), [
    # a quarter without a year belongs to the one year the message names as context
    ("We're closing out 2020's books. How many work orders did Chiller 4 have in Q2?", date(2021, 3, 1),
     date(2020, 4, 1), date(2020, 7, 1)),
    ("FY2019 wrap-up: the third quarter on chiller 9?", date(2021, 3, 1), date(2019, 7, 1), date(2019, 10, 1)),
    # without a year, the latest such quarter begun by the reference date
    ("how was chiller 9 in q3", date(2021, 6, 1), date(2020, 7, 1), date(2020, 10, 1)),
    ("q1 for chiller 4", date(2021, 6, 1), date(2021, 1, 1), date(2021, 4, 1)),
])
def test_a_quarter_named_without_a_year(message: str, reference: date, start: date, end: date) -> None:
    asked = find_periods(Text.of(message).joined, vocabulary(), reference, zone=SITE).asked
    assert asked is not None and asked.window is not None
    assert (asked.window.start.date(), asked.window.end.date()) == (start, end)


def test_last_quarter_stays_the_previous_calendar_quarter() -> None:
    asked = find_periods(Text.of("last quarter for chiller 3").joined, vocabulary(), date(2021, 6, 1), zone=SITE).asked
    assert asked is not None and asked.window is not None
    assert (asked.window.start.date(), asked.window.end.date()) == (date(2021, 1, 1), date(2021, 4, 1))


def test_n_units_back_is_n_units_ago() -> None:
    start, end = first_window("Chiller 3 quit on us three days back")
    assert (start.date(), end.date()) == (date(2021, 6, 28), date(2021, 6, 29))


def test_since_the_first_is_the_first_of_the_reference_month() -> None:
    periods = find_periods(Text.of("plant's been struggling to hold setpoint since the 1st").joined, vocabulary(),
                           date(2021, 7, 15), zone=SITE)
    assert periods.first is not None and periods.first.window is not None
    assert (periods.first.window.start.date(), periods.first.window.end.date()) == (date(2021, 7, 1), date(2021, 7, 15))
    start, _ = first_window("chiller 9 since the 14th")  # later than the reference day: last month's
    assert start.date() == date(2021, 6, 14)


@pytest.mark.parametrize("message", [
    "Is it worth taking it down for a cleaning before July, or can that wait till the fall?",
    "Should I pull it offline for a leak check now, or ride it out until the fall?",
    "so what's the verdict, clean it now or wait for the fall shutdown?",
])
def test_a_deadline_for_an_action_is_not_a_period_to_analyse(message: str) -> None:
    periods = find_periods(Text.of(message).joined, vocabulary(), REFERENCE, zone=default_catalog().zone)
    assert periods.mentions == []


def test_before_a_month_is_still_a_period_when_nothing_is_to_be_done() -> None:
    assert first_window("how did it run in the fall?") is not None


@pytest.mark.parametrize(("message", "start", "end"), [
    ("July last year", at(2020, 7, 1), at(2020, 8, 1)),
    ("in May of this year", at(2021, 5, 1), at(2021, 6, 1)),
    ("Q3 last year", at(2020, 7, 1), at(2020, 10, 1)),
])
def test_a_month_or_quarter_of_a_relative_year_is_that_month_of_that_year(message: str, start: datetime,
                                                                          end: datetime) -> None:
    assert first_window(message) == (start, end)


def test_before_that_is_the_span_next_to_the_one_discussed() -> None:
    june = TimeWindow(at(2021, 6, 1), at(2021, 7, 1), "June 2021")
    assert first_window("and before that?", focus_window=june) == (at(2021, 5, 1), at(2021, 6, 1))
    assert first_window("and after that?", focus_window=june) == (at(2021, 7, 1), at(2021, 8, 1))
    week = TimeWindow(at(2021, 6, 10), at(2021, 6, 17), "a week")
    assert first_window("what about before that?", focus_window=week) == (at(2021, 6, 3), at(2021, 6, 10))


@pytest.mark.parametrize(("message", "day"), [
    ("ch3 tripped tuesday afternoon around 1:40", date(2021, 6, 29)),  # REFERENCE is Thursday 2021-07-01
    ("what happened last thursday?", date(2021, 6, 24)),
])
def test_a_weekday_is_the_latest_such_day_before_the_reference_date(message: str, day: date) -> None:
    start, end = first_window(message)
    assert (start.date(), (end - start).days) == (day, 1)


def test_a_weekday_ahead_is_no_period_to_look_at() -> None:
    periods = find_periods(Text.of("Forecast says a heat wave from Thursday.").joined, vocabulary(), REFERENCE,
                           zone=default_catalog().zone)
    assert periods.mentions == []


@pytest.mark.parametrize(("message", "end"), [
    ("project it out a couple weeks", at(2021, 7, 15)),
    ("forecast the next couple of weeks", at(2021, 7, 15)),
    ("over the next few days", at(2021, 7, 4)),
])
def test_a_horizon_with_a_loose_count(message: str, end: datetime) -> None:
    assert first_window(message) == (at(2021, 7, 1), end)


@pytest.mark.parametrize(("message", "start"), [
    ("corrective work orders per year, 2017 onward", at(2017, 1, 1)),
    ("2019 and later", at(2019, 1, 1)),
    ("may 2020 to date", at(2020, 5, 1)),
])
def test_a_period_followed_by_onward_runs_to_the_reference_date(message: str, start: datetime) -> None:
    assert first_window(message) == (start, at(2021, 7, 1))


def test_the_whole_quarter_is_the_quarter_around_the_window_discussed() -> None:
    march = TimeWindow(at(2021, 3, 1), at(2021, 4, 1), "March 2021")
    assert first_window("how many alarms across the whole quarter?", focus_window=march) == (at(2021, 1, 1),
                                                                                             at(2021, 4, 1))


@pytest.mark.parametrize(("message", "start", "end"), [
    ("go through march 1 to the end of may", at(2021, 3, 1), at(2021, 6, 1)),
    ("from april until the end of june", at(2021, 4, 1), at(2021, 7, 1)),
])
def test_a_period_to_the_end_of_another_is_one_span(message: str, start: datetime, end: datetime) -> None:
    assert first_window(message) == (start, end)


def test_this_time_last_year_is_the_recent_stretch_a_year_earlier_set_against_the_recent_one() -> None:
    periods = find_periods(Text.of("is its kW/ton worse than this time last year?").joined, vocabulary(), REFERENCE,
                           zone=default_catalog().zone)
    assert [(m.window.start, m.window.end) for m in periods.mentions if m.window] == [
        (at(2021, 6, 1), at(2021, 7, 1)), (at(2020, 6, 1), at(2020, 7, 1))]
    focus = TimeWindow(at(2021, 3, 1), at(2021, 4, 1), "March 2021")
    assert first_window("same time a year ago?", focus_window=focus) == (at(2020, 3, 1), at(2020, 4, 1))


def test_the_length_of_a_lead_up_is_read_without_the_event_time() -> None:
    from datetime import timedelta

    from graph.understanding.periods import event_lead_span
    assert event_lead_span(Text.of("what was the kw doing in the week leading up to it?").joined,
                           vocabulary()) == timedelta(weeks=1)
    assert event_lead_span(Text.of("the 2 days before the trip").joined, vocabulary()) == timedelta(days=2)
    assert event_lead_span(Text.of("what was the kw doing last week?").joined, vocabulary()) is None
