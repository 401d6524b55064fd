"""Pure alert analysis: how often each rule fires and whether it is followed by maintenance."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# Triage rule (stated in answers): a rule whose alerts are followed by a work order at least
# MEANINGFUL_P of the time is meaningful; below SPURIOUS_P, with at least NOISY_MIN alerts, it is
# noise worth re-tuning; in between it is weak evidence.
MEANINGFUL_P = 0.30
SPURIOUS_P = 0.10
NOISY_MIN = 10


@dataclass
class RuleActivity:
    """How one alert rule behaved on one piece of equipment."""

    rule_id: str
    rule_name: str
    count: int
    first: str | None
    last: str | None
    busiest_month: str | None
    per_month_mean: float
    months: dict[str, int] = field(default_factory=dict)  # alerts per calendar month ("2021-03"), in order


def rule_activity(events: list[dict[str, Any]], rule_names: dict[str, str]) -> list[RuleActivity]:
    """Per rule, from `wo.get_events` rows of group ALERT (event_type holds the rule id)."""
    times: dict[str, list[datetime]] = defaultdict(list)
    for event in events:
        if str(event.get("event_group", "")).upper() != "ALERT":
            continue
        try:
            when = datetime.fromisoformat(str(event.get("event_time"))).replace(tzinfo=None)
        except ValueError:
            continue
        times[str(event.get("event_type"))].append(when)
    out: list[RuleActivity] = []
    for rule_id, stamps in times.items():
        stamps.sort()
        months = Counter(t.strftime("%Y-%m") for t in stamps)
        busiest = max(sorted(months), key=lambda m: months[m]) if months else None
        out.append(RuleActivity(rule_id, rule_names.get(rule_id, rule_id), len(stamps),
                                stamps[0].date().isoformat(), stamps[-1].date().isoformat(), busiest,
                                round(len(stamps) / max(len(months), 1), 1), dict(sorted(months.items()))))
    for rule_id, name in rule_names.items():
        if rule_id not in times:
            out.append(RuleActivity(rule_id, name, 0, None, None, None, 0.0))
    return sorted(out, key=lambda r: (-r.count, r.rule_id))


def alerts_per_month(events: list[dict[str, Any]]) -> dict[str, int]:
    """Alerts (group ALERT) per calendar month ("2021-03"), in month order."""
    months: Counter[str] = Counter()
    for event in events:
        if str(event.get("event_group", "")).upper() != "ALERT":
            continue
        try:
            months[datetime.fromisoformat(str(event.get("event_time"))).strftime("%Y-%m")] += 1
        except ValueError:
            continue
    return dict(sorted(months.items()))


def kpi_anomalies(events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """KPI anomaly events (`wo.get_events` rows of group ANOMALY, "KPI Flow Efficiency above upper bound") per
    kind, most frequent first."""
    kinds = Counter(str(e.get("event_type") or "").removeprefix("KPI ").strip() for e in events
                    if str(e.get("event_group", "")).upper() == "ANOMALY")
    return sorted(((kind, n) for kind, n in kinds.items() if kind), key=lambda pair: (-pair[1], pair[0]))


@dataclass
class RuleVerdict:
    """Whether a rule's alerts lead to maintenance, and the verdict under the triage rule."""

    rule_id: str
    alerts: int
    p_work_order: float
    mean_hours_to_maintenance: float | None
    verdict: str  # meaningful / weak / likely spurious / too few alerts


def work_order_probability(transitions: list[dict[str, Any]]) -> tuple[float, float | None]:
    """P(a work order follows) and mean hours to it, from analyze_alert_to_failure transitions."""
    p, mean_h = 0.0, None
    for entry in transitions:
        label = str(entry.get("transition", "")).upper()
        if "WORK" in label and "NO" not in label.split("_")[0]:
            p += float(entry.get("probability") or 0.0)
            if entry.get("average_hours_to_maintenance") is not None:
                mean_h = float(entry["average_hours_to_maintenance"])
    return p, mean_h


def triage(rule_id: str, alerts: int, transitions: list[dict[str, Any]]) -> RuleVerdict:
    """Classify one rule with the triage rule above."""
    p, mean_h = work_order_probability(transitions)
    if alerts < 3:
        verdict = "too few alerts"
    elif p >= MEANINGFUL_P:
        verdict = "meaningful"
    elif p < SPURIOUS_P and alerts >= NOISY_MIN:
        verdict = "likely spurious"
    else:
        verdict = "weak"
    return RuleVerdict(rule_id, alerts, round(p, 3), round(mean_h, 1) if mean_h is not None else None, verdict)


TRIAGE_RULE = (f"meaningful when P(work order follows) >= {MEANINGFUL_P:.0%}; likely spurious when it is below "
               f"{SPURIOUS_P:.0%} over at least {NOISY_MIN} alerts; weak otherwise")
