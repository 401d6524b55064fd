"""Answers to questions that ask one statistic of a telemetry window: the peak or the low of a reading
("what's the peak tonnage it hit?"), and how long the chiller ran ("how many hours did it run?").

The window's summary leads with the mean; these questions ask for another figure, so it is said first.
Pure: the question and the turn's artifacts in, a sentence (or None) out.
"""

from __future__ import annotations

import re

from artifacts.model import Artifact
from artifacts.readings import running_share, stats_of
from graph.answering.asked_figures import asked_sensors
from graph.answering.compare_terms import window_phrase
from graph.answering.markdown import number

_PEAK = re.compile(r"\b(peak\w*|max(?:imum)?|highest|top out|topped out|get up to|got up to)\b", re.I)
_LOW = re.compile(r"\b(min(?:imum)?|lowest|bottom\w* out|get down to|got down to)\b", re.I)
_RUN_TIME = re.compile(r"\bhow (?:many|much) (?:hours|time|days)\b.*\b(?:run|ran|running|operat\w*|on)\b|"
                       r"\b(?:run|running|operating) (?:hours|time)\b|\bhours (?:run|of running|on)\b", re.I)
_HOURS_PER_DAY = 24


def _windows(artifacts: list[Artifact]) -> list[Artifact]:
    return [a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids and stats_of(a)]


def extreme_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Chiller 4 peaked at 591.4 tons of tonnage in June 2021 (383.8 tons on average while running)." for a
    question asking the peak (or the low) of one named reading."""
    peak, low = bool(_PEAK.search(question)), bool(_LOW.search(question))
    named = asked_sensors(question)
    if peak == low or len(named) != 1:
        return None
    for art in _windows(artifacts):
        asset = art.asset_ids[0]
        for name, entry in stats_of(art).items():
            if name.removeprefix(f"{asset} ") != named[0]:
                continue
            value = entry.get("max" if peak else "min")
            if not isinstance(value, (int, float)):
                continue
            unit = str(entry.get("unit") or "")
            mean = entry.get("running_mean")
            average = f" ({number(float(mean), unit)} on average while running)" if isinstance(mean, (int, float)) else ""
            when = window_phrase(art)
            return (f"{asset} {'peaked at' if peak else 'bottomed out at'} {number(float(value), unit)} of "
                    f"{named[0].lower()}{f' {when}' if when else ''}{average}.")
    return None


def run_time_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Chiller 4 ran about 389 hours in June 2021 (54% of the time)." for "how many hours did it run?"."""
    if not _RUN_TIME.search(question):
        return None
    parts = []
    for art in _windows(artifacts):
        share = running_share(art)
        if share is None or art.window_start is None or art.window_end is None:
            continue
        hours = share * (art.window_end - art.window_start).total_seconds() / 3600
        when = window_phrase(art)
        parts.append(f"{art.asset_ids[0]} ran about {hours:,.0f} hours{f' {when}' if when else ''} "
                     f"({share:.0%} of the time, {hours / _HOURS_PER_DAY:.1f} days)")
    return "; ".join(parts) + "." if parts else None
