"""Periods and request phrasings that held-out dialogs showed the understanding missed (QA defects 1-3, 9):
the QA's exact turns plus paraphrases of each, resolved against the reference date 2021-07-01."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from assetops.domain.turn import TimeWindow
from graph.understanding import calendar_math as cal
from graph.understanding import understand
from graph.understanding.periods import find_periods
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog

SITE = ZoneInfo("America/New_York")
REFERENCE = date(2021, 7, 1)
JULY_2019 = cal.month_window(2019, 7, "July 2019", default_catalog().zone)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=SITE)  # type: ignore[misc]


def windows(message: str, focus: TimeWindow | None = None) -> list[tuple[datetime, datetime]]:
    periods = find_periods(Text.of(message).joined, vocabulary(), REFERENCE, focus, zone=default_catalog().zone)
    return [(m.window.start, m.window.end) for m in periods.mentions if m.window is not None]


@pytest.mark.parametrize("message", [
    "is CWC04006 breaking down more often than it used to? look at 2017-2020",
    "2017 to 2020",
    "from 2017 through 2020",
    "between 2017 and 2020",
    "over 2017-20",
])
def test_year_ranges_cover_every_year_named(message: str) -> None:
    assert windows(message) == [(at(2017, 1, 1), at(2021, 1, 1))]


def test_a_backwards_year_range_is_reported_not_guessed() -> None:
    periods = find_periods(Text.of("look at 2020-2017").joined, vocabulary(), REFERENCE, zone=default_catalog().zone)
    assert not periods.mentions
    assert periods.problems and "2020-2017" in periods.problems[0]


@pytest.mark.parametrize(("message", "start"), [
    ("ch6 kw/ton looks bad the last couple of months, whats up with it?", at(2021, 5, 1)),
    ("over the past couple months", at(2021, 5, 1)),
    ("the last few months", at(2021, 4, 1)),
    ("last few weeks", at(2021, 6, 10)),
    ("past couple of weeks", at(2021, 6, 17)),
])
def test_vague_counts_of_recent_units_end_at_the_reference_date(message: str, start: datetime) -> None:
    assert windows(message) == [(start, at(2021, 7, 1))]


@pytest.mark.parametrize("message", [
    "and the same month a year later?",
    "same month the following year",
    "what about the same month next year",
    "and a year later?",
])
def test_a_month_moved_a_year_later_stays_one_month(message: str) -> None:
    assert windows(message, JULY_2019) == [(at(2020, 7, 1), at(2020, 8, 1))]


@pytest.mark.parametrize("message", [
    "same period last year",
    "and the same month the year before?",
    "what about a year earlier",
])
def test_a_month_moved_a_year_earlier_stays_one_month(message: str) -> None:
    assert windows(message, JULY_2019) == [(at(2018, 7, 1), at(2018, 8, 1))]


def test_the_month_a_year_later_is_named_as_that_month() -> None:
    periods = find_periods(Text.of("and the same month a year later?").joined, vocabulary(), REFERENCE, JULY_2019, zone=default_catalog().zone)
    assert periods.first is not None and periods.first.window is not None
    assert periods.first.window.label == "July 2020"


def test_the_year_after_still_means_the_adjacent_year() -> None:
    assert windows("and the year after?", JULY_2019) == [(at(2019, 8, 1), at(2020, 8, 1))]


@pytest.mark.parametrize(("message", "intent"), [
    ("break those down by failure code", "work_orders"),
    ("split them out by failure code please", "work_orders"),
    ("is CWC04006 breaking down more often than it used to? look at 2017-2020", "work_orders"),
    ("has chiller 9 been failing more often since 2018?", "work_orders"),
    ("what failure codes dominate on the first one?", "work_orders"),
    ("whats likely to be the next one?", "predict_next"),
    ("which job is likely to come up next", "predict_next"),
    ("what could be causing it", "failure_modes"),
    ("what might be causing that?", "failure_modes"),
    ("which one fits best if you look at the condenser temps too?", "diagnose"),
    ("which explanation fits best with the flow data as well", "diagnose"),
    ("ok what should the techs do about it", "plan_fix"),
    ("so what should we do about that", "plan_fix"),
    ("did those alarms actually turn into work orders?", "alert_to_failure"),
    ("have these alerts ever led to work orders?", "alert_to_failure"),
    ("propose limits that would stop the spam without missing real problems", "thresholds"),
    ("suggest better thresholds", "thresholds"),
    ("can you suggest new limits so the alarms stop", "thresholds"),
    ("do any of chiller 4's sensors look off over the past 6 months?", "sensor_health"),
])
def test_follow_up_phrasings_get_their_intent(message: str, intent: str) -> None:
    assert understand(message, REFERENCE, catalog=default_catalog()).intents[0] == intent


@pytest.mark.parametrize("message", ["what failure codes dominate on the first one?", "and the latter?"])
def test_positional_references_are_recognised(message: str) -> None:
    references = understand(message, REFERENCE, catalog=default_catalog()).references
    assert references & {"first_asset", "second_asset"}


@pytest.mark.parametrize(("message", "start"), [
    ("what were the readings doing in the days leading up to it?", at(2021, 6, 27, 15, 15)),
    ("how did it behave in the run up to it", at(2021, 6, 29, 15, 15)),
    ("show me the day before the trip", at(2021, 6, 29)),
])
def test_lead_up_to_a_known_trip_ends_at_the_trip(message: str, start: datetime) -> None:
    trip = at(2021, 6, 30, 15, 15)
    periods = find_periods(Text.of(message).joined, vocabulary(), REFERENCE, None, trip, zone=default_catalog().zone)
    assert periods.first is not None and periods.first.window is not None
    assert periods.first.window.start == start
    assert periods.first.window.end in (trip, at(2021, 6, 30))


def test_before_it_alone_is_not_a_trip_period() -> None:
    assert find_periods(Text.of("check it before it gets worse").joined, vocabulary(), REFERENCE, zone=default_catalog().zone).mentions == []


@pytest.mark.parametrize(("message", "last_day"), [
    ("june 7 to 13", 13), ("jun 7th - the 13th", 13), ("between june 7 and 20", 20), ("june 7-9?", 9)])
def test_a_day_to_a_later_day_of_its_month_is_a_range(message: str, last_day: int) -> None:
    assert windows(message) == [(at(2021, 6, 7), at(2021, 6, last_day + 1))]


@pytest.mark.parametrize("message", ["june 7 to 10% load", "june 7 to 2 days later", "june 7 and 3 other days"])
def test_a_number_that_is_no_day_leaves_the_day_alone(message: str) -> None:
    assert windows(message)[0] == (at(2021, 6, 7), at(2021, 6, 8))


def test_the_week_after_the_one_discussed_and_the_following_week_move_from_the_window() -> None:
    week = TimeWindow(at(2021, 6, 7), at(2021, 6, 14), "june 7 to 13")
    assert windows("its load the week after the one you just did?", week) == [(at(2021, 6, 14), at(2021, 6, 21))]
    assert windows("and the following week?", week) == [(at(2021, 6, 14), at(2021, 6, 21))]
    assert windows("the week after the trip", week) == []  # the event's week, not the window's


def test_the_year_before_in_a_comparison_is_the_same_month_a_year_earlier() -> None:
    assert windows("more alarms this time than the year before?", JULY_2019) == [(at(2018, 7, 1), at(2018, 8, 1))]


@pytest.mark.parametrize(("message", "start", "end"), [
    ("the last ten days of june", (2021, 6, 21), (2021, 7, 1)),
    ("the first week of may", (2021, 5, 1), (2021, 5, 8)),
    ("the final two weeks of march", (2021, 3, 18), (2021, 4, 1)),
    ("the last week of 2020", (2020, 12, 25), (2021, 1, 1)),
    ("the second week of may", (2021, 5, 8), (2021, 5, 15)),
    ("the 3rd week of march", (2021, 3, 15), (2021, 3, 22)),
    ("the first half of june", (2021, 6, 1), (2021, 6, 16)),
    ("the back half of april 2020", (2020, 4, 16), (2020, 5, 1)),
])
def test_the_first_or_last_days_of_a_named_period_are_its_start_or_end(
        message: str, start: tuple[int, int, int], end: tuple[int, int, int]) -> None:
    assert windows(message) == [(at(*start), at(*end))]


@pytest.mark.parametrize("message", ["any alarms since it came back on?", "anything since then?",
                                     "how has it run since the repair?"])
def test_since_it_came_back_runs_from_the_window_discussed_to_today(message: str) -> None:
    repair_day = TimeWindow(at(2021, 6, 14), at(2021, 6, 15), "june 14")
    assert windows(message, repair_day) == [(at(2021, 6, 14), at(2021, 7, 2))]


def test_tomorrow_is_a_future_day() -> None:
    periods = find_periods(Text.of("will ch9 need more than 300 kW tomorrow afternoon?").joined, vocabulary(),
                           REFERENCE, zone=default_catalog().zone)
    assert [(m.kind, m.window.start, m.window.end) for m in periods.mentions if m.window] == [
        ("future", at(2021, 7, 2), at(2021, 7, 3))]


@pytest.mark.parametrize(("text", "clock"), [("at 2pm yesterday", (14, 0)), ("around 3 pm", (15, 0)),
                                             ("at 14:30 on june 3", (14, 30)), ("at noon", (12, 0)),
                                             ("at 2:15pm", (14, 15)), ("13pm", None), ("30 am load", None),
                                             ("june 3", None)])
def test_a_time_of_day_is_read(text: str, clock: tuple[int, int] | None) -> None:
    from graph.understanding.dates import time_of_day

    assert time_of_day(Text.of(text).joined) == clock


def test_a_fault_named_without_its_side_names_every_mode_of_its_kind() -> None:
    from graph.understanding.identifiers import find_failure_modes

    assert find_failure_modes(Text.of("is it fouled?"), vocabulary()) == [
        "Evaporator Water side fouling", "Condenser Water side fouling"]
    assert find_failure_modes(Text.of("is the condenser fouled?"), vocabulary()) == ["Condenser Water side fouling"]


def test_the_week_before_that_with_no_event_is_the_week_before_the_window() -> None:
    day = TimeWindow(at(2021, 6, 14), at(2021, 6, 15), "yesterday")
    assert windows("and the week before that?", day) == [(at(2021, 6, 7), at(2021, 6, 14))]


@pytest.mark.parametrize("message", ["this week vs last?", "compare this week to last week", "this week versus last"])
def test_this_week_against_last_week_are_two_calendar_weeks(message: str) -> None:
    found = windows(message)
    assert found[0] == (at(2021, 6, 28), at(2021, 7, 2))  # this week, to the reference day
    assert found[1] == (at(2021, 6, 21), at(2021, 6, 28))


@pytest.mark.parametrize(("message", "job"), [("what did the last inspection on it find?", {"inspection"}),
                                              ("is it due for its annual service?", {"annual", "servic"})])
def test_the_last_job_and_a_job_due_read_the_job(message: str, job: set[str]) -> None:
    from graph.understanding.last_done import last_done_job

    assert last_done_job(Text.of(message), vocabulary()) >= job


def test_the_hour_before_the_event_is_one_hour() -> None:
    event = at(2021, 6, 14, 15, 15)
    found = find_periods(Text.of("what was it pulling the hour before it dropped").joined, vocabulary(), REFERENCE,
                         event=event, zone=default_catalog().zone)
    assert [(m.window.start, m.window.end) for m in found.mentions if m.window] == [(at(2021, 6, 14, 14, 15), event)]
