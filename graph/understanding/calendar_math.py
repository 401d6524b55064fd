"""Calendar arithmetic for periods: days, months, quarters, seasons as half-open site-local windows."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from assetops.domain.turn import TimeWindow


def at_midnight(day: date, zone: tzinfo) -> datetime:
    """Midnight at the start of `day` in the site's time zone `zone` (aware)."""
    return datetime.combine(day, time(0, 0), tzinfo=zone)


def window(start: date, end: date, label: str, zone: tzinfo) -> TimeWindow:
    """The window [start 00:00, end 00:00) in site time (`zone`)."""
    return TimeWindow(start=at_midnight(start, zone), end=at_midnight(end, zone), label=label)


def add_months(day: date, months: int) -> date:
    """`day` moved by whole months, clamped to the month's last day (Mar 31 - 1 month = Feb 28/29)."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, days_in_month(year, month)))


def days_in_month(year: int, month: int) -> int:
    """Number of days of a calendar month (February 2020 has 29)."""
    following = date(year + (month == 12), month % 12 + 1, 1)
    return (following - timedelta(days=1)).day


def month_window(year: int, month: int, label: str, zone: tzinfo) -> TimeWindow:
    """One calendar month."""
    start = date(year, month, 1)
    return window(start, add_months(start, 1), label, zone)


def months_window(year: int, month: int, count: int, label: str, zone: tzinfo) -> TimeWindow:
    """`count` calendar months starting at year-month (seasons, quarters, halves)."""
    start = date(year, month, 1)
    return window(start, add_months(start, count), label, zone)


def year_window(year: int, label: str, zone: tzinfo) -> TimeWindow:
    """One calendar year."""
    return window(date(year, 1, 1), date(year + 1, 1, 1), label, zone)


def day_window(day: date, label: str, zone: tzinfo) -> TimeWindow:
    """One calendar day."""
    return window(day, day + timedelta(days=1), label, zone)


def quarter_start(day: date) -> date:
    """First day of the calendar quarter containing `day`."""
    return date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)


def shift(span: TimeWindow, *, years: int = 0, label: str = "") -> TimeWindow:
    """`span` moved by whole years ("same period last year")."""
    start = add_months(span.start.date(), 12 * years)
    end = add_months(span.end.date(), 12 * years)
    return window(start, end, label or span.label, span.start.tzinfo or UTC)


def most_recent_month(month: int, reference: date) -> int:
    """The year of the latest `month` that has started on or before the reference date."""
    return reference.year if month <= reference.month else reference.year - 1


def most_recent_season(first_month: int, length: int, reference: date, complete: bool) -> int:
    """The starting year of the latest season that has started (or, if `complete`, ended) by `reference`."""
    for year in (reference.year, reference.year - 1, reference.year - 2):
        start = date(year, first_month, 1)
        end = add_months(start, length)
        if (end <= reference) if complete else (start <= reference):
            return year
    return reference.year - 1


def span_of(unit: str, count: int) -> tuple[int, timedelta]:
    """A count of units as (months, extra timedelta): months are calendar months, the rest fixed."""
    if unit == "month":
        return count, timedelta(0)
    if unit == "quarter":
        return 3 * count, timedelta(0)
    if unit == "year":
        return 12 * count, timedelta(0)
    fixed = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1),
             "fortnight": timedelta(weeks=2)}
    return 0, fixed[unit] * count
