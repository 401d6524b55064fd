"""Typed reads of the structured results an artifact carries, one accessor per field the answers use.

`Artifact.results` is a JSON dict written by the specialist that made the artifact (stored, reused
across turns, exported). Answer code reads it through these accessors instead of `.get(...)` chains:
each returns a typed value, and a missing or malformed field reads as absent (None or empty), never
as an exception, so an artifact from an older version still answers what it can.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from artifacts.model import Artifact


def _number(value: Any) -> float | None:
    """A JSON number as a float (booleans are not numbers here)."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _dicts(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def _text(value: Any) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Hypothesis:
    """One ranked failure mode of a diagnosis (`diagnose` artifacts, most likely first)."""

    failure_mode: str
    probability: float = 0.0
    confidence_range: tuple[float, ...] = ()
    confirm_by: str = ""  # the decisive test, when the diagnosis names one

    @property
    def bounds(self) -> tuple[float, float]:
        """The confidence range (low, high); the probability twice when no range was given."""
        if self.confidence_range:
            return self.confidence_range[0], self.confidence_range[-1]
        return self.probability, self.probability


def hypotheses(artifact: Artifact) -> list[Hypothesis]:
    """The diagnosis's ranked hypotheses (empty for any other artifact)."""
    return [Hypothesis(failure_mode=_text(h.get("failure_mode")), probability=_number(h.get("probability")) or 0.0,
                       confidence_range=tuple(v for v in (_number(x) for x in h.get("confidence_range") or [])
                                              if v is not None),
                       confirm_by=_text(h.get("confirm_by")))
            for h in _dicts(artifact.results.get("hypotheses"))]


def anomaly_rate(artifact: Artifact) -> float | None:
    """The anomalous share of running samples (`anomaly_detection`), None when not computed."""
    return _number(artifact.results.get("anomaly_rate"))


def sustained_shifts(artifact: Artifact) -> list[str]:
    """The sustained level shifts the anomaly detector found, as their messages."""
    return [_text(s.get("message")) for s in _dicts(artifact.results.get("sustained_shifts"))]


def conditional(artifact: Artifact) -> bool:
    """Whether the anomaly detector judged a sensor against load (the power-load relation)."""
    return bool(artifact.results.get("conditional_columns"))


@dataclass(frozen=True)
class WorkOrderCounts:
    """A work-order summary's counts (`work_order_summary`)."""

    total: int | None = None
    corrective: int | None = None
    corrective_per_year: dict[str, int] = field(default_factory=dict)  # complete years, zeros included
    partial_year: str | None = None  # the reference date's own year, counted apart
    partial_year_corrective: int | None = None
    corrective_trend_per_year: float | None = None  # slope over the complete years


def work_order_counts(artifact: Artifact) -> WorkOrderCounts:
    """The counts of a work-order summary (all None/empty for any other artifact)."""
    results = artifact.results
    per_year = results.get("corrective_per_year")
    total, corrective, partial = results.get("total"), results.get("corrective"), results.get("partial_year")
    partial_count = results.get("partial_year_corrective")
    return WorkOrderCounts(
        total=total if isinstance(total, int) else None,
        corrective=corrective if isinstance(corrective, int) else None,
        corrective_per_year={str(k): int(v) for k, v in per_year.items() if _number(v) is not None}
        if isinstance(per_year, Mapping) else {},
        partial_year=None if partial in (None, "") else str(partial),
        partial_year_corrective=partial_count if isinstance(partial_count, int) else None,
        corrective_trend_per_year=_number(results.get("corrective_trend_per_year")))


@dataclass(frozen=True)
class SensorVerdict:
    """A sensor-validity verdict: drift of the sensor itself, or a real process change."""

    sensor: str
    verdict: str  # "sensor_drift" | "real_change" | ...
    shift: float | None = None  # degF moved at equal load
    followers: int = 0  # coupled signals that moved with it


def sensor_verdicts(artifact: Artifact) -> list[SensorVerdict]:
    """The verdicts of a sensor-validity check."""
    return [SensorVerdict(sensor=_text(v.get("sensor")), verdict=_text(v.get("verdict")), shift=_number(v.get("shift")),
                          followers=len(v.get("followers") or []))
            for v in _dicts(artifact.results.get("verdicts"))]


@dataclass(frozen=True)
class RuleCount:
    """How often one alert rule fired (`alert_rules`)."""

    rule_id: str
    count: int = 0
    rule_name: str = ""  # "Chiller - Evaporator Approach High" as the rule table names it
    months: tuple[tuple[str, int], ...] = ()  # ("2021-03", 4): alerts per calendar month, in order
    last: str = ""  # the day of its latest alert in the listing ("2021-05-23"), "" when none


def alert_rules(artifact: Artifact) -> list[RuleCount] | None:
    """The alert rules and their counts; None when the artifact carries no rule list at all."""
    raw = artifact.results.get("rules")
    if raw is None:
        return None
    return [RuleCount(rule_id=_text(r.get("rule_id")), count=int(_number(r.get("count")) or 0),
                      rule_name=_text(r.get("rule_name")), months=_months(r.get("months")), last=_text(r.get("last")))
            for r in _dicts(raw)]


def rule_failure_codes(artifact: Artifact) -> dict[str, list[str]]:
    """The failure codes each alert rule of a listing points at ("RUL0022" -> ["CS007 Overactive Control Logic",
    ...]); empty when the listing carries none."""
    raw = artifact.results.get("rule_failure_codes")
    if not isinstance(raw, Mapping):
        return {}
    return {str(rule): [str(code) for code in codes] for rule, codes in raw.items() if isinstance(codes, list)}


def _months(raw: object) -> tuple[tuple[str, int], ...]:
    return tuple((str(k), int(v)) for k, v in raw.items()) if isinstance(raw, Mapping) else ()


def asked_rules(artifact: Artifact) -> list[str]:
    """The alert rules the user asked about when the listing was made (by id or name); empty: all of them."""
    raw = artifact.results.get("asked_rules")
    return [str(r) for r in raw] if isinstance(raw, list) else []


@dataclass(frozen=True)
class RankingRow:
    """One asset of a priority ranking, highest priority first."""

    asset_id: str
    score: Any = None  # shown as written
    reasons: tuple[str, ...] = ()


def ranking(artifact: Artifact) -> list[RankingRow]:
    """The rows of a priority ranking."""
    return [RankingRow(asset_id=_text(r.get("asset_id")), score=r.get("score"),
                       reasons=tuple(str(x) for x in r.get("reasons") or []))
            for r in _dicts(artifact.results.get("ranking"))]


def report_text(artifact: Artifact) -> str:
    """The full text of a long output (a management report), empty when there is none."""
    return _text(artifact.results.get("report"))


def cited_ids(artifact: Artifact) -> list[str]:
    """Ids of earlier artifacts this one cites (a report's sources)."""
    cites = artifact.results.get("cites")
    return [str(i) for i in cites] if isinstance(cites, list) else []


def stats_of(artifact: Artifact) -> dict[str, Mapping[str, Any]]:
    """Per-sensor statistics of a telemetry window (full sensor name -> mean, running_mean, min, max,
    unit, trend_per_day, count)."""
    stats = artifact.results.get("stats")
    return {str(k): v for k, v in stats.items() if isinstance(v, Mapping)} if isinstance(stats, Mapping) else {}


def running_mean(entry: Mapping[str, Any]) -> float | None:
    """A sensor's mean while the chiller runs, else its mean over all samples."""
    value = entry.get("running_mean") if entry.get("running_mean") is not None else entry.get("mean")
    return _number(value)


def top_codes(artifact: Artifact) -> list[tuple[str, str, int]]:
    """A work-order summary's most frequent primary codes: (code, description, count), most frequent first."""
    return [(_text(e.get("code")), _text(e.get("description")), int(e.get("count") or 0))
            for e in _dicts(artifact.results.get("top_codes"))]


def labor_hours(artifact: Artifact) -> tuple[float, float] | None:
    """A work-order summary's labour booked (all orders, corrective ones) in hours; None when not counted."""
    total, corrective = artifact.results.get("labor_hours"), artifact.results.get("corrective_labor_hours")
    if not isinstance(total, int | float):
        return None
    return float(total), float(corrective) if isinstance(corrective, int | float) else 0.0


def orders_per_month(artifact: Artifact) -> dict[str, int]:
    """A work-order summary's orders per calendar month ("2019-07" -> 3), empty when it has none."""
    raw = artifact.results.get("per_month") if artifact.kind == "work_order_summary" else None
    return {str(k): int(v) for k, v in raw.items() if isinstance(v, int)} if isinstance(raw, Mapping) else {}


def alerts_per_month(artifact: Artifact) -> dict[str, int]:
    """An alert-rule artifact's alerts per month ("2021-03" -> 25), empty when it did not count them."""
    months = artifact.results.get("per_month")
    return {str(k): int(v) for k, v in months.items()} if isinstance(months, Mapping) else {}


def kpi_anomalies(artifact: Artifact) -> list[tuple[str, int]] | None:
    """An alert-rule artifact's KPI anomaly events per kind ("Flow Efficiency above upper bound", count); None
    when it did not count them."""
    entries = artifact.results.get("kpi_anomalies")
    if not isinstance(entries, list):
        return None
    return [(_text(e.get("kpi")), int(e.get("count") or 0)) for e in _dicts(entries)]


def running_share(artifact: Artifact) -> float | None:
    """The share of the window's samples taken while the chiller ran."""
    return _number(artifact.results.get("running_share"))


def sensors_without_data(artifact: Artifact) -> list[str]:
    """Sensors asked for that have no sample in the window."""
    return [str(s) for s in artifact.results.get("sensors_without_data") or []]


def sensors_stopped(artifact: Artifact) -> dict[str, str]:
    """Sensors that stopped reporting inside the window, with their last sample time."""
    stopped = artifact.results.get("sensors_stopped")
    return {str(k): str(v) for k, v in stopped.items()} if isinstance(stopped, Mapping) else {}


def efficiency_trend_per_day(artifact: Artifact) -> float | None:
    """The kW/ton trend of a trend-statistics artifact (positive: efficiency getting worse)."""
    return _number(artifact.results.get("efficiency_trend_per_day"))


def steps(artifact: Artifact) -> list[str]:
    """A checklist's or protocol's steps, in order (its observations when it lists no steps)."""
    return [str(s) for s in artifact.results.get("steps") or artifact.observations]


@dataclass(frozen=True)
class Criterion:
    """An acceptance threshold of a protocol: the sensor's accepted range."""

    sensor: str
    low: Any = None  # shown as written (numbers in the sensor's own unit)
    high: Any = None


def criteria(artifact: Artifact) -> list[Criterion]:
    """A protocol's acceptance thresholds (`accept_low`/`accept_high`, else `low`/`high`)."""
    return [Criterion(sensor=_text(c.get("sensor")), low=c.get("accept_low", c.get("low")),
                      high=c.get("accept_high", c.get("high")))
            for c in _dicts(artifact.results.get("criteria"))]


def draft_title(artifact: Artifact) -> tuple[str, str]:
    """A drafted work order's (draft id, title)."""
    return _text(artifact.results.get("draft_id")), _text(artifact.results.get("title"))


@dataclass(frozen=True)
class EqualLoadShift:
    """How far one signal moved against its baseline at equal load (a diagnosis's evidence)."""

    signal: str
    z: float
    shift: float = 0.0
    baseline_level: float | None = None
    units: str = ""


def equal_load_shifts(diagnosis: Artifact) -> list[EqualLoadShift]:
    """The diagnosis's measured shifts at equal load (those with a z-score)."""
    evidence = diagnosis.results.get("evidence")
    shifts = evidence.get("shifts") if isinstance(evidence, Mapping) else None
    found = []
    for s in shifts.values() if isinstance(shifts, Mapping) else []:
        z = _number(s.get("z")) if isinstance(s, Mapping) else None
        if z is None:
            continue
        found.append(EqualLoadShift(signal=_text(s.get("signal")), z=z, shift=_number(s.get("shift")) or 0.0,
                                    baseline_level=_number(s.get("baseline_level")), units=_text(s.get("units"))))
    return found


def tripped(diagnosis: Artifact) -> bool:
    """Whether the diagnosis found the chiller tripped (stopped on a safety)."""
    return bool(diagnosis.results.get("trip_time"))


def trip_time(diagnosis: Artifact) -> str | None:
    """When the diagnosis found the chiller tripped, as written (site-local ISO time), None when it did not."""
    value = diagnosis.results.get("trip_time")
    return str(value) if value else None


def diagnosis_source(diagnosis: Artifact) -> str | None:
    """The id of the telemetry window a diagnosis rests on."""
    source = diagnosis.results.get("source")
    return str(source) if source else None


@dataclass(frozen=True)
class OrderRef:
    """One work order as a summary lists it (its latest orders, or the last one before the period)."""

    wo_id: str
    date: str  # ISO date of the finish, "" when unknown
    code: str = ""
    description: str = ""
    preventive: bool = False
    labor_hours: float = 0.0


def _order(entry: Mapping[str, Any]) -> OrderRef:
    return OrderRef(wo_id=_text(entry.get("wo_id")), date=_text(entry.get("date")), code=_text(entry.get("code")),
                    description=_text(entry.get("description")), preventive=bool(entry.get("preventive")),
                    labor_hours=float(entry.get("labor_hours") or 0.0))


def recent_orders(artifact: Artifact) -> list[OrderRef]:
    """A work-order summary's latest orders, newest first."""
    return [_order(r) for r in _dicts(artifact.results.get("recent"))]


def latest_per_job(artifact: Artifact) -> list[OrderRef]:
    """A work-order summary's latest order of each distinct job, newest first."""
    return [_order(r) for r in _dicts(artifact.results.get("latest_per_job"))]


def order_before(artifact: Artifact) -> OrderRef | None:
    """The last order before the summary's period (written when the period itself has none)."""
    before = artifact.results.get("last_before")
    return _order(before) if isinstance(before, Mapping) else None


def listed_kind(artifact: Artifact) -> str:
    """Which orders a work-order summary lists: "all", "corrective" or "preventive"."""
    return _text(artifact.results.get("kind")) or "all"


@dataclass(frozen=True)
class AlertOutcome:
    """Whether one alert rule's alerts were followed by a work order (`alert_to_failure`)."""

    rule_id: str
    alerts: int = 0
    p_work_order: float = 0.0  # share of its alerts followed by a work order
    hours_to_work_order: float | None = None  # mean, over those followed
    verdict: str = ""  # meaningful / weak / likely spurious / too few alerts (the triage rule's words)


def alert_outcomes(artifact: Artifact) -> list[AlertOutcome]:
    """The per-rule outcomes of an alert-to-failure analysis."""
    return [AlertOutcome(rule_id=_text(v.get("rule_id")), alerts=int(_number(v.get("alerts")) or 0),
                         p_work_order=_number(v.get("p_work_order")) or 0.0,
                         hours_to_work_order=_number(v.get("mean_hours_to_maintenance")),
                         verdict=_text(v.get("verdict")))
            for v in _dicts(artifact.results.get("verdicts"))]


@dataclass(frozen=True)
class OrderGroup:
    """Corrective orders on one piece of equipment that one visit could have covered (`bundles`)."""

    equipment_id: str
    start: str
    end: str
    wo_ids: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    visits_saved: int = 0
    hours_saved: float = 0.0


def order_groups(artifact: Artifact) -> list[OrderGroup]:
    """The groups of a bundling analysis, in date order."""
    return [OrderGroup(equipment_id=_text(b.get("equipment_id")), start=_text(b.get("start")), end=_text(b.get("end")),
                       wo_ids=tuple(_text(w) for w in b.get("wo_ids") or []),
                       codes=tuple(_text(c) for c in b.get("codes") or []),
                       visits_saved=int(_number(b.get("visits_saved")) or 0),
                       hours_saved=_number(b.get("hours_saved")) or 0.0)
            for b in _dicts(artifact.results.get("bundles"))]


def stated_rule(artifact: Artifact) -> str:
    """The rule an analysis states it applied (bundling window, alert triage), empty when none."""
    return _text(artifact.results.get("rule"))


@dataclass(frozen=True)
class SensorHealth:
    """One sensor's health over a window (`trend_stats`): its flags and data gaps."""

    sensor: str
    flags: tuple[str, ...] = ()  # "stuck", "missing_data", "drift", "trend", ...
    missing_pct: float = 0.0
    flat_hours: float = 0.0  # longest run of identical readings while running


def sensor_health(artifact: Artifact) -> list[SensorHealth]:
    """The per-sensor health of a trend-statistics artifact."""
    per_sensor = artifact.results.get("per_sensor")
    if not isinstance(per_sensor, Mapping):
        return []
    return [SensorHealth(sensor=_text(v.get("sensor") or k), flags=tuple(str(f) for f in v.get("flags") or []),
                         missing_pct=_number(v.get("missing_pct")) or 0.0,
                         flat_hours=_number(v.get("longest_flat_hours")) or 0.0)
            for k, v in per_sensor.items() if isinstance(v, Mapping)]


def moved_alone(artifact: Artifact) -> list[str]:
    """Sensors that moved while their physically coupled ones did not (likely drift), as described."""
    return [str(s) for s in artifact.results.get("moved_alone") or []]


@dataclass(frozen=True)
class ForecastScore:
    """One model's forecast error on one target against actuals (`evaluate_forecast`)."""

    model: str
    target: str
    mae: float
    pairs: int = 0


def forecast_scores(artifact: Artifact) -> dict[str, list[ForecastScore]]:
    """Model label -> its scores per target; the tuned checkpoint is `tuned_checkpoint(artifact)`."""
    return {str(label): [ForecastScore(str(label), _text(e.get("target")), mae, int(_number(e.get("pairs")) or 0))
                         for e in _dicts(errors) if (mae := _number(e.get("mae"))) is not None]
            for label, errors in artifact.results.items() if isinstance(errors, list)}


def forecast_actual_means(artifact: Artifact) -> dict[str, float]:
    """Each scored target's running mean over the evaluation window (`evaluate_forecast`)."""
    means = artifact.results.get("actual_means")
    return {str(k): float(v) for k, v in means.items() if _number(v) is not None} if isinstance(means, Mapping) else {}


def tuned_checkpoint(artifact: Artifact) -> str | None:
    """The fine-tuned checkpoint a forecast evaluation scored, None when only the base model was scored."""
    value = artifact.results.get("model_checkpoint")
    return str(value) if value else None
