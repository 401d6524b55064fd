"""Pure corrective-work bundling: orders on one asset close enough in time to have been one visit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from specialists.maintenance.history import hours, parse_finish

# Rule (stated in every answer): corrective orders on the same equipment whose finish times fall
# within BUNDLE_WINDOW_DAYS of the first order of a group could have been done in one visit. A
# visit saved saves the mobilisation effort (travel, permits, isolation, lock-out, start-up checks).
BUNDLE_WINDOW_DAYS = 14
MOBILISATION_HOURS = 3.0


@dataclass
class Bundle:
    """A group of corrective orders that one visit could have covered."""

    equipment_id: str
    start: datetime
    end: datetime
    orders: list[dict[str, Any]]

    @property
    def visits_saved(self) -> int:
        return len(self.orders) - 1

    @property
    def labour_hours(self) -> float:
        return sum(hours(o.get("actual_labor_hours")) for o in self.orders)

    def as_dict(self) -> dict[str, Any]:
        return {
            "equipment_id": self.equipment_id, "start": self.start.date().isoformat(),
            "end": self.end.date().isoformat(), "span_days": (self.end - self.start).days,
            "wo_ids": [o.get("wo_id") for o in self.orders],
            "codes": [o.get("primary_code") for o in self.orders],
            "visits_saved": self.visits_saved, "labour_hours": round(self.labour_hours, 1),
            "hours_saved": round(self.visits_saved * MOBILISATION_HOURS, 1),
        }


def bundle_corrective(orders: list[dict[str, Any]], *, window_days: int = BUNDLE_WINDOW_DAYS) -> list[Bundle]:
    """Greedy grouping per equipment: a group starts at an order and takes every later corrective
    order finishing within `window_days` of that first one. Only groups of two or more are bundles."""
    by_equipment: dict[str, list[tuple[datetime, dict[str, Any]]]] = {}
    for order in orders:
        when = parse_finish(order.get("actual_finish"))
        if when is None or order.get("preventive"):
            continue
        by_equipment.setdefault(str(order.get("equipment_id")), []).append((when, order))
    bundles: list[Bundle] = []
    for equipment, items in sorted(by_equipment.items()):
        items.sort(key=lambda p: p[0])
        i = 0
        while i < len(items):
            first = items[i][0]
            group = [p for p in items[i:] if p[0] - first <= timedelta(days=window_days)]
            if len(group) >= 2:
                bundles.append(Bundle(equipment, first, group[-1][0], [o for _, o in group]))
            i += len(group)
    return bundles


def savings(bundles: list[Bundle]) -> dict[str, float]:
    """Visits and mobilisation hours the bundles would have saved."""
    visits = sum(b.visits_saved for b in bundles)
    return {"bundles": len(bundles), "visits_saved": visits, "hours_saved": visits * MOBILISATION_HOURS}
