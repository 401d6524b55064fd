"""Absolute date expressions: "June 14, 2020", "2020-06-14", "August 2020", "Q2 2021", "first week of
2020", "spring 2021", "2019", bare months, and ranges between them ("Mar-May 2021", "from X to Y")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta, tzinfo
from functools import lru_cache

from assetops.domain.turn import TimeWindow
from graph.understanding import calendar_math as cal
from graph.understanding.vocabulary import Vocabulary

YEAR = r"((?:19|20)\d\d)"
DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}
_ORDINAL = r"(first|second|third|fourth|1st|2nd|3rd|4th|last)"


@dataclass(frozen=True)
class Atom:
    """One date expression found at character span [start, end) of the normalised text."""

    start: int
    end: int
    window: TimeWindow | None  # None when the date is impossible
    month_only: int | None = None  # a month (or quarter) named without a year: the year is still to be chosen
    months_long: int = 1  # 3 for a quarter named without a year ("in Q2")
    problem: str = ""
    joined: bool = False  # a range built from two expressions ("from X to Y")
    until: TimeWindow | None = None  # the day a span this atom opens runs to ("from the 9th" before "July 23rd")
    season: tuple[int, int] | None = None  # (first month, months) of a season named bare: the year framing it, if any


def _alternation(words: list[str] | tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


# A weekday in a message about what is coming ("a heat wave from Thursday", "next monday") is a day ahead:
# no period of data to look at.
_AHEAD = re.compile(r"\b(?:forecast\w*|will|going to|expected|next|coming|upcoming|ahead|heat ?wave|tomorrow)\b")


def _weekday_atom(match: re.Match[str], reference: date, *, zone: tzinfo) -> Atom | None:
    """"tripped tuesday afternoon", "last friday": the latest such day before the reference date (the
    conversation's today); "this monday" may be today itself. None for a day ahead."""
    if match.group(1) != "last" and _AHEAD.search(match.string):
        return None
    wanted = _WEEKDAYS.index(match.group(2))
    back = (reference.weekday() - wanted) % 7
    if back == 0 and match.group(1) != "this":
        back = 7
    day = reference - timedelta(days=back)
    return Atom(match.start(), match.end(), cal.day_window(day, f"{match.group(2).capitalize()} {day.isoformat()}", zone))


@lru_cache(maxsize=4)
def _patterns(vocab: Vocabulary) -> dict[str, re.Pattern[str]]:
    month = f"({_alternation(tuple(vocab.months))})"
    season = f"({_alternation(tuple(vocab.seasons))})"
    # A number right after an asset word is the asset's ("chiller 6 may be overheating"), never a day.
    not_asset = r"(?<!chiller )(?<!chillers )(?<!unit )(?<!units )(?<!#)(?<!\d and )(?<!\d or )(?<!\d/)"
    raw = {
        "iso": r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b",
        "us": r"\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b",
        "month_day_year": rf"\b{month} {DAY} (?:of )?{YEAR}\b",
        "day_month_year": rf"{not_asset}\b{DAY} (?:of )?{month} {YEAR}\b",
        "week_of": rf"\b(?:the )?{_ORDINAL} week of (?:{month} )?{YEAR}\b",
        "half_of": rf"\b(?:the )?(first|second|1st|2nd) half of {YEAR}\b",
        "quarter": rf"\b(?:q([1-4]) (?:of )?{YEAR}|{YEAR} q([1-4])|{_ORDINAL} quarter of {YEAR})\b",
        # "Q5 2020", "q0": a quarter that does not exist (a typo the user must correct, not a year to read)
        "no_quarter": rf"\bq([05-9]|\d\d+)(?: (?:of )?{YEAR})?\b",
        "month_year": rf"\b{month} (?:of )?{YEAR}\b",
        # "since christmas", "over thanksgiving": the holiday's day, the latest by the reference date
        "holiday": r"\b(christmas eve|christmas(?: day)?|xmas|thanksgiving(?: day)?|independence day|"
                   r"(?:the )?(?:4th|fourth) of july|labou?r day|memorial day)\b(?: ((?:19|20)\d\d)\b)?",
        "bare_quarter": r"\b(?:q([1-4])|(?:the )?(first|second|third|fourth|1st|2nd|3rd|4th) quarter)\b",
        # ("which summer was worse?" picks among the summers discussed; it names none)
        "season": rf"(?<!which )\b(?:(this|last|next|previous|past) )?{season}(?: of)?(?: {YEAR})?\b",
        # ("in august, 6 or 9?": a choice of two numbers after the month is a choice of chillers, not a day)
        "month_day": rf"\b{month} {DAY}\b(?! ?\d)(?! (?:or|vs|versus) #?\d)",
        # "since the 1st", "on the 14th": a day of the reference month
        # ("between the 9th and the 15th", "up to the 10th": the two ends of a span in that month)
        "day_of_month": r"(?:(?<=since )|(?<=from )|(?<=after )|(?<=until )|(?<=before )|(?<=on )|(?<=between )|"
                        r"(?<=and )|(?<=to )|(?<=till )|(?<=through )|(?<=thru )|(?<=around )|(?<=about )|(?<=by ))"
                        r"the (\d{1,2})(?:st|nd|rd|th)\b"
                        # ("since the 3rd of may": the day of the month named, read by day_month)
                        rf"(?! (?:of )?{month}\b)"
                        # "up on the 3rd floor", "on the 2nd shift": an ordinal of something else
                        r"(?! (?:floor|floors|level|levels|shift|shifts|row|bay|stage|party|line|time|try|attempt|"
                        r"one|week|quarter|half|unit|pump|tower|compressor))",
        "day_month": rf"{not_asset}\b{DAY} (?:of )?{month}\b",
        "year_range": rf"(?<![\d/-]){YEAR}-((?:19|20)?\d\d)(?![\d/-])",
        "year": rf"(?<![\d/-]){YEAR}(?![\d/-])",
        "month": rf"\b{month}\b",
        # ("Thursday's meeting" owns something: an occasion named, not a day to look at)
        "weekday": rf"\b(?:(last|this|past|on) )?({'|'.join(_WEEKDAYS)})\b(?!'s\b)",
    }
    return {name: re.compile(pattern) for name, pattern in raw.items()}


def _day_atom(match: re.Match[str], year: int, month: int, day: int, *, zone: tzinfo) -> Atom:
    try:
        found = date(year, month, day)
    except ValueError:
        problem = f"'{match.group(0)}' is not a valid date{_why_invalid(year, month)}."
        return Atom(match.start(), match.end(), None, problem=problem)
    return Atom(match.start(), match.end(), cal.day_window(found, match.group(0), zone))


def _why_invalid(year: int, month: int) -> str:
    """": February 2020 has 29 days" (what makes a day impossible, so the user can correct it)."""
    if not 1 <= month <= 12:
        return f": there is no month {month}"
    return f": {date(year, month, 1):%B %Y} has {cal.days_in_month(year, month)} days"


def _two_digit_year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def _season_atom(match: re.Match[str], vocab: Vocabulary, reference: date, *, zone: tzinfo) -> Atom:
    qualifier, name, year_text = match.group(1), match.group(2), match.group(3)
    first, length = vocab.seasons[name]
    if year_text:
        year = int(year_text)
    elif qualifier in ("last", "previous", "past"):
        year = cal.most_recent_season(first, length, reference, complete=True)
    elif qualifier == "next":
        year = cal.most_recent_season(first, length, reference, complete=False) + 1
    else:
        year = cal.most_recent_season(first, length, reference, complete=False)
    bare = None if year_text or qualifier else (first, length)
    return Atom(match.start(), match.end(), cal.months_window(year, first, length, match.group(0), zone), season=bare)


def _nth_weekday(year: int, month: int, weekday: int, nth: int) -> date:
    """The `nth` such weekday of the month (-1: the last)."""
    if nth > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    last = cal.add_months(date(year, month, 1), 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


_HOLIDAYS: dict[str, Callable[[int], date]] = {
    "christmas eve": lambda y: date(y, 12, 24), "christmas": lambda y: date(y, 12, 25), "xmas": lambda y: date(y, 12, 25),
    "thanksgiving": lambda y: _nth_weekday(y, 11, 3, 4), "independence day": lambda y: date(y, 7, 4),
    "fourth of july": lambda y: date(y, 7, 4), "labor day": lambda y: _nth_weekday(y, 9, 0, 1),
    "memorial day": lambda y: _nth_weekday(y, 5, 0, -1),
}


def _holiday_atom(match: re.Match[str], reference: date, *, zone: tzinfo) -> Atom:
    """"since christmas": the holiday's day in the year named, else its latest one by the reference date."""
    name = re.sub(r"^the |\s+day$", "", match.group(1)).replace("4th", "fourth").replace("labour", "labor") \
        .replace("xmas", "christmas")
    if name in ("thanksgiving", "independence", "labor", "memorial"):
        name = {"independence": "independence day", "labor": "labor day", "memorial": "memorial day"}.get(name, name)
    on = _HOLIDAYS[name]
    day = on(int(match.group(2))) if match.group(2) else on(reference.year)
    if not match.group(2) and day > reference:
        day = on(reference.year - 1)
    return Atom(match.start(), match.end(), cal.day_window(day, f"{name.title()} {day.isoformat()}", zone))


def _ordinal_week(match: re.Match[str], vocab: Vocabulary, *, zone: tzinfo) -> Atom:
    ordinal, month_text, year = _ORDINALS[match.group(1)], match.group(2), int(match.group(3))
    base = date(year, vocab.months[month_text], 1) if month_text else date(year, 1, 1)
    end_of_span = cal.add_months(base, 1 if month_text else 12)
    start = end_of_span - timedelta(days=7) if ordinal == -1 else base + timedelta(days=7 * (ordinal - 1))
    return Atom(match.start(), match.end(), cal.window(start, start + timedelta(days=7), match.group(0), zone))


def _quarter_atom(match: re.Match[str], *, zone: tzinfo) -> Atom:
    groups = match.groups()
    if groups[0]:
        number, year = int(groups[0]), int(groups[1])
    elif groups[2]:
        number, year = int(groups[3]), int(groups[2])
    else:
        number, year = _ORDINALS[groups[4]], int(groups[5])
        number = 4 if number == -1 else number
    return Atom(match.start(), match.end(), cal.months_window(year, 3 * number - 2, 3, match.group(0), zone))


def _year_range_atom(match: re.Match[str], *, zone: tzinfo) -> Atom:
    """"2017-2020" / "2017-20": whole calendar years, both ends included."""
    first, last_text = int(match.group(1)), match.group(2)
    last = int(last_text) if len(last_text) == 4 else first // 100 * 100 + int(last_text)
    if last < first:
        return Atom(match.start(), match.end(), None, problem=f"'{match.group(0)}' ends before it starts.")
    span = cal.window(date(first, 1, 1), date(last + 1, 1, 1), match.group(0), zone)
    return Atom(match.start(), match.end(), span)


def _handlers(vocab: Vocabulary, reference: date, *, zone: tzinfo) -> dict[str, Callable[[re.Match[str]], Atom | None]]:
    months = vocab.months

    def bare_month(m: re.Match[str], month_text: str) -> Atom:
        month = months[month_text]
        if m.string[: m.start()].split()[-1:] in (["last"], ["previous"]):
            # "last august" said in August 2018 is August 2017: the latest such month already over
            year = reference.year - 1 if month >= reference.month else reference.year
            return Atom(m.start(), m.end(), cal.month_window(year, month, f"{date(year, month, 1):%B %Y}", zone))
        return Atom(m.start(), m.end(), None, month_only=month)

    return {
        "iso": lambda m: _day_atom(m, int(m.group(1)), int(m.group(2)), int(m.group(3)), zone=zone),
        "weekday": lambda m: _weekday_atom(m, reference, zone=zone),
        "us": lambda m: _day_atom(m, _two_digit_year(m.group(3)), int(m.group(1)), int(m.group(2)), zone=zone),
        "month_day_year": lambda m: _day_atom(m, int(m.group(3)), months[m.group(1)], int(m.group(2)), zone=zone),
        "day_month_year": lambda m: _day_atom(m, int(m.group(3)), months[m.group(2)], int(m.group(1)), zone=zone),
        "week_of": lambda m: _ordinal_week(m, vocab, zone=zone),
        "half_of": lambda m: Atom(m.start(), m.end(), cal.months_window(
            int(m.group(2)), 1 if m.group(1) in ("first", "1st") else 7, 6, m.group(0), zone)),
        "quarter": lambda m: _quarter_atom(m, zone=zone),
        "bare_quarter": lambda m: _bare_quarter(m),
        "no_quarter": lambda m: Atom(m.start(), m.end(), None, problem=(
            f"'{m.group(0).upper()}' is not a valid period: a year has four quarters, Q1 to Q4.")),
        "month_year": lambda m: Atom(m.start(), m.end(), cal.month_window(
            int(m.group(2)), months[m.group(1)], f"{date(int(m.group(2)), months[m.group(1)], 1):%B %Y}", zone)),
        "season": lambda m: _season_atom(m, vocab, reference, zone=zone),
        "month_day": lambda m: _month_day(m, months[m.group(1)], int(m.group(2)), reference, zone=zone),
        "day_of_month": lambda m: _day_of_month(m, int(m.group(1)), reference, zone=zone),
        "day_month": lambda m: _month_day(m, months[m.group(2)], int(m.group(1)), reference, zone=zone),
        "year_range": lambda m: _year_range_atom(m, zone=zone),
        "year": lambda m: Atom(m.start(), m.end(), cal.year_window(int(m.group(1)), m.group(0), zone)),
        "month": lambda m: bare_month(m, m.group(1)) if _is_month_word(m, vocab) else None,
        "holiday": lambda m: _holiday_atom(m, reference, zone=zone),
    }


def _bare_quarter(match: re.Match[str]) -> Atom:
    """"Q2", "the third quarter": a quarter whose year comes from the context or the reference date."""
    number = int(match.group(1)) if match.group(1) else _ORDINALS[match.group(2)]
    number = 4 if number == -1 else number
    return Atom(match.start(), match.end(), None, month_only=3 * number - 2, months_long=3)


def _day_of_month(match: re.Match[str], day: int, reference: date, *, zone: tzinfo) -> Atom:
    """"the 14th": of the reference month, or of the month before when the reference date is earlier."""
    year, month = reference.year, reference.month
    if day > reference.day:
        previous = cal.add_months(date(year, month, 1), -1)
        year, month = previous.year, previous.month
    return _day_atom(match, year, month, day, zone=zone)


def _month_day(match: re.Match[str], month: int, day: int, reference: date, *, zone: tzinfo) -> Atom:
    year = cal.most_recent_month(month, reference)
    if (year, month) == (reference.year, reference.month) and day > reference.day:
        year -= 1  # "June 14" said on June 1 means last year's
    return _day_atom(match, year, month, day, zone=zone)


def _is_month_word(match: re.Match[str], vocab: Vocabulary) -> bool:
    """Ambiguous month words ("may", "march") count only next to a date word or a range marker, or ending
    the message or a question ("what about may?": the verb never ends one)."""
    if match.group(1) not in vocab.ambiguous_months:
        return True
    before = match.string[: match.start()].split()[-1:] or [""]
    after = match.string[match.end():].split()[:1] or [""]
    return before[0] in vocab.month_context_before or after[0] in vocab.month_context_after or not after[0]


def find_atoms(text: str, vocab: Vocabulary, reference: date, *, zone: tzinfo) -> list[Atom]:
    """Every absolute date expression in `text`, most specific pattern first, without overlaps."""
    handlers = _handlers(vocab, reference, zone=zone)
    taken: list[tuple[int, int]] = []
    atoms: list[Atom] = []
    for name, pattern in _patterns(vocab).items():
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            atom = handlers[name](match)
            if atom is not None:
                taken.append((match.start(), match.end()))
                atoms.append(atom)
    return sorted(atoms, key=lambda a: a.start)


def resolve_month_only(atom: Atom, reference: date, year: int | None = None, *, zone: tzinfo) -> Atom:
    """Give a bare month its year: the given one, else the latest such month started by the reference date."""
    if atom.month_only is None:
        return atom
    chosen = year if year is not None else cal.most_recent_month(atom.month_only, reference)
    if atom.months_long == 3:
        label = f"Q{(atom.month_only + 2) // 3} {chosen}"
        return replace(atom, window=cal.months_window(chosen, atom.month_only, 3, label, zone), month_only=None)
    label = date(chosen, atom.month_only, 1).strftime("%B %Y")
    return replace(atom, window=cal.month_window(chosen, atom.month_only, label, zone), month_only=None)


def _season_in(atom: Atom, year: int, zone: tzinfo) -> Atom:
    assert atom.season is not None and atom.window is not None
    first, length = atom.season
    return replace(atom, window=cal.months_window(year, first, length, atom.window.label, zone), season=None)


def _contrasted_season(bare: Atom, atoms: list[Atom]) -> bool:
    """"This summer vs summer 2019": the same season with its year beside the bare one is the other side."""
    assert bare.season is not None
    return any(a is not bare and a.season is None and a.window is not None and a.window.start.month == bare.season[0]
               and (a.window.end.month - a.window.start.month) % 12 == bare.season[1] % 12 for a in atoms)


def context_year(atoms: list[Atom]) -> int | None:
    """The one calendar year the message's framing periods lie in ("closing out 2020's books", "the Q3
    2018 pack"), which a month or quarter named without a year belongs to; None when none or several.
    A framing period is longer than a month: "June 2020" beside "this June" is a contrast, not a frame."""
    # (a season named bare, "a rough summer ... back in 2016", is framed like a bare month, it frames nothing)
    dated = [a for a in atoms if a.window is not None and a.month_only is None and a.season is None]
    frames = [a for a in dated if a.window is not None and (a.window.end - a.window.start).days > 31]
    years = {a.window.start.year for a in frames if a.window is not None
             and a.window.start.year == (a.window.end - timedelta(microseconds=1)).year}
    return years.pop() if len(years) == 1 and len(years) == len({a.window.start.year for a in frames
                                                                   if a.window is not None}) else None


def _contrasted(bare: Atom, atoms: list[Atom]) -> bool:
    """"How did Q4 compare with Q4 2019?": the same quarter (or month) named with its year beside the bare one is
    the other side of a contrast, so the bare one is the latest such period, not the one in that year."""
    def months(window: TimeWindow) -> int:
        return (window.end.year - window.start.year) * 12 + window.end.month - window.start.month
    return bare.month_only is not None and any(
        a.window is not None and a.month_only is None and a.window.start.month == bare.month_only
        and months(a.window) == bare.months_long for a in atoms)


# "this June", "last march": a month placed by its own word, never by the year under discussion.
_QUALIFIED = re.compile(r"\b(?:this|last|next|past|previous|coming)\s+$")


def join_ranges(text: str, atoms: list[Atom], reference: date, vocab: Vocabulary, *, zone: tzinfo,
                year_of_context: int | None = None, relative_ends: frozenset[int] = frozenset(),
                year_of_focus: int | None = None) -> list[Atom]:
    """Merge "X to Y", "between X and Y", "Mar-May 2021" into one atom spanning [X.start, Y.end); a bare
    month or quarter takes `year_of_context` (else the one whole year the text names, else the latest).
    `relative_ends`: where a period qualified by a relative year ends ("Q4 last year" written "q4 2019"); its year
    is its own, no frame for the others ("Q1 vs Q4 last year" is this Q1).
    `year_of_focus`: the one year of the period discussed, which a message naming only bare months belongs to
    ("is that higher than may?" after June 2020 is May 2020), unless that month would not have started yet."""
    merged: list[Atom] = []
    year_of_context = year_of_context or context_year([a for a in atoms if a.end not in relative_ends])
    if year_of_context is None and year_of_focus is not None and atoms \
            and all(a.month_only is not None and not _QUALIFIED.search(text[:a.start]) for a in atoms) \
            and all(date(year_of_focus, a.month_only, 1) <= reference for a in atoms if a.month_only is not None):
        year_of_context = year_of_focus
    # (a range of bare months takes the year that frames the message, "summer 2016 ... June to August", or the dialog's;
    # not a year written after a comparison word, "apr thru jun vs same months 2020": that is the other side)
    range_year = None if _set_against_later(text, atoms, year_of_context) else year_of_context
    if year_of_context is not None:  # "we had a rough summer on 9 back in 2016": the summer of that year
        atoms = [_season_in(a, year_of_context, zone) if a.season is not None and not _contrasted_season(a, atoms)
                 else a for a in atoms]
    index = 0
    while index < len(atoms):
        left = atoms[index]
        right = atoms[index + 1] if index + 1 < len(atoms) else None
        gap = text[left.end:right.start].strip() if right else ""
        # "how much has it moved between march and june?" compares the two months; "between march and june" alone
        # is the span
        # "2018, 2019 and 2020" lists three periods; "compare 2019 and 2020" sets two side by side
        listed = bool(merged) and text[merged[-1].end:left.start].strip() in ("", ",")  # commas are dropped
        two_points = gap == "and" and (_CHANGE_BETWEEN.search(text[:left.start]) is not None or listed
                                       or _COMPARED_AND.search(text[:left.start]) is not None)
        # ("compare aug to june": set side by side; "compare it from june to august" is still the span)
        two_points = two_points or (gap == "to" and _COMPARED_AND.search(text[:left.start]) is not None
                                    and not re.search(r"\bfrom\s*$", text[:left.start]))
        if right is not None and gap in vocab.range_words and not left.problem and not right.problem \
                and not two_points:
            # ("july and august" in a dialog about 2019: the span takes the year the bare months share)
            right = resolve_month_only(right, reference, range_year if right.month_only is not None else None,
                                       zone=zone)
            assert right.window is not None
            year = right.window.start.year
            if left.month_only is not None and left.month_only > right.window.start.month:
                year -= 1  # "Nov - Feb 2021" starts in the previous year
            left = resolve_month_only(left, reference, year if left.month_only is not None else None, zone=zone)
            assert left.window is not None
            label = text[left.start:right.end]
            start = left.window.start
            if start >= right.window.end:  # "9 mar - may 2021": the left side took another year
                start = cal.shift(left.window, years=right.window.start.year - start.year).start
            if start < right.window.end:
                merged.append(Atom(left.start, right.end, TimeWindow(start, right.window.end, label), joined=True))
                index += 2
                continue
        shared: int | None = None if _contrasted(left, atoms) else year_of_context
        if right is not None and gap in ("or", "and", "nor", "and/or") and left.month_only is not None \
                and right.month_only is None and right.window is not None \
                and (right.window.end - right.window.start).days <= 31:
            # "in August or September 2020": the bare month shares the year written after its partner
            shared = right.window.start.year - (1 if left.month_only > right.window.start.month else 0)
        left = resolve_month_only(left, reference, shared, zone=zone)
        merged.append(_through_day(text, left, zone=zone) or left)
        index += 1
    return merged


_SET_AGAINST_WORD = re.compile(r"\b(?:vs|versus|against|compared|than)\b")


def _set_against_later(text: str, atoms: list[Atom], year: int | None) -> bool:
    """Whether the period giving `year` comes after a comparison word that follows the first bare month."""
    first_bare = next((a for a in atoms if a.month_only is not None), None)
    if year is None or first_bare is None:
        return False
    return any(a.window is not None and a.month_only is None and a.window.start.year == year and a.start > first_bare.end
               and _SET_AGAINST_WORD.search(text[first_bare.end:a.start]) for a in atoms)


# A verb of change before "between X and Y": the change from X to Y, two periods rather than one span.
_CHANGE_BETWEEN = re.compile(r"\b(?:mov|chang|shift|ris|rose|fall|fell|drop|drift|gone|went|increas|decreas|differ|"
                             r"grow|grew|climb|jump|compar)\w*\b(?: [\w,%/]+){0,4}? between\s*$")


# "compare 2019 and 2020", "2019 vs ... ": a comparison verb in the words just before the first period.
_COMPARED_AND = re.compile(r"\b(?:compar\w*|contrast\w*)\b(?: [\w,%/]+){0,5}?\s*$")


# "june 7 to 13", "jun 7th - the 13th": a day, a range word, and a later day of the same month.
_TO_DAY = re.compile(r"\s*(?:to|through|thru|till|until|-|\u2013|and)\s*(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b"
                     r"(?!\s*(?:%|[:.]\d|(?:days?|weeks?|months?|years?|hours?|hrs?|am|pm|degf?|kw|tons?)\b))")


def _through_day(text: str, left: Atom, *, zone: tzinfo) -> Atom | None:
    """A single day followed by "to 13": the range to that day of its month, inclusive."""
    if left.window is None or left.joined or left.window.end - left.window.start != timedelta(days=1):
        return None
    match = _TO_DAY.match(text, left.end)
    if match is None:
        return None
    first = left.window.start.date()
    last_day = int(match.group(1))
    if not first.day < last_day <= cal.days_in_month(first.year, first.month):
        return None
    label = text[left.start:match.end()]
    return Atom(left.start, match.end(), cal.window(first, first.replace(day=last_day) + timedelta(days=1), label,
                                                    zone), joined=True)


# "at 2pm", "2:15 pm", "at 14:30", "at noon": a time of day (minutes past midnight are read, the date is not).
_CLOCK = re.compile(r"\b(?:at |around |about |near |by )?(\d{1,2})(?::(\d{2}))? ?(am|pm)\b|"
                    r"\b(?:at|around|about|near|by) (\d{1,2}):(\d{2})\b|\b(?:at|around) (noon|midday|midnight)\b")


def time_of_day(text: str) -> tuple[int, int] | None:
    """(hour, minute) of the first time of day in the normalised `text`, None when it names none."""
    match = _CLOCK.search(text)
    if match is None:
        return None
    if match.group(6):
        return (0, 0) if match.group(6) == "midnight" else (12, 0)
    if match.group(1):
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if not 1 <= hour <= 12:
            return None
        return (hour % 12 + (12 if match.group(3) == "pm" else 0), minute)
    hour, minute = int(match.group(4)), int(match.group(5))
    if hour < 12 and _LATER_IN_THE_DAY.search(text[:match.start()]):
        hour += 12  # "yesterday afternoon around 3:15": 15:15
    return (hour, minute) if hour < 24 and minute < 60 else None


# "afternoon", "evening": a clock time written after them is past noon
_LATER_IN_THE_DAY = re.compile(r"\b(?:afternoon|evening|tonight)\b(?:\W+\w+){0,3}\W*$")
