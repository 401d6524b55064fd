"""Which part of the site a whole-site request keeps: the chillers with telemetry, or those without.

The MAIN site has chillers that report sensor data and chillers known only from their work orders. An
engineer narrows a site-wide question by that line ("of the four monitored chillers, which ...?",
"looking only at the units we don't have sensors on, ..."). The rule is structural: a word for sensor
data next to a plural word for the site's machines, and a negation in between or a negating prefix
decides the side. Pure: text in, a side (or none) out.
"""

from __future__ import annotations

import re
from typing import Literal

Subset = Literal["telemetry", "no_telemetry"]

# ("of the 4 with sensors": a count standing for the machines)
_MACHINES = r"(?:chillers|units|ones|machines|assets|others|(?:other|the) (?:two|three|four|five|2|3|4|5))"
_SENSED = r"(?:un)?(?:monitored|instrumented|metered)|monitor|sensors?|telemetry|sensor data|trend data|data feeds?|readings|bms"
_NEGATIONS = re.compile(r"\b(?:no|not|without|don't|dont|do not|does not|doesn't|lack|lacking|never|aren't|isn't|"
                        r"are not|is not|none)\b|\bun(?:monitored|instrumented|metered)\b")
# "monitored chillers", "the unmonitored units": the sensed word before the machines.
_BEFORE = re.compile(rf"\b({_SENSED}) {_MACHINES}\b")
# "the chillers we don't have sensors on", "units with telemetry", "ones without any data feed", "the chillers that
# only have maintenance records - no sensors": up to eight words between the machines and the sensed word, inside
# one clause (a dash sets off an aside, it ends no clause).
_AFTER = re.compile(rf"\b{_MACHINES}\b((?: (?![,.;?!])[\w'-]+){{0,8}}?) ({_SENSED})\b")


# "for the ones without, who had the most ...?", "and the ones with?": the sensed word left out, which only the
# dialog's last question (which chillers report sensor data) supplies.
_ELLIPTICAL = re.compile(rf"\b{_MACHINES} (with|without)(?= (?:who|whose|which|what|how|when|where|is|are|was|were|"
                         r"has|have|had|did|do|does)\b| \?|$)")


# "the units with only work orders", "ones that just have WOs", "the work-order-only chillers": known from their records
# alone, which is the side without sensor data
_RECORDS = r"(?:work[- ]?orders?|wos|maintenance records|maintenance history|records|tickets)"
_RECORDS_ONLY = re.compile(rf"\b{_MACHINES}\b(?: [\w']+){{0,4}}? (?:only|just) (?:have |has |had |with |got )?"
                           rf"(?:the |their |a |any )?{_RECORDS}\b|\b(?:work[- ]?orders?|wo|records)[- ]only {_MACHINES}\b")


def telemetry_subset(text: str, *, sensing_asked: bool = False) -> Subset | None:
    """The side of the site the normalised `text` narrows a whole-site request to, or None.

    `sensing_asked`: the dialog has just asked which chillers report sensor data, so "the ones without" says the
    side without the sensed word."""
    lowered = text.lower()
    elliptical = _ELLIPTICAL.search(lowered) if sensing_asked else None
    if elliptical is not None:
        return "no_telemetry" if elliptical.group(1) == "without" else "telemetry"
    if _RECORDS_ONLY.search(lowered):
        return "no_telemetry"
    before = _BEFORE.search(lowered)
    if before is not None:
        return "no_telemetry" if _NEGATIONS.search(before.group(1)) else "telemetry"
    after = _AFTER.search(lowered)
    if after is None:
        return None
    between = f"{after.group(1)} {after.group(2)}"
    if after.group(2) in ("readings", "data feed", "data feeds") and not _NEGATIONS.search(between) \
            and " with" not in f" {after.group(1)} ":
        return None  # "the units' readings" is what is read, not which units
    return "no_telemetry" if _NEGATIONS.search(between) else "telemetry"
