"""Periods in a message resolved against the session's reference date into half-open site-time windows.

Conventions (each window is [start, end) at site midnight unless it is hour-based):
- "the past month", "last two months", "last 30 days": complete days up to the reference date
  (exclusive): the reference date is "today" and its data may be incomplete.
- "last month", "last quarter", "last year" without a count: the previous calendar month / quarter / year.
- "last 24 h", "past 6 hours": hours up to the end of the reference day.
- "today", "this week/month/year": up to the end of the reference day.
- "next week", "next two weeks": from the reference date forward (a forecast horizon).
- "since 2018": from the start of 2018 to the reference date.
- "same period last year": the focus window one year earlier; "that period": the focus window.
- "the day before the trip", "before the trip": relative to the event time when it is known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from assetops.domain.turn import TimeWindow
from graph.understanding import calendar_math as cal
from graph.understanding.dates import Atom, context_year, find_atoms, join_ranges
from graph.understanding.vocabulary import Vocabulary

_NO_EARLIER_PERIOD = "'same period last year' needs an earlier period, and none was discussed."
# What "the same ..." can name: "the same month a year later", "same period last year".
_SAME_SPAN = r"(?:(?:\d+|two|three|four|few|couple of) )?(?:period|time|window|months?|weeks?|fortnight|days?|dates|quarter|season|stretch)"
_FEW_DAYS = 3  # "the days before the trip"
_THIS_TIME_DAYS = 30  # "this time last year" with nothing discussed: the last 30 days, a year earlier
PeriodKind = Literal["past", "future", "absolute", "focus", "event"]


@dataclass(frozen=True)
class PeriodMention:
    """One period found in a message."""

    window: TimeWindow | None  # None for an event-relative period whose event time is unknown
    kind: PeriodKind
    start: int  # character offset in the normalised text, for ordering


def _contains(outer: PeriodMention, inner: PeriodMention) -> bool:
    """True when `outer` strictly contains `inner` (both dated)."""
    if outer.window is None or inner.window is None:
        return False
    o, i = outer.window, inner.window
    return o.start <= i.start and i.end <= o.end and (o.start, o.end) != (i.start, i.end)


@dataclass
class Periods:
    """All periods of a message, in text order, and the date problems found on the way."""

    mentions: list[PeriodMention] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # The problems that are dates typed wrong ("2020-02-31"): the user has to correct these.
    invalid_dates: list[str] = field(default_factory=list)
    # Periods given in passing in a clause about something else ("the tower contractor was in on june 2nd"):
    # kept out of `mentions`, so they are neither the window asked nor a side of a comparison.
    context: list[PeriodMention] = field(default_factory=list)

    @property
    def first(self) -> PeriodMention | None:
        """The first period mentioned, the one a single-window plan uses."""
        return self.mentions[0] if self.mentions else None

    @property
    def asked(self) -> PeriodMention | None:
        """The period the question is about: a period given as context ("we're closing Q3 2020, how did
        it run in August?") contains the one asked about, and the narrower one wins; otherwise the first."""
        dated = [m for m in self.mentions if m.window is not None and m.kind != "future"]
        narrow = [m for m in dated if not any(_contains(m, other) for other in dated if other is not m)]
        return narrow[0] if narrow else None

    def of_kind(self, kind: PeriodKind) -> list[PeriodMention]:
        """Mentions of one kind."""
        return [m for m in self.mentions if m.kind == kind]


def _alternation(words: tuple[str, ...] | list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=4)
def _relative_patterns(vocab: Vocabulary) -> dict[str, re.Pattern[str]]:
    number = rf"(\d+|{_alternation(tuple(vocab.numbers))})"
    unit = f"({_alternation(tuple(vocab.units))})"
    event = f"({_alternation(vocab.event_words)})"
    return {
        # "worse than this time last year?": the recent stretch a year earlier (the one discussed, else the
        # last `_THIS_TIME_DAYS` days), and the recent stretch itself when nothing was discussed
        "this_time_last_year": re.compile(r"\b(?:this|that|the same|same) time (?:a |one )?(?:last year|a year ago|"
                                          r"the year before|the previous year)\b"),
        "same_last_year": re.compile(rf"\b(?:the )?same {_SAME_SPAN} "
                                     r"(?:(?:of|in|from|during) )?(?:a |one )?(?:last|previous|prior|the year before|"
                                     r"a year earlier)(?: year)?\b"),
        "same_next_year": re.compile(rf"\b(?:the )?same {_SAME_SPAN} (?:a |one )?(?:year later|year after|"
                                     r"the following year|the next year|next year|the year after)\b"),
        # "vs the same quarter in 2019?", "the same months of 2018": the span discussed, moved to the year named
        "same_in_year": re.compile(rf"\b(?:the )?same {_SAME_SPAN} (?:(?:in|of|during|for|back in|from) )?((?:19|20)\d\d)\b"),
        # "this year's quarter", "last year's months": the span discussed, in the year said
        "year_own_span": re.compile(r"\b(this|last|previous) year(?:'s|s)? (?:same )?(quarter|months|period|stretch|"
                                    r"window|span|season|numbers|figures)\b"),
        "year_shift": re.compile(r"\b(?:a|one) year (later|after|earlier|before)\b(?! the)"),
        "event_before": re.compile(rf"\b(?:the )?(?:(days|day|night|morning|week|hour)|{number} {unit}|hours) "
                                   rf"(?:before|prior to|leading up to) (?:the {event}|it|that)\b"),
        # "how many corrective wos in the 2 wks after that?" after the trip's date: the span from the event on
        "event_after_span": re.compile(rf"\b(?:the )?(?:(days|day|week)|{number} {unit}) (?:after|following) "
                                       rf"(?:the {event}|it|that)\b"),
        # "#9 tripped jul 23. what did it look like the 3 wks before": with the event told, the span before it
        "event_before_bare": re.compile(rf"\b(?:the )?(?:(days|day|night|morning|week|hour)|{number} {unit}|hours) "
                                        r"(?:before|prior|beforehand|leading up)(?=\s*(?:\?|$))"),
        "event_lead": re.compile(rf"\b(?:(?:before|prior to|leading up to|in the run up to|ahead of) the {event}|"
                                 r"(?:leading up to|in the run up to|in the lead up to) (?:it|that))\b"),
        "event_after": re.compile(rf"\b(?:after|since|following) the {event}\b"),
        # "any alarms since it came back on?", "since then": from the window discussed (a repair, a stop) to today
        "focus_since": re.compile(r"\bsince (?:then|that|it (?:came back(?: on| up| online)?|restarted|was restarted|"
                                  r"was repaired|was fixed|was cleaned|got fixed|went back on)|the (?:restart|repair|"
                                  r"cleaning|fix|job|work))\b"),
        # "and in july the year before?", "aug the previous year": that month in the year before the one discussed
        "month_year_before": re.compile(rf"\b({_alternation(tuple(vocab.months))}) (?:of )?(?:the (?:year|previous "
                                        r"year|prior year) before|the previous year|the prior year|a year (?:before|"
                                        r"earlier))\b"),
        # "the first half of the year", "H2 last year": six months of the reference year (or the one before)
        "year_half": re.compile(r"\b(?:the )?(?:(first|second|1st|2nd) half|(h1|h2)) (?:of )?(the|this|last|previous) "
                                r"year\b|\b(h1|h2) (this|last) year\b"),
        "focus_part": re.compile(r"\b(?:the )?(first|second|third|fourth|last|final) (week|half|fortnight) of "
                                 r"(?:the|that|this) month\b"),
        # ("the week after the trip" is the event's; "the week after the one you just did" the window's)
        # ("the 12 months before that": as many units as said, next to the window under discussion)
        # ("earlier this month, before it tripped": "this month" is the period, not the month before it)
        "focus_shift": re.compile(rf"(?<!this )(?<!last )(?<!next )(?<!that )\b(?:the )?(?:{number} )?{unit} "
                                  r"(before|after|earlier|later|prior)\b(?! the (?!ones?\b))"),
        "focus_following": re.compile(rf"\bthe following {unit}\b"),
        # "what got done on it that summer?": the season of the year discussed
        "focus_season": re.compile(rf"\b(?:that|the same) ({_alternation(tuple(vocab.seasons))})\b"),
        # "and the August before that?", "the june after": that month in the year before (after) the one discussed
        "month_beside": re.compile(rf"\b(?:the |that )?({_alternation(tuple(vocab.months))}) (before|after|prior)"
                                   r"(?: (?:that|it|then|this one|that one))?\b"),
        # "and the summer before that?": that season in the year before (after) the one discussed
        "season_beside": re.compile(rf"\b(?:the |that )?({_alternation(tuple(vocab.seasons))}) (before|after|prior)"
                                    r"(?: (?:that|it|then|this one|that one))?\b"),
        "past": re.compile(rf"\b(?:the )?({_alternation(vocab.past_words)}) (?:{number} (?:of )?)?{unit}\b"),
        "tomorrow": re.compile(r"\b(?:the day after )?tomorrow\b"),
        # "was it running last weekend?", "over the weekend": Saturday and Sunday of the latest whole weekend
        "weekend": re.compile(r"\b(last|past|previous|that|the) weekend\b"),
        # ("project it out a couple weeks" reads "project out it a couple weeks" once the particle is joined)
        "future": re.compile(rf"\b(?:the )?({_alternation(vocab.future_words)}) (?:(?:it|them) )?(?:{number} (?:of )?)?"
                             rf"{unit}\b"),
        # "looking back 6 months", "going back a couple of years": the span up to today, not the one back then
        "look_back": re.compile(rf"\b(?:looking|look|going|go|reaching|reach) back (?:over )?(?:the )?(?:last |past )?"
                                rf"(?:about |around |roughly |some )?{number} (?:of )?{unit}\b"),
        "ago": re.compile(rf"\b{number} {unit} (?:ago|back)\b"),
        "ahead": re.compile(rf"\b{number} {unit} (?:ahead|out|forward|from now|into the future)\b"),
        # ("since new year", "from the start of the year": this year so far)
        "named": re.compile(r"\b(yesterday|today|tonight|last night|this (?:morning|afternoon|evening)|"
                            r"earlier today|this (?:week|month|quarter|year)|"
                            r"year to date|ytd|month to date|since (?:the )?new year(?:'?s)?(?: day)?|"
                            r"(?:since|from) the (?:start|beginning) of (?:the|this) (?:week|month|quarter|year))\b"),
        # "anything odd earlier in the month?": the rest of the discussed window's month (week, year) before it
        "focus_rest": re.compile(r"\b(earlier|later) (?:on )?(?:in|that|this) (?:the )?(week|month|year)\b"),
        # "across the whole quarter", "the entire year": the calendar unit around the window discussed
        # ("vs the rest of the month": the month around the day discussed, set beside it)
        "focus_whole": re.compile(r"\b(?:the )?(?:whole|entire|full|rest of the|rest of that|rest of this) "
                                  r"(month|quarter|year)\b"),
        # "and before that?", "what about after that?": the span of the same length next to the one discussed
        # "and the one before that?" after last month's figure: the month before it (not the lead-up to an event)
        # ("when's the next one likely?" is the next failure, not a period)
        # ("and the one before?" after a count over last year: the year before it)
        "focus_previous": re.compile(r"\bthe (?:one|month|week|year|quarter|period|stretch) (before|after)(?: (?:that|it|"
                                     r"this|then)\b|(?=\s*\??\s*$))|\bthe (previous) one\b"),
        "focus_adjacent": re.compile(r"\b(before|prior to|after) (?:that|then)\b(?! (?:trip|shutdown|outage|failure))"),
    }


def _count(text: str | None, vocab: Vocabulary) -> int:
    if not text:
        return 1
    return int(text) if text.isdigit() else vocab.numbers.get(text, 1)


def _back(reference: date, unit: str, count: int, label: str, *, zone: tzinfo) -> TimeWindow:
    """`count` units ending at the reference date (hours: ending at the end of the reference day)."""
    months, fixed = cal.span_of(unit, count)
    if unit == "hour":
        end = cal.at_midnight(reference + timedelta(days=1), zone)
        return TimeWindow(end - fixed, end, label)
    start = cal.add_months(reference, -months) - fixed
    return cal.window(start, reference, label, zone)


def _past(match: re.Match[str], vocab: Vocabulary, reference: date, *, zone: tzinfo) -> TimeWindow:
    word, count_text, unit = match.group(1), match.group(2), vocab.units[match.group(3)]
    label = match.group(0).removeprefix("the ")
    calendar_word = word in ("last", "previous", "the last") and count_text is None
    if calendar_word and unit == "quarter":
        end = cal.quarter_start(reference)
        return cal.window(cal.add_months(end, -3), end, label, zone)
    if calendar_word and unit == "year":
        return cal.year_window(reference.year - 1, label, zone)
    if calendar_word and unit == "month" and word != "the last":
        # "last month" is the previous calendar month ("the June report" on 5 July), "the past month" 30 days
        first = cal.add_months(reference.replace(day=1), -1)
        return cal.month_window(first.year, first.month, label, zone)
    return _back(reference, unit, _count(count_text, vocab), label, zone=zone)


def _future(match: re.Match[str], vocab: Vocabulary, reference: date, *, zone: tzinfo) -> TimeWindow:
    count, unit = _count(match.group(2), vocab), vocab.units[match.group(3)]
    months, fixed = cal.span_of(unit, count)
    end = cal.add_months(reference, months) + fixed
    return cal.window(reference, end, match.group(0).removeprefix("the "), zone)


def _ahead(match: re.Match[str], vocab: Vocabulary, reference: date, *, zone: tzinfo) -> TimeWindow:
    count, unit = _count(match.group(1), vocab), vocab.units[match.group(2)]
    months, fixed = cal.span_of(unit, count)
    return cal.window(reference, cal.add_months(reference, months) + fixed, match.group(0), zone)


_COMPARED_WITH = re.compile(r"\b(?:than|versus|vs|against|with|to)\s*$")


def _focus_shift(match: re.Match[str], vocab: Vocabulary, focus: TimeWindow, *, zone: tzinfo) -> TimeWindow:
    """"the week before" / "the day after" / "the 12 months before": that many units next to the window under
    discussion."""
    count, unit, direction = _count(match.group(1), vocab), vocab.units[match.group(2)], match.group(3)
    months, fixed = cal.span_of(unit, count)
    label = match.group(0).removeprefix("the ")
    if unit == "year" and count == 1 and focus.end - focus.start < timedelta(days=360) and _COMPARED_WITH.search(
            match.string[:match.start()]):
        # "more this time than the year before" about an October compares it with that October a year earlier;
        # "and the year after?" alone is the year next to it
        return _year_shifted(focus, -1 if direction in ("before", "earlier", "prior") else 1)
    if direction in ("before", "earlier", "prior"):
        end = focus.start
        start = cal.at_midnight(cal.add_months(end.date(), -months), zone) - fixed if months else end - fixed
        return TimeWindow(start, end, label)
    return _unit_after(unit, label, focus, zone=zone, count=count)


def _unit_after(unit: str, label: str, focus: TimeWindow, *, zone: tzinfo, count: int = 1) -> TimeWindow:
    """`count` units starting where the window under discussion ends."""
    months, fixed = cal.span_of(unit, count)
    start = focus.end
    end = cal.at_midnight(cal.add_months(start.date(), months), zone) + fixed if months else start + fixed
    return TimeWindow(start, end, label.removeprefix("the "))


def adjacent_window(focus: TimeWindow, before: bool, *, zone: tzinfo) -> TimeWindow:
    """The window of the focus's length just before (or after) it: whole calendar months step by months ("June" ->
    "May 2021", 2020 -> 2019), any other span by the same number of days."""
    start, end = focus.start.date(), focus.end.date()
    months = (end.year - start.year) * 12 + end.month - start.month
    if start.day == 1 and end.day == 1 and months > 0:
        first = cal.add_months(start, -months if before else months)
        label = f"{first:%B %Y}" if months == 1 else str(first.year) if months == 12 and first.month == 1 \
            else f"{months} months from {first.isoformat()}"
        return cal.window(first, cal.add_months(first, months), label, zone)
    length = focus.end - focus.start
    span = "day" if length.days == 1 else f"{length.days} days"
    if before:
        return TimeWindow(focus.start - length, focus.start, f"the {span} before {start.isoformat()}")
    return TimeWindow(focus.end, focus.end + length, f"the {span} after {end.isoformat()}")


def _ago(match: re.Match[str], vocab: Vocabulary, reference: date, *, zone: tzinfo) -> TimeWindow:
    count, unit = _count(match.group(1), vocab), vocab.units[match.group(2)]
    if unit == "hour":  # "an hour ago": hours are inside the reference day (its data may be partial)
        return cal.window(reference, reference + timedelta(days=1), f"{match.group(0)} (the reference day)", zone)
    months, fixed = cal.span_of(unit, count)
    start = cal.add_months(reference, -months) - fixed
    one_months, one_fixed = cal.span_of(unit, 1)
    return cal.window(start, cal.add_months(start, one_months) + one_fixed, match.group(0), zone)


# "since new year", "since the start of the month": the unit so far, the same window as "this year" ("this month")
_SO_FAR = re.compile(r"^(?:since|from) (?:the )?(?:(?:start|beginning) of (?:the|this) (\w+)|new year.*)$")


def _named(match: re.Match[str], reference: date, *, zone: tzinfo) -> TimeWindow:
    word = _SO_FAR.sub(lambda so_far: f"this {so_far.group(1) or 'year'}", match.group(1))
    tomorrow = reference + timedelta(days=1)
    starts = {
        "yesterday": reference - timedelta(days=1), "last night": reference - timedelta(days=1),
        "today": reference, "tonight": reference, "this morning": reference, "this afternoon": reference,
        "this evening": reference, "earlier today": reference,
        "this week": reference - timedelta(days=reference.weekday()),
        "this month": reference.replace(day=1), "month to date": reference.replace(day=1),
        "this quarter": cal.quarter_start(reference), "this year": date(reference.year, 1, 1),
        "year to date": date(reference.year, 1, 1), "ytd": date(reference.year, 1, 1),
    }
    end = reference if word in ("yesterday", "last night") else tomorrow
    return cal.window(starts[word], end, word, zone)


def _after_event(event: datetime, named_span: str | None, count_text: str | None, unit_text: str | None,
                 vocab: Vocabulary, label: str, *, zone: tzinfo) -> TimeWindow:
    """"The 2 wks after that", "the days after it": from the event on, as long as said (a few days for "the days")."""
    if named_span == "day":
        day_start = cal.at_midnight(event.date(), zone) + timedelta(days=1)
        return TimeWindow(day_start, day_start + timedelta(days=1), label)
    if named_span == "days":
        return TimeWindow(event, event + timedelta(days=_FEW_DAYS), label)
    if named_span == "week" or not unit_text:
        return TimeWindow(event, event + timedelta(weeks=1), label)
    months, fixed = cal.span_of(vocab.units[unit_text], _count(count_text, vocab))
    end = cal.at_midnight(cal.add_months(event.date(), months), zone) + fixed if months else event + fixed
    return TimeWindow(event, end, label)


def _event_window(match: re.Match[str], name: str, vocab: Vocabulary, event: datetime | None, *, zone: tzinfo) -> TimeWindow | None:
    if event is None:
        return None
    label = match.group(0).removeprefix("the ")
    if name == "event_after":
        return TimeWindow(event, event + timedelta(days=1), label)
    if name == "event_lead":
        return TimeWindow(event - timedelta(days=1), event, label)
    named_span, count_text, unit_text = match.group(1), match.group(2), match.group(3)
    if name == "event_after_span":
        return _after_event(event, named_span, count_text, unit_text, vocab, label, zone=zone)
    if named_span == "day":
        day_start = cal.at_midnight(event.date(), zone)
        return TimeWindow(day_start - timedelta(days=1), day_start, label)
    if named_span == "days":  # "the days leading up to it": a few days
        return TimeWindow(event - timedelta(days=_FEW_DAYS), event, label)
    if named_span == "week":
        return TimeWindow(event - timedelta(weeks=1), event, label)
    if named_span == "hour":  # "the hour before it dropped": what it did just before
        return TimeWindow(event - timedelta(hours=1), event, label)
    if unit_text:
        months, fixed = cal.span_of(vocab.units[unit_text], _count(count_text, vocab))
        return TimeWindow(event - fixed - timedelta(days=30 * months), event, label)
    return TimeWindow(event - timedelta(hours=12), event, label)


def _month_beside(match: re.Match[str], vocab: Vocabulary, focus: TimeWindow, *, zone: tzinfo) -> TimeWindow:
    """"the August before that": the last August that starts before the period discussed ("after": the first one
    that starts at or after its end)."""
    month = vocab.months[match.group(1)]
    if match.re.groups >= 2 and match.group(2) == "after":  # ("july the year before" has no side: before)
        year = focus.end.year + (1 if date(focus.end.year, month, 1) < focus.end.date() else 0)
    else:
        year = focus.start.year - (1 if date(focus.start.year, month, 1) >= focus.start.date() else 0)
    return cal.months_window(year, month, 1, f"{date(year, month, 1):%B %Y}", zone)


def _season_beside(match: re.Match[str], vocab: Vocabulary, focus: TimeWindow, *, zone: tzinfo) -> TimeWindow:
    """"the summer before that": the last such season that starts before the period discussed ("after": the first one
    that starts at or after its end)."""
    first, length = vocab.seasons[match.group(1)]
    # (the whole season lies on its side of the period discussed: "the summer before that" after August is last year's)
    after = match.group(2) == "after"
    year = focus.end.year - 1 if after else focus.start.year + 1
    while (cal.months_window(year, first, length, "", zone).start < focus.end) if after \
            else (cal.months_window(year, first, length, "", zone).end > focus.start):
        year += 1 if after else -1
    return cal.months_window(year, first, length, f"{match.group(1)} {year}", zone)


_ANY_EVENT = datetime(2000, 1, 1, tzinfo=UTC)  # a stand-in event: only the length of the lead-up is read


def event_lead_span(text: str, vocab: Vocabulary) -> timedelta | None:
    """How far back "the week leading up to it", "the 2 days before the trip" reach from the event, read the
    way an event window is when the event time is known; None when the text names no lead-up."""
    for name in ("event_before", "event_lead"):
        match = _relative_patterns(vocab)[name].search(text)
        window = _event_window(match, name, vocab, _ANY_EVENT, zone=UTC) if match is not None else None
        if window is not None:
            return _ANY_EVENT - window.start
    return None


def _year_shifted(focus: TimeWindow, years: int) -> TimeWindow:
    """The focus window moved by whole years, named like a month when it is one ("July 2020")."""
    moved = cal.shift(focus, years=years)
    start, end = moved.start.date(), moved.end.date()
    if start.day == 1 and end == cal.add_months(start, 1):
        label = start.strftime("%B %Y")
    elif start.day == 1 and start.month % 3 == 1 and end == cal.add_months(start, 3):
        label = f"Q{start.month // 3 + 1} {start.year}"
    elif (start.month, start.day) == (1, 1) and end == cal.add_months(start, 12):
        label = str(start.year)
    else:
        label = f"{focus.label or 'that period'} a year {'later' if years > 0 else 'earlier'}"
    return TimeWindow(moved.start, moved.end, label)


def _whole_unit(unit: str, focus: TimeWindow | None, reference: date, *, zone: tzinfo) -> TimeWindow:
    """"the whole quarter": the calendar month, quarter or year holding the window discussed (the reference
    date's without one)."""
    anchor = focus.start.astimezone(zone).date() if focus is not None else reference
    if unit == "month":
        return cal.month_window(anchor.year, anchor.month, f"{anchor:%B %Y}", zone)
    if unit == "quarter":
        first = cal.quarter_start(anchor)
        return cal.months_window(first.year, first.month, 3, f"Q{(first.month - 1) // 3 + 1} {first.year}", zone)
    return cal.year_window(anchor.year, str(anchor.year), zone)


_FOCUS_REST = re.compile(r"\b(?:earlier|later) (?:on )?(?:in|that|this) (?:the )?(?:week|month|year)\b")


def _rest_of_unit(match: re.Match[str], focus: TimeWindow | None, reference: date, *, zone: tzinfo) -> TimeWindow:
    """"earlier in the month": from the start of the discussed window's month (week, year) up to the window;
    "later in the month": from the window's end to the month's end. Without a window, the reference date's."""
    earlier, unit = match.group(1) == "earlier", match.group(2)
    anchor = (focus.start if earlier else focus.end - timedelta(microseconds=1)).date() if focus is not None \
        else reference
    if unit == "week":
        first = anchor - timedelta(days=anchor.weekday())
        after = first + timedelta(days=7)
    elif unit == "month":
        first, after = anchor.replace(day=1), cal.add_months(anchor.replace(day=1), 1)
    else:
        first, after = date(anchor.year, 1, 1), date(anchor.year + 1, 1, 1)
    label = f"{match.group(0)} ({first:%B %Y})" if unit == "month" else match.group(0)
    if earlier:
        end = focus.start if focus is not None else cal.at_midnight(reference, zone)
        return TimeWindow(cal.at_midnight(first, zone), end, label)
    start = focus.end if focus is not None else cal.at_midnight(reference, zone)
    return TimeWindow(start, cal.at_midnight(after, zone), label)


def _half_of_year(match: re.Match[str], reference: date, *, zone: tzinfo) -> TimeWindow:
    """"the first half of the year": January to June of the reference year ("last year": of the year before),
    ending at the day after the reference date when that comes first (a half not over yet)."""
    which = (match.group(1) or match.group(2) or match.group(4) or "").lower()
    year_word = match.group(3) or match.group(5) or "this"
    year = reference.year - (1 if year_word in ("last", "previous") else 0)
    first = which in ("first", "1st", "h1")
    start, end = (date(year, 1, 1), date(year, 7, 1)) if first else (date(year, 7, 1), date(year + 1, 1, 1))
    end = min(end, reference + timedelta(days=1))
    return cal.window(start, end, f"{'first' if first else 'second'} half of {year}", zone)


_ORDINAL_PART = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "final": -1}


def _part_of_month(match: re.Match[str], focus: TimeWindow | None, reference: date, *, zone: tzinfo) -> TimeWindow:
    """"the last week of the month": of the month discussed (the focus window's first month), else of the
    reference date's month."""
    month = focus.start.date().replace(day=1) if focus is not None else reference.replace(day=1)
    end_of_month = cal.add_months(month, 1)
    ordinal, part = _ORDINAL_PART[match.group(1)], match.group(2)
    days = {"week": 7, "fortnight": 14}.get(part)
    if days is None:  # a half
        middle = month + (end_of_month - month) / 2
        start, end = (month, middle) if ordinal == 1 else (middle, end_of_month)
    elif ordinal == -1:
        start, end = end_of_month - timedelta(days=days), end_of_month
    else:
        start = month + timedelta(days=days * (ordinal - 1))
        end = min(start + timedelta(days=days), end_of_month)
    return cal.window(start, end, f"{match.group(0).removeprefix('the ')} ({month:%B %Y})", zone)


_SATURDAY = 5
_WEEKEND = timedelta(days=2)


def _weekend(said: str, focus: TimeWindow | None, reference: date, *, zone: tzinfo) -> TimeWindow:
    """"That weekend" is the weekend discussed; "last weekend", "the weekend" the latest whole one by the reference
    date."""
    if said in ("that", "the") and focus is not None and focus.start.weekday() == _SATURDAY \
            and focus.end - focus.start <= _WEEKEND + timedelta(hours=1):
        return focus
    saturday = reference - timedelta(days=(reference.weekday() - _SATURDAY) % 7)
    if saturday + _WEEKEND > reference:
        saturday -= timedelta(days=7)
    return cal.window(saturday, saturday + _WEEKEND, f"the weekend of {saturday.isoformat()}", zone)


def _relative(text: str, vocab: Vocabulary, reference: date, focus_window: TimeWindow | None,
              event: datetime | None, out: Periods, *, zone: tzinfo) -> list[tuple[int, int]]:
    taken: list[tuple[int, int]] = []
    for name, pattern in _relative_patterns(vocab).items():
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            kind: PeriodKind
            span: TimeWindow | None
            if name == "this_time_last_year":
                recent = focus_window or cal.window(reference - timedelta(days=_THIS_TIME_DAYS), reference,
                                                    f"the last {_THIS_TIME_DAYS} days", zone)
                if focus_window is None:  # the stretch it is set against: this time, this year
                    out.mentions.append(PeriodMention(recent, "past", match.start()))
                span, kind = _year_shifted(recent, -1), "focus"
                if focus_window is None:
                    span.label = f"the same {_THIS_TIME_DAYS} days last year"
            elif name == "same_last_year":
                if focus_window is None:
                    out.problems.append(_NO_EARLIER_PERIOD)
                    taken.append((match.start(), match.end()))
                    continue
                span, kind = _year_shifted(focus_window, -1), "focus"
            elif name == "same_in_year":
                if focus_window is None:
                    continue
                span, kind = _year_shifted(focus_window, int(match.group(1)) - focus_window.start.year), "focus"
            elif name == "year_own_span":
                if focus_window is None:
                    continue
                year = reference.year - (0 if match.group(1) == "this" else 1)
                span, kind = _year_shifted(focus_window, year - focus_window.start.year), "focus"
            elif name in ("same_next_year", "year_shift"):
                if focus_window is None:
                    continue
                later = name == "same_next_year" or match.group(1) in ("later", "after")
                span, kind = _year_shifted(focus_window, 1 if later else -1), "focus"
            elif name == "weekend":
                span, kind = _weekend(match.group(1), focus_window, reference, zone=zone), "past"
            elif name == "year_half":
                span, kind = _half_of_year(match, reference, zone=zone), "past"
            elif name == "focus_part":
                span, kind = _part_of_month(match, focus_window, reference, zone=zone), "focus"
            elif name == "focus_rest":
                span, kind = _rest_of_unit(match, focus_window, reference, zone=zone), "focus"
            elif name == "focus_whole":
                span, kind = _whole_unit(match.group(1), focus_window, reference, zone=zone), "focus"
            elif name == "focus_previous":
                if focus_window is None:
                    continue
                side = match.group(1) or match.group(2)
                span, kind = adjacent_window(focus_window, side in ("before", "previous"), zone=zone), "focus"
            elif name == "focus_adjacent":
                # with an event, "before that" is the lead-up; with "earlier in the month", that says how far
                if focus_window is None or event is not None or _FOCUS_REST.search(text):
                    continue
                span, kind = adjacent_window(focus_window, match.group(1) != "after", zone=zone), "focus"
            elif name == "focus_shift":
                if focus_window is None:
                    continue
                span, kind = _focus_shift(match, vocab, focus_window, zone=zone), "focus"
            elif name == "focus_since":
                if focus_window is None:
                    continue
                span, kind = cal.window(focus_window.start.date(), reference + timedelta(days=1),
                                        match.group(0), zone), "focus"
            elif name == "focus_season":
                if focus_window is None:
                    continue
                first, length = vocab.seasons[match.group(1)]
                year = focus_window.start.year - (1 if focus_window.start.month < first and first + length > 12 else 0)
                if date(year, first, 1) > reference:
                    # ("that fall window" while the dialog is on this year's spring: the fall talked about is the last
                    # one, not one still to come)
                    year = cal.most_recent_season(first, length, reference, complete=False)
                span = cal.months_window(year, first, length, f"{match.group(1)} {year}", zone)
                kind = "focus"
            elif name == "season_beside":
                if focus_window is None:
                    continue
                span, kind = _season_beside(match, vocab, focus_window, zone=zone), "focus"
            elif name in ("month_year_before", "month_beside"):
                if focus_window is None:
                    continue
                span, kind = _month_beside(match, vocab, focus_window, zone=zone), "focus"
            elif name == "focus_following":  # "and the following week?" after a week: the one after it
                if focus_window is None:
                    continue  # with nothing discussed it is the week ahead
                span, kind = _unit_after(vocab.units[match.group(1)], match.group(0), focus_window, zone=zone), "focus"
            elif name.startswith("event"):
                if event is None and name == "event_before_bare":
                    continue  # ("and the week before?" with no event told: the week before the window discussed)
                if event is None and focus_window is not None and match.group(0).endswith(" that"):
                    continue  # "and the week before that?" with no event: the week before the window discussed
                span, kind = _event_window(match, name, vocab, event, zone=zone), "event"
            elif name == "past":
                span, kind = _past(match, vocab, reference, zone=zone), "past"
            elif name == "tomorrow":  # the next calendar day (or the one after it)
                ahead = 2 if match.group(0).startswith("the day after") else 1
                span, kind = cal.window(reference + timedelta(days=ahead), reference + timedelta(days=ahead + 1),
                                        match.group(0), zone), "future"
            elif name == "future":
                span, kind = _future(match, vocab, reference, zone=zone), "future"
            elif name == "ahead":
                span, kind = _ahead(match, vocab, reference, zone=zone), "future"
            elif name == "look_back":
                span = _back(reference, vocab.units[match.group(2)], _count(match.group(1), vocab), match.group(0), zone=zone)
                kind = "past"
            elif name == "ago":
                span, kind = _ago(match, vocab, reference, zone=zone), "past"
            else:
                span, kind = _named(match, reference, zone=zone), "past"
            taken.append((match.start(), match.end()))
            out.mentions.append(PeriodMention(span, kind, match.start()))
    return taken


# "early May", "mid-2019", "the end of March", "the start of 2020": a part of the month or year named.
_PART_OF = re.compile(r"\b(?:(early|mid|late)(?: -)?|(?:the )?(start|beginning|middle|end) of)$")
_PART_BOUNDS = {"early": (0.0, 1 / 3), "start": (0.0, 1 / 3), "beginning": (0.0, 1 / 3), "mid": (1 / 3, 2 / 3),
                "middle": (1 / 3, 2 / 3), "late": (2 / 3, 1.0), "end": (2 / 3, 1.0)}


def _part_of_period(text: str, atom: Atom) -> tuple[Atom, int]:
    """The atom narrowed to the part its lead-in names ("late July" -> 21-31 July, in whole days), and where
    that lead-in starts; a range or a single day is left as it is."""
    match = _PART_OF.search(text[: atom.start].rstrip()) if atom.window is not None else None
    if match is None or atom.window is None or atom.joined or (atom.window.end - atom.window.start).days < 28:
        return atom, atom.start
    part = match.group(1) or match.group(2)
    low, high = _PART_BOUNDS[part]
    start, end = atom.window.start, atom.window.end
    days = (end - start).days
    zone = start.tzinfo
    assert zone is not None
    if days >= 365:  # a year splits in whole months: early = January-April, late = September-December
        months = round(12 * days / 365)
        first = cal.add_months(start.date(), round(months * low))
        last = cal.add_months(start.date(), round(months * high))
    else:
        first = start.date() + timedelta(days=round(days * low))
        last = start.date() + timedelta(days=round(days * high))
    label = f"{text[match.start():atom.start].strip().replace(' -', '-')} {atom.window.label}"
    return replace(atom, window=cal.window(first, last, label, zone)), match.start()


# "the week of 17 Aug 2020", "week of the 3rd": the Monday-to-Sunday week that holds the day
_WEEK_OF = re.compile(r"\b(?:the |that )?week of(?: the)?\s*$")


def _week_of(text: str, atom: Atom, lead_start: int) -> tuple[Atom, int]:
    """The week (Monday to Sunday) around a day the lead-in "week of" names; any other atom as it is."""
    match = _WEEK_OF.search(text[:lead_start])
    if match is None or atom.window is None or atom.window.end - atom.window.start > timedelta(days=1, hours=1):
        return atom, lead_start
    day = atom.window.start.date()
    monday = day - timedelta(days=day.weekday())
    zone = atom.window.start.tzinfo
    assert zone is not None
    label = f"the week of {monday.isoformat()}"
    return replace(atom, window=cal.window(monday, monday + timedelta(days=7), label, zone)), match.start()


def _first_or_last_of(text: str, atom: Atom, lead_start: int, vocab: Vocabulary) -> tuple[Atom, int]:
    """"the last ten days of June", "the first two weeks of 2020", "the second week of July", "the back half of
    June": the start, the end or the n-th stretch of the period named."""
    match = _FIRST_OR_LAST_OF.search(text[:lead_start].rstrip()) if atom.window is not None else None
    if match is None or atom.window is None:
        return atom, lead_start
    start, end = atom.window.start, atom.window.end
    zone = start.tzinfo
    assert zone is not None
    label = f"{text[match.start():lead_start].strip()} {atom.window.label}"
    which = match.group(1)
    if match.group(3) == "half":
        if match.group(2) or end - start < timedelta(days=2):
            return atom, lead_start
        middle = start.date() + (end.date() - start.date()) / 2
        lo, hi = (start.date(), middle) if which in _EARLY_SIDE else (middle, end.date())
        return replace(atom, window=cal.window(lo, hi, label, zone)), match.start()
    if match.group(3) not in vocab.units:
        return atom, lead_start
    months, fixed = cal.span_of(vocab.units[match.group(3)], _count(match.group(2), vocab))
    if months or end - start <= fixed:
        return atom, lead_start
    nth = _NTH.get(which, 1)
    if nth > 1:  # "the second week of July": the n-th such stretch from the start, inside the period
        lo = start.date() + fixed * (nth - 1)
        if lo >= end.date():
            return atom, lead_start
        hi = min(lo + fixed, end.date())
    else:
        first_days = which in _EARLY_SIDE
        lo = start.date() if first_days else (end - fixed).date()
        hi = (start + fixed).date() if first_days else end.date()
    return replace(atom, window=cal.window(lo, hi, label, zone)), match.start()


_NTH = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_EARLY_SIDE = frozenset({"first", "1st", "opening", "front", "early", "earlier"})
_FIRST_OR_LAST_OF = re.compile(r"\b(?:the )?(first|1st|last|final|opening|closing|second|2nd|third|3rd|fourth|4th|"
                               r"front|back|latter|later|early|earlier) (?:(\d+|[a-z]+) )?(days?|weeks?|fortnight|half) of$")


_ONWARD = re.compile(r"\s*(?:onwards?|forward|and (?:later|after|since|beyond|on)|to (?:date|now|today)|"
                     r"(?:till|until|up to) (?:now|today))\b")


_HEDGES = frozenset({"around", "about", "roughly", "approximately", "circa", "approx", "maybe", "say"})


def _since(text: str, atom: Atom, lead_start: int, reference: date, *, zone: tzinfo) -> TimeWindow | None:
    """"since 2018", "from the start of 2020", "after late July": from that period to the reference date ("since
    around Christmas", "since about mid-May": a hedge between changes nothing)."""
    words = text[:lead_start].split()
    # ("since the 3rd of May": the article of a day written before its month changes nothing either)
    while words and (words[-1] in _HEDGES or words[-1] == "the"):
        words.pop()
    before = words[-1:] or [""]
    if atom.window is not None and not atom.joined and before[0] not in ("since", "from", "after") \
            and _ONWARD.match(text[atom.end:]):  # "2017 onward", "2019 and later": from then to the reference date
        return TimeWindow(atom.window.start, cal.at_midnight(reference, zone), f"{atom.window.label} onward")
    if atom.window is None or atom.joined or before[0] not in ("since", "from", "after"):
        return None
    label = f"{before[0]} {atom.window.label}"
    return TimeWindow(atom.window.start if before[0] != "after" else atom.window.end,
                      cal.at_midnight(reference, zone), label)


# "more frequent this month than last?": the elided period is the one before ("last month").
_THAN_LAST = re.compile(r"\bthis (week|month|quarter|year)\b.*\b(?:than|vs|versus|compared (?:to|with)) (?:the )?"
                        r"(?:last|previous|prior)\b"
                        r"(?! (?:\d|two|three|few|several))")
_UNIT_MONTHS = {"month": 1, "quarter": 3, "year": 12}


# "march 1 to the end of may", "from the 3rd until end of june": one span up to the end of the later period.
_UP_TO = re.compile(r"\b(?:to|till|until|through|thru)\s*$")
_AND = re.compile(r"\band\s*$")
_BETWEEN = re.compile(r"\bbetween\s*$")
_PART_LABEL = re.compile(r"(?:the )?(?:end|middle|start|beginning) of\b|(?:early|mid|late)\b")


def _to_the_end_of(text: str, out: Periods) -> None:
    """Two periods joined by "to the end of" are one span: the first one's start to the second one's end (the
    second is the part "the end of May" found, so it starts at its lead-in)."""
    dated = [m for m in out.mentions if m.window is not None and m.kind == "absolute"]
    for first, second in pairwise(dated):
        if first.window is None or second.window is None or first.window.start >= second.window.end:
            continue
        # ("between June and the end of August" names where the span stops, as "to the end of" does)
        joined_by = _UP_TO.search(text[first.start:second.start]) or (
            _AND.search(text[first.start:second.start]) and _BETWEEN.search(text[:first.start]))
        if not joined_by or not _PART_LABEL.match(second.window.label.lower()):
            continue
        joined = TimeWindow(first.window.start, second.window.end, f"{first.window.label} to {second.window.label}")
        out.mentions = [m for m in out.mentions if m is not second and m is not first]
        out.mentions.append(PeriodMention(joined, "absolute", first.start))
        return


# "by this point last year", "at the same time last year", "the same point last year": last year up to today's date
# (a year-to-date set against the same stretch a year before, not against all of last year)
_SAME_POINT_LAST_YEAR = re.compile(r"\b(?:(?:by|at|to|up to|until|till) )?(?:this|(?:the )?same|that) (?:point|time|stage|date|"
                                   r"day)(?: of the year)? (?:last|the previous|the prior) year\b")


def _same_point_last_year(text: str, out: Periods, reference: date, focus: TimeWindow | None, *,
                          zone: tzinfo) -> None:
    said = _SAME_POINT_LAST_YEAR.search(text)
    if said is None:
        return
    year_start = date(reference.year, 1, 1)
    # the year so far this message or the dialog set up; with none, "by this point" itself says up to today's date
    ytd = next((m.window for m in out.mentions if m.window is not None and m.start < said.start()
                and m.window.start.date() == year_start), None) \
        or (focus if focus is not None and focus.start.date() == year_start else None)
    if ytd is None and (focus is not None or not said.group(0).startswith(("by ", "up to ", "until ", "till "))):
        return  # "at this time last year" after the last 30 days: those 30 days a year before (read elsewhere)
    window = cal.shift(ytd, years=-1, label="the same point last year") if ytd is not None else \
        cal.window(date(reference.year - 1, 1, 1), cal.add_months(reference, -12) + timedelta(days=1),
                   "last year to the same date", zone)
    out.mentions = [m for m in out.mentions if not (said.start() <= m.start < said.end())
                    and not (m.window is not None and m.window.label == "the last 30 days" and m.start >= said.start())]
    out.mentions = [m for m in out.mentions if m.kind != "focus" or m.start < said.start()]
    out.mentions.append(PeriodMention(window, "past", said.start()))


_END_OF = re.compile(r"\s*(?:the )?(?:end|close) of\s*$")


def _from_then_to_a_relative_end(text: str, out: Periods) -> None:
    """"from 2017 up to the end of last year", "since march through last month": a span opened at a date and closed by a
    period named relative to today runs from the date to that period's end (not from the date to today)."""
    for first, second in pairwise(sorted(out.mentions, key=lambda m: m.start)):
        if first.window is None or second.window is None or first.kind != "absolute" or second.kind != "past":
            continue
        between = _END_OF.sub("", text[first.start:second.start])
        if not _UP_TO.search(between) or not first.window.start < second.window.start < first.window.end:
            continue
        joined = TimeWindow(first.window.start, second.window.end, f"{first.window.label} to {second.window.label}")
        out.mentions = [m for m in out.mentions if m is not first and m is not second]
        out.mentions.append(PeriodMention(joined, "absolute", first.start))
        return


# "did the plant use less this summer than last?", "was June better this year than the last one?" said of a
# season or a month: the elided side is the same period a year before
_THAN_LAST_ALONE = re.compile(r"\b(?:than|vs|versus|compared (?:to|with)) (?:the )?(?:last|previous|prior)"
                              r"(?: one)?(?=\s*(?:[?.!,;]|$|\b(?:and|or|but|did|was|is|for|on)\b))")


def _than_last(text: str, out: Periods, *, zone: tzinfo) -> None:
    match = _THAN_LAST.search(text)
    this = next((m.window for m in out.mentions if m.window is not None and m.window.label == f"this {match.group(1)}"),
                None) if match else None
    if match is None or this is None:
        _than_the_last_of_its_kind(text, out)
        return
    unit = match.group(1)
    start = this.start.date()
    before = start - timedelta(days=7) if unit == "week" else cal.add_months(start, -_UNIT_MONTHS[unit])
    out.mentions.append(PeriodMention(cal.window(before, start, f"last {unit}", zone), "past", match.end()))


def _than_the_last_of_its_kind(text: str, out: Periods) -> None:
    elided = _THAN_LAST_ALONE.search(text)
    if elided is None or any(m.start >= elided.start() for m in out.mentions):
        return  # nothing elided: the earlier side is spelled out after "than"
    this = next((m for m in out.mentions if m.window is not None and m.kind in ("absolute", "past")
                 and (text[m.start:].startswith("this ") or text[:m.start].endswith("this "))), None)
    if this is None or this.window is None:
        return
    window = this.window
    year = str(window.start.year)
    label = window.label.replace(year, str(window.start.year - 1)) if year in window.label \
        else window.label.replace("this ", "last ", 1) if window.label.startswith("this ") \
        else f"{window.label} ({window.start.year - 1})"
    out.mentions.append(PeriodMention(cal.shift(window, years=-1, label=label), "absolute", elided.end()))


# A period that is a deadline for an action ("can the cleaning wait till the fall?", "ride it out until the
# fall shutdown", "worth doing before July?") says when to act, not which data to look at.
_DEADLINE_BEFORE = re.compile(r"\b(?:until|till|til|wait for|hold off for|put off to|postpone to|defer to)\s+"
                              r"(?:the\s+|next\s+|this\s+)?$")
_BEFORE = re.compile(r"\b(?:before|by)\s+(?:the\s+|next\s+|this\s+)?$")
_ACTION_ADVICE = re.compile(r"\b(?:should|worth|wait|hold off|ride it out|postpone|defer|put off|schedule|plan)\b")


_COMPARED_AGAINST = re.compile(r"\b(?:than|vs|versus|against|compared (?:to|with)|relative to)\b")


_SAID_LAST = re.compile(r"\b(?:last|previous)\s+$")


def _last_means_the_one_before(text: str, out: Periods, focus: TimeWindow | None) -> None:
    """"Is it worse than last spring?" while this spring is discussed: "last spring" is the one before it,
    not the latest complete spring, which is the window under discussion. Only the side compared against:
    "was kw/ton last month any worse than june last year?" asks about last month itself."""
    # ("was 6 worse this june than last june?" said in the autumn: "last june" is the one before this june)
    def said_last(mention: PeriodMention) -> bool:
        return mention.window is not None and (mention.window.label.startswith("last ")
                                               or _SAID_LAST.search(text[:mention.start]) is not None)

    said = {(m.window.start, m.window.end) for m in out.mentions if m.window is not None and not said_last(m)}
    for index, mention in enumerate(out.mentions):
        window = mention.window
        # (and "same ranking for last summer?" after "this summer": the dialog's "this summer" is not its "last")
        against = _COMPARED_AGAINST.search(text[:mention.start]) is not None or (
            focus is not None and focus.label.startswith("this "))
        same = window is not None and ((focus is not None and (window.start, window.end) == (focus.start, focus.end))
                                       or (window.start, window.end) in said)
        if window is not None and mention.kind in ("absolute", "past") and said_last(mention) and against and same:
            year = str(window.start.year)
            label = window.label.replace(year, str(window.start.year - 1)) if year in window.label \
                else f"{window.label} ({window.start.year - 1})"
            earlier = cal.shift(window, years=-1, label=label)
            out.mentions[index] = replace(mention, window=earlier)


def _last_week_before_this(out: Periods) -> None:
    """"This week against last week": last week is the calendar week before this one, not the seven days to
    today (which would overlap it)."""
    this = next((m for m in out.mentions if m.window is not None and m.window.label == "this week"), None)
    for index, mention in enumerate(out.mentions):
        window = mention.window
        if this is None or this.window is None or window is None or window.label != "last week":
            continue
        start = this.window.start - timedelta(days=7)
        out.mentions[index] = replace(mention, window=TimeWindow(start, this.window.start, "last week"))


# "compare June with August, not July": a period the message leaves out is not one to read
_LEFT_OUT = re.compile(r"\b(?:not|except|excluding|but not|rather than|instead of|leaving out|leave out|ignoring|"
                       r"ignore|skip|skipping|without)\s+(?:the\s+|in\s+|for\s+)?$")


# "had the audit figures for june already, what i actually need is last month": the period already covered is context;
# the one needed is asked.
_ALREADY = re.compile(r"\b(?:already|previously)\b")
_NEEDED = re.compile(r"\b(?:need|needed|want|wanted|after|looking for|interested in)\b")


def _already_covered(text: str, out: Periods) -> None:
    needed = [m for m in out.mentions if m.window is not None and _NEEDED.search(text[max(0, m.start - 30):m.start])]
    if not needed:
        return
    for mention in list(out.mentions):
        near = " ".join(text[mention.start:].split()[:8]) + " " + " ".join(text[:mention.start].split()[-6:])
        if mention not in needed and mention.start < needed[0].start and _ALREADY.search(near):
            out.mentions.remove(mention)
            out.context.append(mention)


def _drop_left_out(text: str, out: Periods) -> None:
    out.mentions = [m for m in out.mentions if not _LEFT_OUT.search(text[max(0, m.start - 30):m.start])]


# "it had a vibration work order at the end of July. Has anything been logged against it since?": from the end of
# the period said before to today
_SINCE_AT_THE_END = re.compile(r"\bsince\s*\??\s*$")


def _spelled_out_over_since_then(out: Periods) -> None:
    """"Has its power draw changed since then? Give me this month against June.": two periods spelled out say what
    to set side by side; "since then" only led up to them."""
    explicit = [m for m in out.mentions if m.window is not None and m.kind in ("absolute", "past")]
    if len(explicit) >= 2:
        out.mentions = [m for m in out.mentions if not (m.kind == "focus" and m.window is not None
                                                        and m.window.label.startswith("since "))]


def _since_at_the_end(text: str, out: Periods, reference: date, *, zone: tzinfo) -> None:
    before = [m for m in out.mentions if m.window is not None and m.kind in ("absolute", "past")]
    if not _SINCE_AT_THE_END.search(text) or len(before) != 1:
        return
    said = before[0]
    assert said.window is not None
    today = cal.at_midnight(reference + timedelta(days=1), zone)
    if said.window.end >= today:
        return
    since = TimeWindow(said.window.end, today, f"since {said.window.label}")
    out.context.append(said)
    out.mentions = [replace(m, window=since) if m is said else m for m in out.mentions]


# "since they cleaned it at the end of June", "since the repair in march": since an event, dated by the period after it
_SINCE_AN_EVENT = re.compile(r"\bsince\b(?: (?!since\b)[\w'-]+){1,8}? (?:at|in|on|during|around|back in)(?: the)?\s*$")


_SHORT_EVENT_SPAN = timedelta(days=11)


# "since then", "since that" (not "since that month"): a point the dialog dated before; the planner reads it too
SINCE_THEN = re.compile(r"\bsince (?:then|that)\b(?! (?:month|week|year|day|period|time|quarter)\b)", re.I)


def _since_the_day_told(text: str, out: Periods, reference: date, *, zone: tzinfo) -> None:
    """"Strainer got cleaned on the 2nd. has the flow come back since then?": "then" is the day the message dated
    just before, not the period the dialog was on."""
    said = SINCE_THEN.search(text)
    if said is None:
        return
    today = cal.at_midnight(reference + timedelta(days=1), zone)
    days = [m for m in out.mentions if m.kind in ("absolute", "past") and m.start < said.start()
            and m.window is not None and m.window.end - m.window.start <= _SHORT_EVENT_SPAN and m.window.end <= today]
    if not days:
        return
    day = days[-1]
    assert day.window is not None
    out.mentions = [m for m in out.mentions if m is not day and not (m.kind == "focus" and m.start >= said.start())]
    out.context.append(day)
    out.mentions.append(PeriodMention(TimeWindow(day.window.start, today, f"since {day.window.label}"), "absolute",
                                      said.start()))


def _since_an_event_then(text: str, out: Periods, reference: date, *, zone: tzinfo) -> None:
    today = cal.at_midnight(reference, zone)  # (up to the reference date, as "since march" reads)
    for index, mention in enumerate(out.mentions):
        window = mention.window
        if window is None or mention.kind != "absolute" or window.end >= today \
                or not _SINCE_AN_EVENT.search(text[:mention.start]):
            continue
        if any(other.start < mention.start and other.start > text.rfind("since", 0, mention.start)
               for other in out.mentions if other is not mention):
            continue  # another period between "since" and this one: that one is what "since" dates
        out.context.append(mention)
        # (an event dated to a few days, "at the end of June", "on the 3rd", was over by their end: what came after
        # starts there; one dated to a month or more starts with it)
        start = window.end if window.end - window.start <= _SHORT_EVENT_SPAN and window.end < today else window.start
        out.mentions[index] = replace(mention, window=TimeWindow(start, today, f"since {window.label}"))


# "the flow was blank for a while after the trip. is it trustworthy again?": asked of now, after the event
_ASKED_OF_NOW = re.compile(r"\b(?:again|now|anymore|any more|these days|by now|yet)\b")


def _after_an_event_to_now(text: str, out: Periods, reference: date, *, zone: tzinfo) -> None:
    """A day after an event ("after the trip") said in a question asked of now ("is it back again?") runs from the
    event to the reference date: whether it holds now, not only the day after."""
    today = cal.at_midnight(reference, zone) + timedelta(days=1)
    for index, mention in enumerate(out.mentions):
        window = mention.window
        if window is None or mention.kind != "event" or window.end >= today:
            continue
        # ("since the trip" runs to now whatever is asked; "after the trip" when the question is about now)
        if not window.label.startswith("since ") and not (_AFTER_LABEL.match(window.label)
                                                          and _ASKED_OF_NOW.search(text[mention.start:])):
            continue
        out.mentions[index] = replace(mention, window=TimeWindow(window.start, today,
                                                                     _AFTER_LABEL.sub("since ", window.label)))


_AFTER_LABEL = re.compile(r"^(?:after|following) ")


def _same_as_named_before(text: str, out: Periods, vocab: Vocabulary) -> None:
    """"Sept-Nov this year vs the same months last year" while another period is discussed: "the same months" are
    the ones the message named before it, a year earlier, not the period discussed."""
    same = _relative_patterns(vocab)["same_last_year"]
    named = [m for m in out.mentions if m.kind == "absolute" and m.window is not None]
    for index, mention in enumerate(out.mentions):
        if mention.kind != "focus" or not same.match(text, mention.start):
            continue
        before = [m for m in named if m.start < mention.start]
        if before and before[-1].window is not None:
            out.mentions[index] = replace(mention, window=_year_shifted(before[-1].window, -1))


_THAT_UNIT = re.compile(r"\b(?:that|the same|same) (month|year)\b")


def _whole_unit_of(text: str, discussed: TimeWindow, *, zone: tzinfo) -> TimeWindow:
    """"corrective wos that month" after a week looked at: the calendar month the week fell in (a unit larger than
    the period discussed is the one that holds it); the period discussed otherwise."""
    unit = _THAT_UNIT.search(text)
    local = discussed.start.astimezone(zone)
    if unit is None:
        return discussed
    if unit.group(1) == "month" and discussed.end - discussed.start < timedelta(days=28):
        whole = cal.month_window(local.year, local.month, f"{local:%B %Y}", zone)
    elif unit.group(1) == "year" and discussed.end - discussed.start < timedelta(days=365):
        whole = cal.year_window(local.year, str(local.year), zone)
    else:
        return discussed
    return whole if whole.start <= discussed.start and discussed.end <= whole.end else discussed


def _drop_deadlines(text: str, out: Periods) -> None:
    for mention in list(out.mentions):
        before = text[max(0, mention.start - 30):mention.start]
        if _DEADLINE_BEFORE.search(before) or (_BEFORE.search(before) and _ACTION_ADVICE.search(text)):
            out.mentions.remove(mention)


# "before 2020", "prior to this year": everything up to that period ("the week before June" is the week's, and
# "before next summer" a deadline)
_UP_TO_THE_PERIOD = re.compile(r"(?:^|\b(\w+) )(?:before|prior to|earlier than)\s+$")
_SPAN_WORDS = frozenset({"day", "days", "week", "weeks", "fortnight", "month", "months", "quarter", "year", "years",
                         "night", "morning", "hour", "hours", "just", "right", "shortly", "well"})
# The open start of "before 2020": earlier than any record; telemetry windows are clipped to the recorded data.
_OPEN_START = date(1990, 1, 1)


def _up_to_the_period(text: str, out: Periods, *, zone: tzinfo) -> None:
    for index, mention in enumerate(out.mentions):
        window = mention.window
        lead = _UP_TO_THE_PERIOD.search(text[:mention.start])
        if window is None or mention.kind not in ("absolute", "past") or lead is None or lead.group(1) in _SPAN_WORDS:
            continue
        label = f"before {window.label}"
        out.mentions[index] = replace(mention, window=TimeWindow(cal.at_midnight(_OPEN_START, zone), window.start, label))


# "back to this year", "for last year's review": a year named relative to today (not "q4 last year", "july this
# year": those qualify their own period only)
_RELATIVE_YEAR = re.compile(r"\b(this|last|previous) year\b")
_QUALIFIES = re.compile(r"\b(?:q[1-4]|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|"
                        r"dec\w*|spring|summer|autumn|fall|winter)(?: of)?\s*$")


def year_named(text: str, vocab: Vocabulary, reference: date, *, zone: tzinfo) -> int | None:
    """The one whole calendar year the normalised `text` names as context, if any ("ok back to this year. june vs
    april?" names this year)."""
    named = context_year(find_atoms(text, vocab, reference, zone=zone))
    if named is not None:
        return named
    relative = {reference.year - (m.group(1) != "this") for m in _RELATIVE_YEAR.finditer(text)
                if not _QUALIFIES.search(text[:m.start()])}
    return relative.pop() if len(relative) == 1 else None


def _year_words_as_years(text: str, vocab: Vocabulary, reference: date) -> tuple[str, list[tuple[int, int]]]:
    """"July last year", "May of this year", "Q3 last year", "spring last year" -> "july 2018", "may 2019", "q3 2018",
    "spring 2018": a month, quarter or season qualified by a relative year is that month of that year, not the month plus a whole year.
    With the text, the (offset in the new text, characters removed so far) after each replacement, so that
    offsets found in the new text map back to the one the caller holds (clauses are found there)."""
    # (a season too: "spring last year" is spring 2020, "summer this year" this summer)
    months = "|".join(re.escape(m) for m in sorted([*vocab.months, *vocab.seasons], key=len, reverse=True))
    years = {"last": reference.year - 1, "previous": reference.year - 1, "this": reference.year}
    pattern = re.compile(rf"\b({months}|q[1-4])(?: of)? (last|previous|this) year\b")
    pieces, shifts, cursor, removed = [], [], 0, 0
    for match in pattern.finditer(text):
        said = f"{match.group(1)} {years[match.group(2)]}"
        pieces += [text[cursor:match.start()], said]
        removed += len(match.group(0)) - len(said)
        shifts.append((match.start() - removed + len(match.group(0)), removed))
        cursor = match.end()
    return "".join([*pieces, text[cursor:]]), shifts


def _original_offset(offset: int, shifts: list[tuple[int, int]]) -> int:
    """An offset in the text with relative years replaced, in the text as given (see _year_words_as_years)."""
    return offset + max((removed for after, removed in shifts if offset >= after), default=0)


def _anchored(text: str, out: Periods, vocab: Vocabulary, pattern: str) -> tuple[re.Match[str], TimeWindow] | None:
    """A phrase that moves the period discussed (`pattern`, one of the relative patterns) said when nothing was
    discussed before, and the message's own first period before it, which it moves instead."""
    match = _relative_patterns(vocab)[pattern].search(text)
    if match is None:
        return None
    first = next((m.window for m in out.mentions if m.window is not None and m.start < match.start()), None)
    return (match, first) if first is not None else None


def _same_span_in_year(text: str, out: Periods, vocab: Vocabulary) -> None:
    """"May-June this year with the same two months of 2019": the message's own first period, moved to the year
    named (in place of that bare year)."""
    found = _anchored(text, out, vocab, "same_in_year")
    if found is None:
        return
    match, first = found
    out.mentions = [m for m in out.mentions if not match.start() <= m.start < match.end()]
    out.mentions.append(PeriodMention(_year_shifted(first, int(match.group(1)) - first.start.year), "focus",
                                      match.start()))


def _shift_of_the_first(text: str, out: Periods, vocab: Vocabulary, *, zone: tzinfo) -> None:
    """"this past week vs the week before": the unit next to the message's own first period (when nothing else is
    named after it)."""
    found = _anchored(text, out, vocab, "focus_shift")
    if found is None or sum(1 for m in out.mentions if m.window is not None) != 1:
        return
    _, first = found
    # ("cleaned on May 18 ... the two weeks before with the two weeks after": each side of the same day, which is
    # then only where the two are measured from)
    shifts = [PeriodMention(_focus_shift(match, vocab, first, zone=zone), "focus", match.start())
              for match in _relative_patterns(vocab)["focus_shift"].finditer(text)]
    if len(shifts) > 1:
        anchor = [m for m in out.mentions if m.window == first]
        out.mentions = [m for m in out.mentions if m.window != first]
        out.context = [*out.context, *anchor]
    out.mentions.extend(shifts)


_THAT_PERIOD_AND = re.compile(r"\b(?:that|the same) (?:month|week|year|quarter|period|stretch|day|summer|winter)\b"
                              r"(?=.*\b(?:and|vs|versus|against|compared (?:to|with))\b)")


_BARE_DAY = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b")


def _day_of_the_discussed(text: str, out: Periods, focus: TimeWindow | None) -> None:
    """"Since the 15th" after "since May 15": the day the period discussed starts on, not that day of this month."""
    if focus is None:
        return
    for index, mention in enumerate(out.mentions):
        window = mention.window
        said = _BARE_DAY.match(text[mention.start:]) or _BARE_DAY.search(text[mention.start:mention.start + 14])
        if window is None or said is None or int(said.group(1)) != focus.start.day or window.start.day != focus.start.day \
                or not focus.start < window.start < focus.end:
            continue
        out.mentions[index] = replace(mention, window=TimeWindow(focus.start, window.end, window.label))


# "the summers of 2018 and 2019", "junes 2019, 2020 and 2021": that season (month) in each of the years listed
_PLURAL_SPAN = re.compile(r"\b(springs|summers|autumns|falls|winters|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                          r"[a-z]*s) (?:of |in )?((?:(?:19|20)\d\d)(?:\s*(?:,|and|&)?\s*(?:19|20)\d\d)+)\b")


def _seasons_of_the_years(text: str, out: Periods, vocab: Vocabulary, *, zone: tzinfo) -> None:
    said = _PLURAL_SPAN.search(text)
    if said is None:
        return
    name = said.group(1)[:-1]
    season = vocab.seasons.get(name)
    month = vocab.months.get(name)
    first, length = season if season is not None else (month, 1) if month is not None else (None, 0)
    if first is None:
        return
    years = [int(y) for y in re.findall(r"(?:19|20)\d\d", said.group(2))]
    label = name if season is not None else date(2000, first, 1).strftime("%B")
    out.mentions = [m for m in out.mentions if not said.start() <= m.start < said.end()]
    out.mentions += [PeriodMention(cal.months_window(year, first, length, f"{label} {year}", zone), "absolute",
                                   said.start(2) + index) for index, year in enumerate(years)]


_ORDINAL_ONLY = re.compile(r"^(?:the )?\d{1,2}(?:st|nd|rd|th)$")


def named_day(text: str, vocab: Vocabulary, reference: date, *, zone: tzinfo) -> TimeWindow | None:
    """The one day of a named month the normalised `text` dates ("tripped on July 23rd"), None when none or several."""
    days = [a.window for a in find_atoms(text, vocab, reference, zone=zone) if a.window is not None
            and a.window.end - a.window.start == timedelta(days=1) and not _ORDINAL_ONLY.match(text[a.start:a.end])]
    return days[0] if len(days) == 1 else None


def _days_in_the_month_named(text: str, atoms: list[Atom], anchor: TimeWindow | None, *, zone: tzinfo) -> list[Atom]:
    """"Chiller 9 tripped on July 23rd ... from the 9th": a bare day of the month in a message that dates one day of a
    named month (`anchor`, when the message's scene-setting sentence dates it) is a day of that month (before it),
    and the dated day closes a span it opens."""
    days = [a for a in atoms if a.window is not None and a.window.end - a.window.start == timedelta(days=1)]
    named = [a for a in days if not _ORDINAL_ONLY.match(text[a.start:a.end])]
    if len(named) == 1 and named[0].window is not None:
        anchor = named[0].window
    elif named or anchor is None:
        return atoms
    first = anchor.start.date()
    out = []
    for atom in atoms:
        if atom in days and atom not in named and _ORDINAL_ONLY.match(text[atom.start:atom.end]) \
                and atom.window is not None and atom.window.start.day < first.day:
            day = first.replace(day=atom.window.start.day)
            atom = replace(atom, window=cal.window(day, day + timedelta(days=1), text[atom.start:atom.end], zone),
                           until=anchor)
        out.append(atom)
    return out


def find_periods(text: str, vocab: Vocabulary, reference: date, focus_window: TimeWindow | None = None,
                 event: datetime | None = None, window_reference: bool = False, *, zone: tzinfo,
                 year_of_context: int | None = None, frame_year: int | None = None,
                 day_anchor: TimeWindow | None = None) -> Periods:
    """Every period in the normalised `text`, resolved against `reference` (and the focus/event), as
    windows in the site's time zone `zone`; a month or quarter without a year takes `year_of_context`
    (the year the surrounding message names) when given, else `frame_year` (the year the dialog is in) when the
    message names only bare months."""
    out = Periods()
    text, shifts = _year_words_as_years(text, vocab, reference)
    taken = _relative(text, vocab, reference, focus_window, event, out, zone=zone)
    atoms = []
    for atom in find_atoms(text, vocab, reference, zone=zone):
        overlapping = [(start, end) for start, end in taken if atom.start < end and start < atom.end]
        if any(not (atom.start <= start and end <= atom.end) for start, end in overlapping):
            continue
        atoms.append(atom)  # a date that contains a relative phrase ("the last week of 2020") is the date
        out.mentions = [m for m in out.mentions if all(m.start != start for start, _ in overlapping)]
    joined = join_ranges(text, atoms, reference, vocab, zone=zone, year_of_context=year_of_context,
                         relative_ends=frozenset(after for after, _ in shifts),
                         # (a message placing itself, "ok back to this year. june vs april?", keeps the latest)
                         year_of_focus=None if taken else frame_year)
    for atom in _days_in_the_month_named(text, joined, day_anchor, zone=zone):
        if atom.problem:
            out.problems.append(atom.problem)
            out.invalid_dates.append(atom.problem)
            continue
        atom, lead_start = _part_of_period(text, atom)
        atom, lead_start = _first_or_last_of(text, atom, lead_start, vocab)
        atom, lead_start = _week_of(text, atom, lead_start)
        out.mentions = [m for m in out.mentions if not lead_start <= m.start < atom.start]  # "last ten days" of it
        since = _since(text, atom, lead_start, reference, zone=zone)
        if since is not None and atom.until is not None and atom.until.end <= since.end:
            # "tripped on July 23rd ... from the 9th": from that day up to the day the message dates
            since = TimeWindow(since.start, atom.until.end, f"{since.label} to {atom.until.label}")
        out.mentions.append(PeriodMention(since or atom.window, "absolute", lead_start))
    if window_reference and focus_window is not None and not out.mentions:
        out.mentions.append(PeriodMention(_whole_unit_of(text, focus_window, zone=zone), "focus", len(text)))
    pointed = _THAT_PERIOD_AND.search(text)
    if pointed is not None and focus_window is not None and out.mentions \
            and all(m.kind == "focus" and m.start > pointed.start() and m.window != focus_window for m in out.mentions):
        # "its power that month, and in july the year before?": the month discussed is one of the two asked
        out.mentions.append(PeriodMention(focus_window, "focus", pointed.start()))
    out.mentions.sort(key=lambda m: m.start)
    if _NO_EARLIER_PERIOD in out.problems and out.mentions and out.mentions[0].window is not None:
        first = out.mentions[0].window  # "the past 2 weeks vs the same period last year"
        out.problems.remove(_NO_EARLIER_PERIOD)
        out.mentions.append(PeriodMention(cal.shift(first, years=-1, label=f"{first.label} a year earlier"),
                                          "focus", len(text)))
    if focus_window is None:
        _same_span_in_year(text, out, vocab)
        _shift_of_the_first(text, out, vocab, zone=zone)
    else:
        _same_as_named_before(text, out, vocab)
    _to_the_end_of(text, out)
    _seasons_of_the_years(text, out, vocab, zone=zone)
    _from_then_to_a_relative_end(text, out)
    _same_point_last_year(text, out, reference, focus_window, zone=zone)
    _than_last(text, out, zone=zone)
    _last_means_the_one_before(text, out, focus_window)
    _last_week_before_this(out)
    _drop_deadlines(text, out)
    _drop_left_out(text, out)
    _already_covered(text, out)
    _since_at_the_end(text, out, reference, zone=zone)
    _since_an_event_then(text, out, reference, zone=zone)
    _since_the_day_told(text, out, reference, zone=zone)
    _after_an_event_to_now(text, out, reference, zone=zone)
    _spelled_out_over_since_then(out)
    _up_to_the_period(text, out, zone=zone)
    _day_of_the_discussed(text, out, focus_window)
    for mention in list(out.mentions):
        if mention.window is not None and mention.window.start >= mention.window.end:
            out.mentions.remove(mention)
            out.problems.append(f"'{mention.window.label}' ends before it starts.")
    if shifts:
        out.mentions = [replace(m, start=_original_offset(m.start, shifts)) for m in out.mentions]
        out.context = [replace(m, start=_original_offset(m.start, shifts)) for m in out.context]
    out.mentions.sort(key=lambda m: m.start)
    return out
