"""How far an asset's telemetry reaches, found with the contract's `iot.history` alone.

The iot tools have no coverage call, so two cheap probes answer "over what dates": one read from
long before any data (its first row is the asset's first sample) and one from the day before the
session's reference date (its last row before that date is the latest sample "as of now"). When a
probe finds nothing, the tool's error states the asset's whole coverage, which is parsed instead.
The sample count is estimated from the span at the 15-minute grid unless the tool stated it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from specialists.base import ToolOutcome

EARLIEST_PROBE = "2000-01-01"  # before any chiller telemetry: the first row returned is the first sample
SAMPLE_SPACING = timedelta(minutes=15)
_COVERED = re.compile(r"its data covers (\S+) to (\S+) \((\d+) observations\)")


@dataclass(frozen=True)
class Coverage:
    """The asset's telemetry span as of the reference date (local ISO timestamps)."""

    first: str | None = None
    last: str | None = None
    samples: int | None = None
    samples_exact: bool = False
    later_data: bool = False  # the store holds samples after the reference date
    problem: str = ""  # why a bound is unknown

    def as_dict(self) -> dict[str, Any]:
        """The artifact's `results["coverage"]`."""
        return {"first": self.first, "last": self.last, "samples": self.samples,
                "samples_exact": self.samples_exact, "later_data": self.later_data}


def probe_calls(asset_id: str, reference: date, site: str) -> list[tuple[str, dict[str, Any]]]:
    """The two `iot.history` probes: the first samples, and the day before the reference date onward."""
    return [
        ("iot.history", {"site_name": site, "asset_id": asset_id, "start": EARLIEST_PROBE,
                         "final": reference.isoformat()}),
        ("iot.history", {"site_name": site, "asset_id": asset_id,
                         "start": (reference - timedelta(days=1)).isoformat()}),
    ]


def parse_covered(error: str) -> tuple[str, str, int] | None:
    """(first, last, count) from an empty-window error ("its data covers A to B (N observations)")."""
    match = _COVERED.search(error or "")
    return (match.group(1), match.group(2), int(match.group(3))) if match else None


def _stamps(outcome: ToolOutcome) -> list[datetime]:
    rows = (outcome.output.get("observations") or []) if outcome.ok else []
    return sorted(datetime.fromisoformat(str(r["timestamp"])) for r in rows if r.get("timestamp"))


def _estimate(first: str, last: str) -> int:
    span = datetime.fromisoformat(last) - datetime.fromisoformat(first)
    return int(span / SAMPLE_SPACING) + 1


def coverage_from_probes(first_probe: ToolOutcome, last_probe: ToolOutcome, reference: date,
                         zone: ZoneInfo) -> Coverage:
    """The coverage the two probes show (pure: reads their outputs or error messages); naive stamps
    are read in the site's `zone`."""
    stated = parse_covered(str(first_probe.error or "")) or parse_covered(str(last_probe.error or ""))
    if stated:  # an empty probe: the tool stated the whole coverage
        return Coverage(stated[0], stated[1], stated[2], samples_exact=True)
    cutoff = datetime.combine(reference, datetime.min.time(), tzinfo=zone)
    head = _stamps(first_probe)
    recent = _stamps(last_probe)
    before = [s for s in recent if _aware(s, zone) < cutoff]
    later = any(_aware(s, zone) >= cutoff for s in recent) or bool(last_probe.ok and last_probe.output.get("truncated"))
    first = head[0].isoformat() if head else None
    last = before[-1].isoformat() if before else None
    problem = "" if first and last else str(first_probe.error or "") if not head else (
        "no samples on the day before the reference date"
        + (f"; the data resumes at {_shown(recent[0].isoformat())}" if recent else ""))
    samples = _estimate(first, last) if first and last else None
    return Coverage(first, last, samples, later_data=later, problem=problem)


def _aware(moment: datetime, zone: ZoneInfo) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def _shown(stamp: str) -> str:
    moment = datetime.fromisoformat(stamp)
    return f"{moment:%Y-%m-%d %H:%M}"


def coverage_text(coverage: Coverage, reference: date) -> str:
    """`telemetry from 2016-01-01 00:00 to 2021-06-30 23:45 (...), about 192,768 samples (...)`."""
    if not (coverage.first and coverage.last):
        start = f"telemetry from {_shown(coverage.first)}; " if coverage.first else ""
        return f"{start}the end of its data is unknown ({coverage.problem or 'no samples found'})"
    text = f"telemetry from {_shown(coverage.first)} to {_shown(coverage.last)}"
    if coverage.samples_exact:
        return text + f", {coverage.samples:,} samples"
    text += f" (the latest sample before the reference date {reference.isoformat()}"
    text += "; the store also holds later samples)" if coverage.later_data else ")"
    return text + f", about {coverage.samples:,} samples (estimated at the 15-minute grid)"
