"""Alert -> maintenance transitions on the merged, time-ordered stream of alerts and work orders.

Definition (the project's fix of the reference, see TOOL_CONTRACT.md §8.9): an alert occurrence is
followed by maintenance when a work order of the same equipment finishes at or after the alert's
start and at most `FOLLOW_UP_WINDOW` (7 days) later. Every occurrence is judged on its own, so a
burst of repeated alerts before one repair counts each firing as followed; the hours to maintenance
run from the alert start to the first such work order. Seven days is long enough for a planned
corrective visit and short enough that routine preventive work weeks later does not count.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

FOLLOW_UP_WINDOW = timedelta(days=7)
WORK_ORDER = "WORK_ORDER"
NO_MAINTENANCE = "No Maintenance"
_HOURS_DECIMALS = 2
_PROBABILITY_DECIMALS = 4


@dataclass(frozen=True)
class TimedWorkOrder:
    """A work order reduced to what the analysis needs."""

    finished: datetime
    wo_id: str
    preventive: bool


@dataclass(frozen=True)
class AlertOutcome:
    """What followed one alert occurrence: the first work order inside the window, if any."""

    alert_start: datetime
    work_order: TimedWorkOrder | None

    @property
    def hours_to_maintenance(self) -> float | None:
        if self.work_order is None:
            return None
        return (self.work_order.finished - self.alert_start).total_seconds() / 3600.0


def alert_outcomes(
    alert_starts: Sequence[datetime],
    work_orders: Sequence[TimedWorkOrder],
    window: timedelta = FOLLOW_UP_WINDOW,
) -> list[AlertOutcome]:
    """For each alert (in time order) the first work order finishing in [start, start + window]."""
    ordered = sorted(work_orders, key=lambda wo: wo.finished)  # stable: storage order breaks ties
    finishes = [wo.finished for wo in ordered]
    outcomes = []
    for start in sorted(alert_starts):
        index = bisect.bisect_left(finishes, start)
        follow_up = ordered[index] if index < len(ordered) and finishes[index] - start <= window else None
        outcomes.append(AlertOutcome(start, follow_up))
    return outcomes


def transition_summary(outcomes: Sequence[AlertOutcome]) -> list[dict[str, Any]]:
    """Contract transitions: probability per outcome, mean hours to maintenance, most frequent first.

    Only outcomes that occurred are listed (as the reference's value counts). Extra keys: `count`,
    and for WORK_ORDER `corrective_count` (how many follow-ups were corrective work orders).
    """
    if not outcomes:
        return []
    followed = [o for o in outcomes if o.work_order is not None]
    items: list[dict[str, Any]] = []
    if followed:
        hours = [o.hours_to_maintenance or 0.0 for o in followed]
        items.append({
            "transition": WORK_ORDER,
            "probability": round(len(followed) / len(outcomes), _PROBABILITY_DECIMALS),
            "average_hours_to_maintenance": round(sum(hours) / len(hours), _HOURS_DECIMALS),
            "count": len(followed),
            "corrective_count": sum(1 for o in followed if o.work_order and not o.work_order.preventive),
        })
    missed = len(outcomes) - len(followed)
    if missed:
        items.append({
            "transition": NO_MAINTENANCE,
            "probability": round(missed / len(outcomes), _PROBABILITY_DECIMALS),
            "average_hours_to_maintenance": None,
            "count": missed,
        })
    items.sort(key=lambda item: (-item["count"], item["transition"]))
    return items
