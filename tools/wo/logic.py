"""Pure domain logic of the work-order server: date windows, item shapes, distribution, Markov.

No I/O here: the tool layer reads rows through `tools.wo.queries` and hands plain values in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

PROBABILITY_DECIMALS = 4


@dataclass(frozen=True)
class DateWindow:
    """Inclusive bounds on naive site-local times (work orders, events and alerts are site-local).

    A date-only end means midnight at its start, so `end_date=2020-07-01` ends at 2020-07-01T00:00.
    """

    start: datetime | None = None
    end: datetime | None = None

    @classmethod
    def from_datetimes(cls, start: datetime | None, end: datetime | None) -> DateWindow:
        """Build from parsed arguments; aware values keep their wall-clock time (the data is site-local)."""
        return cls(_site_local(start), _site_local(end))

    def describe(self) -> str:
        """" between A and B" / " from A" / " until B" / "" for messages."""
        if self.start is not None and self.end is not None:
            return f" between {iso(self.start)} and {iso(self.end)}"
        if self.start is not None:
            return f" from {iso(self.start)}"
        if self.end is not None:
            return f" until {iso(self.end)}"
        return ""


def _site_local(moment: datetime | None) -> datetime | None:
    # The stored times carry no offset; comparing an aware argument with them needs one clock, and
    # the offset a user writes ("-04:00") is the site's own, so its wall-clock reading is the match.
    return moment.replace(tzinfo=None) if moment is not None else None


def iso(moment: datetime | None) -> str | None:
    """`YYYY-MM-DDTHH:MM:SS` (the contract's item time format), None for None."""
    return moment.isoformat(timespec="seconds") if moment is not None else None


def work_order_item(row: Mapping[str, Any]) -> dict[str, Any]:
    """A work-order row in the contract's item shape (§8.0)."""
    priority = row.get("work_priority")
    return {
        "wo_id": row.get("wo_id"),
        "wo_description": row.get("wo_description"),
        "collection": row.get("collection"),
        "primary_code": row.get("primary_code"),
        "primary_code_description": row.get("primary_code_description"),
        "secondary_code": row.get("secondary_code"),
        "secondary_code_description": row.get("secondary_code_description"),
        "equipment_id": row.get("equipment_id"),
        "equipment_name": row.get("equipment_name"),
        "preventive": bool(row.get("preventive")),
        "work_priority": int(priority) if priority is not None else None,
        "actual_finish": iso(row.get("actual_finish")),
        "duration": row.get("duration"),
        "actual_labor_hours": row.get("actual_labor_hours"),
    }


def event_item(row: Mapping[str, Any]) -> dict[str, Any]:
    """An event row in the contract's item shape (§8.4)."""
    return {
        "event_id": row.get("event_id"),
        "event_group": row.get("event_group"),
        "event_category": row.get("event_category"),
        "event_type": row.get("event_type"),
        "description": row.get("description"),
        "equipment_id": row.get("equipment_id"),
        "equipment_name": row.get("equipment_name"),
        "event_time": iso(row.get("event_time")),
        "note": row.get("note"),
    }


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def work_order_distribution(
    orders: Iterable[Mapping[str, Any]],
    failure_codes: Iterable[Mapping[str, Any]],
    primary_codes: Iterable[Mapping[str, Any]] = (),
) -> list[dict[str, Any]]:
    """Count work orders per (primary, secondary) code, most frequent first, ties by code.

    Every pair is kept (the reference dropped pairs missing from the failure-code table). Category and
    descriptions come from the failure-code table, else the primary-code table and the work order's
    own descriptions, else "". Orders without a primary code are not counted in any pair.
    """
    catalog = {(_text(fc["primary_code"]), _text(fc["secondary_code"])): fc for fc in failure_codes}
    primaries = {_text(pc["primary_code"]): pc for pc in primary_codes}
    counts: Counter[tuple[str, str]] = Counter()
    seen: dict[tuple[str, str], Mapping[str, Any]] = {}
    for order in orders:
        if not order.get("primary_code"):
            continue
        key = (_text(order["primary_code"]), _text(order.get("secondary_code")))
        counts[key] += 1
        seen.setdefault(key, order)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0][0], item[0][1]))
    return [_distribution_entry(key, count, catalog.get(key), primaries.get(key[0]), seen[key])
            for key, count in ranked]


def _distribution_entry(
    key: tuple[str, str],
    count: int,
    code: Mapping[str, Any] | None,
    primary: Mapping[str, Any] | None,
    order: Mapping[str, Any],
) -> dict[str, Any]:
    source = code or {}
    return {
        "category": _text(source.get("category") or (primary or {}).get("category")),
        "primary_code": key[0],
        "primary_code_description": _text(
            source.get("primary_code_description")
            or (primary or {}).get("primary_code_description")
            or order.get("primary_code_description")
        ),
        "secondary_code": key[1],
        "secondary_code_description": _text(
            source.get("secondary_code_description") or order.get("secondary_code_description")
        ),
        "count": count,
    }


def work_order_type_sequence(orders: Iterable[Mapping[str, Any]]) -> list[str]:
    """Primary codes in finish-time order (storage order breaks ties); undated or uncoded orders skipped."""
    dated = [
        (order["actual_finish"], position, _text(order["primary_code"]))
        for position, order in enumerate(orders)
        if order.get("actual_finish") is not None and order.get("primary_code")
    ]
    dated.sort(key=lambda item: (item[0], item[1]))
    return [code for _, _, code in dated]


def transition_counts(sequence: Sequence[str]) -> dict[str, Counter[str]]:
    """counts[current][next] over every consecutive pair of `sequence`."""
    counts: dict[str, Counter[str]] = {}
    for current, following in pairwise(sequence):
        counts.setdefault(current, Counter())[following] += 1
    return counts


@dataclass(frozen=True)
class NextTypeCandidate:
    """One possible next work-order type with P(next = code | last type) and the supporting count."""

    primary_code: str
    probability: float
    count: int


def next_type_distribution(sequence: Sequence[str]) -> list[NextTypeCandidate]:
    """Textbook Markov estimate: P(next | current = last type) = counts[last][next] / sum(counts[last]).

    Only types that actually followed the last type are listed, most likely first, ties by code.
    Empty when the last type never appears before another work order (no transition data).
    """
    if not sequence:
        return []
    following = transition_counts(sequence).get(sequence[-1], Counter())
    total = sum(following.values())
    ranked = sorted(following.items(), key=lambda item: (-item[1], item[0]))
    return [NextTypeCandidate(code, round(count / total, PROBABILITY_DECIMALS), count) for code, count in ranked]


def prediction_item(
    candidate: NextTypeCandidate,
    primary: Mapping[str, Any] | None,
    fallback_description: str | None,
) -> dict[str, Any]:
    """A prediction enriched with category and description (primary-code table, else the data, else "")."""
    return {
        "category": _text((primary or {}).get("category")),
        "primary_code": candidate.primary_code,
        "primary_code_description": _text(
            (primary or {}).get("primary_code_description") or fallback_description
        ),
        "probability": candidate.probability,
        "transition_count": candidate.count,
    }


def alert_rule_items(
    alert_counts: Mapping[str, int],
    rule_names: Mapping[str, str],
) -> list[dict[str, Any]]:
    """The rules that fired, ascending by id, each with its name ("" if unknown) and firing count."""
    return [
        {"rule_id": rule_id, "rule_name": rule_names.get(rule_id, ""), "alert_count": alert_counts[rule_id]}
        for rule_id in sorted(alert_counts)
    ]


def describe_rules(rules: Sequence[Mapping[str, Any]]) -> str:
    """"RUL0017 (Chiller - Load Low), RUL0018 (...)" for messages."""
    return ", ".join(f"{r['rule_id']} ({r['rule_name']})" if r["rule_name"] else r["rule_id"] for r in rules)
