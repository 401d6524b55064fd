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

_MACHINES = r"(?:chillers|units|ones|machines|assets|others|other (?:two|three|four|2|3|4))"
_SENSED = r"(?:un)?(?:monitored|instrumented|metered)|monitor|sensors?|telemetry|sensor data|trend data|data feeds?|readings|bms"
_NEGATIONS = re.compile(r"\b(?:no|not|without|don't|dont|do not|does not|doesn't|lack|lacking|never|aren't|isn't|"
                        r"are not|is not|none)\b|\bun(?:monitored|instrumented|metered)\b")
# "monitored chillers", "the unmonitored units": the sensed word before the machines.
_BEFORE = re.compile(rf"\b({_SENSED}) {_MACHINES}\b")
# "the chillers we don't have sensors on", "units with telemetry", "ones without any data feed", "the chillers that
# only have maintenance records - no sensors": up to eight words between the machines and the sensed word, inside
# one clause (a dash sets off an aside, it ends no clause).
_AFTER = re.compile(rf"\b{_MACHINES}\b((?: (?![,.;?!])[\w'-]+){{0,8}}?) ({_SENSED})\b")


def telemetry_subset(text: str) -> Subset | None:
    """The side of the site the normalised `text` narrows a whole-site request to, or None."""
    lowered = text.lower()
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
