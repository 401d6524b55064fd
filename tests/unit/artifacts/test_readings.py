"""Typed reads of artifact results: each field comes back typed, a missing or malformed one as absent."""

from __future__ import annotations

from typing import Any

from artifacts.model import Artifact
from artifacts.readings import (
    alert_rules,
    anomaly_rate,
    cited_ids,
    criteria,
    equal_load_shifts,
    hypotheses,
    running_mean,
    sensor_verdicts,
    stats_of,
    work_order_counts,
)


def _art(kind: str, results: dict[str, Any]) -> Artifact:
    return Artifact(id=f"artifact_{kind}", session_id="s", producer="failure", kind=kind, asset_ids=["Chiller 6"],
                    results=results, summary="s")


def test_hypotheses_are_typed_in_rank_order_and_skip_malformed_entries() -> None:
    art = _art("diagnose", {"hypotheses": [
        {"failure_mode": "Condenser fouling", "probability": 0.9, "confidence_range": [0.84, 0.96],
         "confirm_by": "tube inspection"},
        "not a hypothesis",
        {"failure_mode": "Refrigerant leak", "probability": None},
    ]})
    first, second = hypotheses(art)
    assert (first.failure_mode, first.bounds, first.confirm_by) == ("Condenser fouling", (0.84, 0.96), "tube inspection")
    assert (second.failure_mode, second.probability, second.bounds) == ("Refrigerant leak", 0.0, (0.0, 0.0))
    assert hypotheses(_art("diagnose", {"hypotheses": "garbled"})) == []


def test_numbers_are_numbers_or_absent() -> None:
    assert anomaly_rate(_art("anomaly_detection", {"anomaly_rate": 0.052})) == 0.052
    assert anomaly_rate(_art("anomaly_detection", {"anomaly_rate": "high"})) is None
    assert anomaly_rate(_art("anomaly_detection", {"anomaly_rate": True})) is None
    assert anomaly_rate(_art("anomaly_detection", {})) is None


def test_work_order_counts_keep_complete_years_and_the_partial_year_apart() -> None:
    counts = work_order_counts(_art("work_order_summary", {
        "total": 12, "corrective": 7, "corrective_per_year": {"2019": 1, "2020": 4, "bad": "x"},
        "partial_year": 2021, "partial_year_corrective": 2, "corrective_trend_per_year": 3.0}))
    assert counts.corrective_per_year == {"2019": 1, "2020": 4}
    assert (counts.total, counts.corrective, counts.partial_year, counts.partial_year_corrective) == (12, 7, "2021", 2)
    assert counts.corrective_trend_per_year == 3.0
    assert work_order_counts(_art("telemetry_window", {})).total is None


def test_alert_rules_tell_no_list_from_an_empty_one() -> None:
    assert alert_rules(_art("alert_rules", {})) is None
    assert alert_rules(_art("alert_rules", {"rules": []})) == []
    rules = alert_rules(_art("alert_rules", {"rules": [{"rule_id": "R1", "count": 3}, {"rule_id": "R2"}]}))
    assert rules is not None and [(r.rule_id, r.count) for r in rules] == [("R1", 3), ("R2", 0)]


def test_verdicts_criteria_shifts_stats_and_citations() -> None:
    validity = _art("sensor_validity", {"verdicts": [{"sensor": "S", "verdict": "sensor_drift", "shift": 0.8,
                                                      "followers": ["a", "b"]}]})
    assert [(v.sensor, v.verdict, v.shift, v.followers) for v in sensor_verdicts(validity)] == [
        ("S", "sensor_drift", 0.8, 2)]
    protocol = _art("validation_protocol", {"criteria": [{"sensor": "T", "accept_low": 1, "high": 5}]})
    assert [(c.sensor, c.low, c.high) for c in criteria(protocol)] == [("T", 1, 5)]
    diagnosis = _art("diagnose", {"evidence": {"shifts": {"P": {"signal": "Power Input", "z": 5.6, "shift": 16.9},
                                                          "Q": {"signal": "Tonnage"}}}})
    assert [(s.signal, s.z, s.shift) for s in equal_load_shifts(diagnosis)] == [("Power Input", 5.6, 16.9)]
    window = _art("telemetry_window", {"stats": {"Chiller 6 Tonnage": {"mean": 300.0, "running_mean": None}}})
    assert running_mean(stats_of(window)["Chiller 6 Tonnage"]) == 300.0
    assert cited_ids(_art("report", {"cites": ["a1", 2]})) == ["a1", "2"]
    assert cited_ids(_art("report", {"cites": "a1"})) == []
