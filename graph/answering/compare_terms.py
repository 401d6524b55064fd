"""The grammar of a comparative question: which way it asks, who is compared with whom, and when.

Pure reading of the user's words, never of a dialog's phrasing: "is 6 breaking down MORE than 4",
"is 3 LESS EFFICIENT than 9", "fewer alerts this month THAN last". The subject is what stands before
"than" (or the first thing named); the reference is what follows it, or every other asset when the
question says "than anywhere else". Periods are written as people say them ("in 2020", "in June 2020").
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Literal

from artifacts.model import Artifact

Sense = Literal["higher", "lower"]

# Phrasal verbs whose "down"/"up" is no direction ("breaking down", "down to the condenser", "set up").
_PHRASAL = re.compile(r"\b(break\w*|broke|shut\w*|slow\w*|track\w*|narrow\w*|wind\w*) (down|up)\b|\bdown to\b|"
                      r"\b(set|start\w*|warm\w*|back|pick\w*|fire\w*|show\w*|turn\w*|follow\w*|end\w*|keep\w*) up\b",
                      re.I)
# "the worse one of the first pair", "the better chiller": a comparative naming the one picked, not the comparison asked
_PICKED_BY_COMPARATIVE = re.compile(r"\bthe (?:worse|better|worst|best|higher|lower) (?:one|chiller|unit|machine|of)\b",
                                    re.I)
_WORSE_EFFICIENCY = re.compile(r"\b(less|lower|poorer|worse|reduced)\s+(energy\s+)?efficien\w*|\binefficien\w*|"
                               # "which one slipped the most on efficiency?", "lost ground on efficiency": got worse at it
                               r"\b(?:slipp\w*|lost ground|lost the most|declin\w*|deteriorat\w*|degrad\w*)\b(?: \w+){0,3}? "
                               r"(?:on|in) (?:energy )?efficien\w*", re.I)
_BETTER_EFFICIENCY = re.compile(r"\b(more|higher|better|greater)\s+(energy\s+)?efficien\w*", re.I)
_WORSE = re.compile(r"\b(worse|poorer|bad|badly)\b", re.I)
_BETTER = re.compile(r"\b(better|improv\w*|healthier)\b", re.I)
# (a level put up beside another period, "aug 2018 low? compare to aug 2017", asks which way too: "high", "low")
_HIGHER = re.compile(r"\b(more|higher|greater|above|exceed\w*|most|increas\w*|ris\w*|up|frequent\w*|often\w*|"
                     r"busier|louder|hotter|warmer|bigger|larger|heavier|harder|high|elevated|hot|warm|climb\w*)\b", re.I)
_LOWER = re.compile(r"\b(less|fewer|lower|below|smaller|least|decreas\w*|drop\w*|fall\w*|down|rarer|quieter|"
                    r"colder|cooler|lighter|sag\w*|sinking|sank|slipp\w*|slump\w*|low|cold|slid\w*|declin\w*)\b", re.I)
_EVERY_OTHER = re.compile(r"\bthan\s+(anywhere|anyone|anything|any (other|of the)|all|every|the (other|rest)\w*|"
                          r"(the )?others?\b|elsewhere)", re.I)
_HALF_DAY = timedelta(hours=12)
_THAN = re.compile(r"\b(than|versus|vs\.?|compared (to|with)|against)\b", re.I)


def comparison_sense(question: str, *, higher_is_worse: bool) -> Sense | None:
    """Which way the question asks the subject's figure to differ from the reference's ("higher" or
    "lower"), None when it has no comparative word. `higher_is_worse`: for kW/ton, breakdowns and
    alerts a higher figure is the worse one, so "worse" asks for higher and "better" for lower."""
    text = _PICKED_BY_COMPARATIVE.sub(" ", _PHRASAL.sub(" ", question))
    if _WORSE_EFFICIENCY.search(text):  # "less efficient": more kW per ton, although it says "less"
        return "higher"
    if _BETTER_EFFICIENCY.search(text):
        return "lower"
    if _WORSE.search(text):
        return "higher" if higher_is_worse else "lower"
    if _BETTER.search(text):
        return "lower" if higher_is_worse else "higher"
    higher, lower = _HIGHER.search(text), _LOWER.search(text)
    if higher and lower:  # "more ... or less?": the first one asked
        return "higher" if higher.start() < lower.start() else "lower"
    return "higher" if higher else "lower" if lower else None


def against_all_others(question: str) -> bool:
    """ "... than anywhere else", "than the others": the subject against every other one."""
    return bool(_EVERY_OTHER.search(question))


def _aliases(asset: str) -> list[re.Pattern[str]]:
    """How a user may write an asset: its name, its number after a marker ("ch9", "#6", "unit 6", "the 6"),
    or the bare number next to a comparison word ("3 or 9", "than 4")."""
    number = asset.rsplit(" ", 1)[-1]
    if not number.isdigit():
        return [re.compile(re.escape(asset), re.I)]
    return [re.compile(rf"\b{re.escape(asset)}\b", re.I),
            re.compile(rf"(\b(ch|chiller|chlr|unit|no\.?|the|number)\s*|#){number}\b(?![.,]\d)", re.I),
            re.compile(rf"\b{number}\b(?=\s*(or|and|than|vs\.?|versus)\b)|\b(or|and|than|vs\.?|versus)\s+{number}\b",
                       re.I)]


def mention_position(question: str, names: list[str]) -> int | None:
    """Where the question first names any of `names` (an asset name, its number, an equipment id)."""
    found = [m.start() for name in names if name for pattern in _aliases(name) if (m := pattern.search(question))]
    return min(found) if found else None


def subject_first(question: str, candidates: list[tuple[str, list[str]]]) -> list[str]:
    """The candidates' keys, the question's subject first: a candidate named before "than" leads, one named
    after it follows; unnamed ones keep their order after the named ones (the answering order)."""
    than = _THAN.search(question)
    cut = than.start() if than else len(question)
    ranked = []
    for order, (key, names) in enumerate(candidates):
        where = mention_position(question, names)
        side = 2 if where is None else 0 if where < cut else 1
        # Named after "than" only: the reference; when nothing is named before it, the unnamed one is the subject.
        ranked.append((side, where if where is not None else order, order, key))
    if than and not any(side == 0 for side, *_ in ranked):
        ranked = [(0 if side == 2 else side, where, order, key) for side, where, order, key in ranked]
    return [key for *_, key in sorted(ranked)]


def period_phrase(start: datetime | None, end: datetime | None) -> str:
    """A window as people say it: "in 2020", "in June 2020", "on 2021-06-15", "from 2021-03-01 to 2021-06-20"
    ('' when open).
    `end` is exclusive; a window cut short by the reference date still reads as its calendar unit."""
    if start is None or end is None:
        return ""
    # Stored bounds are UTC instants of site-local midnights: half a day inward gives the local dates.
    first, last = (start + _HALF_DAY).date(), (end - _HALF_DAY).date()
    if first == last:
        return f"on {first:%Y-%m-%d}"
    after = last + timedelta(days=1)
    if first.day == 1 and first.month % 3 == 1 and after.day == 1 \
            and (after.year * 12 + after.month) - (first.year * 12 + first.month) == 3:
        return f"in Q{first.month // 3 + 1} {first.year}"  # a whole quarter ("Q1, Q2 and Q3 this year")
    if (first.month, first.day) == (1, 1) and last.year == first.year:
        return f"in {first.year}"
    if first.day == 1 and (last.year, last.month) == (first.year, first.month):
        return f"in {first:%B %Y}"
    return f"from {first:%Y-%m-%d} to {(end + _HALF_DAY).date():%Y-%m-%d}"


def window_phrase(artifact: Artifact) -> str:
    """The artifact's window as people say it (graph/answering/compare_terms.period_phrase)."""
    return period_phrase(artifact.window_start, artifact.window_end)


def window_days(artifact: Artifact) -> float | None:
    """The window's length in days, None when open."""
    if artifact.window_start is None or artifact.window_end is None:
        return None
    return max((artifact.window_end - artifact.window_start).total_seconds() / 86400, 0.0)
