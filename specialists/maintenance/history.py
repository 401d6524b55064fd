"""Pure work-order history analysis: counts, trends, intervals between corrective work."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from statistics import mean
from typing import Any


def parse_finish(value: Any) -> datetime | None:
    """`actual_finish` as a naive site-local datetime (None when missing or unparseable)."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value)).replace(tzinfo=None)
    except ValueError:
        return None


def hours(value: Any) -> float:
    """'3:30' -> 3.5 hours; numbers pass through; anything else is 0."""
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and ":" in value:
        h, _, m = value.partition(":")
        try:
            return int(h) + int(m) / 60.0
        except ValueError:
            return 0.0
    return 0.0


@dataclass
class WorkOrderSummary:
    """What a maintenance engineer wants first from a work-order history."""

    total: int
    preventive: int
    corrective: int
    per_year: dict[int, dict[str, int]] = field(default_factory=dict)  # year -> {"preventive", "corrective"}
    top_codes: list[tuple[str, str, int]] = field(default_factory=list)  # (code, description, count)
    corrective_trend_per_year: float | None = None  # least-squares slope of corrective orders per year
    mean_days_between_corrective: float | None = None
    first: str | None = None
    last: str | None = None
    recent: list[dict[str, Any]] = field(default_factory=list)
    # the latest order of each distinct job ("when was it last cleaned?"), newest first
    latest_per_job: list[dict[str, Any]] = field(default_factory=list)
    labor_hours: float = 0.0  # actual labour booked on the orders ("how much labour did those take?")
    corrective_labor_hours: float = 0.0
    per_month: dict[str, int] = field(default_factory=dict)  # "2019-07" -> orders finished that month, in order

    def as_results(self) -> dict[str, Any]:
        return {
            "total": self.total, "preventive": self.preventive, "corrective": self.corrective,
            "per_year": {str(y): v for y, v in sorted(self.per_year.items())},
            "top_codes": [{"code": c, "description": d, "count": n} for c, d, n in self.top_codes],
            "corrective_trend_per_year": self.corrective_trend_per_year,
            "mean_days_between_corrective": self.mean_days_between_corrective,
            "first": self.first, "last": self.last, "recent": self.recent, "latest_per_job": self.latest_per_job,
            "labor_hours": self.labor_hours, "corrective_labor_hours": self.corrective_labor_hours,
            "per_month": self.per_month,
        }


def _slope(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 2:
        return None
    mx, my = mean(xs), mean(ys)
    denom = sum((x - mx) ** 2 for x in xs)
    return None if denom == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / denom


_JOBS_KEPT = 40  # distinct jobs remembered with their latest order (a chiller's history has a few dozen)


def _order_ref(when: datetime | None, order: dict[str, Any]) -> dict[str, Any]:
    return {"wo_id": order.get("wo_id"), "date": when.date().isoformat() if when else None,
            "code": order.get("primary_code"),
            "description": order.get("wo_description") or order.get("primary_code_description"),
            "preventive": bool(order.get("preventive")), "labor_hours": hours(order.get("actual_labor_hours"))}


def _latest_per_job(dated: list[tuple[datetime | None, dict[str, Any]]]) -> list[dict[str, Any]]:
    latest: dict[str, dict[str, Any]] = {}
    for when, order in reversed(dated):  # newest first: the first seen of a job is its latest
        job = str(order.get("wo_description") or order.get("primary_code_description") or order.get("primary_code"))
        if when is not None and job not in latest:
            latest[job] = _order_ref(when, order)
    return list(latest.values())[:_JOBS_KEPT]


def summarise_work_orders(orders: list[dict[str, Any]], *, top: int = 10, recent: int = 5,
                          until: date | None = None) -> WorkOrderSummary:
    """Summarise work orders shaped as the `wo` tools return them (any mix of preventive/corrective).

    `until` (the dialog's reference date) marks its year as partial: a half year of orders would
    read as a sharp drop, so the trend uses complete years only.
    """
    dated = sorted(((parse_finish(o.get("actual_finish")), o) for o in orders), key=lambda p: p[0] or datetime.min)
    per_year: dict[int, dict[str, int]] = {}
    for when, order in dated:
        if when is None:
            continue
        bucket = per_year.setdefault(when.year, {"preventive": 0, "corrective": 0})
        bucket["preventive" if order.get("preventive") else "corrective"] += 1
    codes = Counter((o.get("primary_code") or "?", o.get("primary_code_description") or "") for o in orders)
    top_codes = [(code, desc, n) for (code, desc), n in sorted(codes.items(), key=lambda kv: (-kv[1], kv[0][0]))][:top]
    corrective_times = [w for w, o in dated if w is not None and not o.get("preventive")]
    gaps = [(b - a).total_seconds() / 86400 for a, b in itertools.pairwise(corrective_times)]
    years = [y for y in sorted(per_year) if until is None or y < until.year or until == date(y, 12, 31)]
    trend = _slope([float(y) for y in years], [float(per_year[y]["corrective"]) for y in years]) if years else None
    known = [w for w, _ in dated if w is not None]
    return WorkOrderSummary(
        total=len(orders),
        preventive=sum(1 for o in orders if o.get("preventive")),
        corrective=sum(1 for o in orders if not o.get("preventive")),
        per_year=per_year,
        top_codes=top_codes,
        corrective_trend_per_year=round(trend, 3) if trend is not None else None,
        mean_days_between_corrective=round(mean(gaps), 1) if gaps else None,
        first=known[0].date().isoformat() if known else None,
        last=known[-1].date().isoformat() if known else None,
        recent=[_order_ref(w, o) for w, o in dated[-recent:]][::-1],
        latest_per_job=_latest_per_job(dated),
        labor_hours=round(sum(hours(o.get("actual_labor_hours")) for o in orders), 1),
        corrective_labor_hours=round(sum(hours(o.get("actual_labor_hours")) for o in orders
                                         if not o.get("preventive")), 1),
        per_month=dict(sorted(Counter(w.strftime("%Y-%m") for w in known).items())),
    )


def corrective_years(summary: WorkOrderSummary, reference: date) -> dict[str, Any]:
    """Corrective orders per complete calendar year (the answer to "are breakdowns getting more
    frequent?") and the partial year of the reference date, which a trend must not read as a drop."""
    complete = reference == date(reference.year, 12, 31)
    last = reference.year if complete else reference.year - 1
    first = min(summary.per_year, default=last + 1)
    # A year without orders is a zero, not a gap: it belongs in the trend.
    per_year = {str(y): summary.per_year.get(y, {}).get("corrective", 0) for y in range(first, last + 1)}
    partial = None if complete or reference.year not in summary.per_year else reference.year
    return {"corrective_per_year": per_year, "partial_year": partial,
            "partial_year_corrective": summary.per_year[partial]["corrective"] if partial else None}
