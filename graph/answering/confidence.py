"""The confidence line says what the answer rests on.

Data-backed findings (telemetry and what was computed from it) get a level, the value and the
span of data: "Confidence: high (0.90, diagnosis from 3 months of telemetry)". Work-order records
say so; failure-mode knowledge says "based on failure-mode knowledge only"; answers built from no
data (capabilities, inventories, offers) get no confidence line at all.
"""

from __future__ import annotations

from datetime import timedelta

from artifacts.model import Artifact

TELEMETRY_KINDS = frozenset({"telemetry_window", "anomaly_detection", "trend_stats", "diagnose", "sensor_validity",
                             "forecast", "load_bins", "threshold_suggestion", "compare", "point_value",
                             "forecast_evaluation", "finetune", "monitoring_config", "validation_protocol"})
RECORD_KINDS = frozenset({"work_order_summary", "bundles", "next_work_order", "alert_rules", "alert_to_failure",
                          "priority_ranking", "management_report", "work_order_draft", "restart_checklist"})
KNOWLEDGE_KINDS = frozenset({"failure_modes", "sensor_mapping"})
NAMES = {"diagnose": "diagnosis", "anomaly_detection": "anomaly detection", "sensor_validity": "sensor check",
         "trend_stats": "trend analysis", "forecast": "forecast", "telemetry_window": "measured data"}


def span(delta: timedelta) -> str:
    """'3 months', '12 days', '6 hours'."""
    days = delta.total_seconds() / 86400
    if days >= 45:
        return f"{round(days / 30.4)} months"
    if days >= 1.5:
        return f"{round(days)} days"
    return f"{max(round(days * 24), 1)} hours"


def _level(value: float) -> str:
    return "high" if value >= 0.75 else "moderate" if value >= 0.5 else "low"


def confidence_line(artifacts: list[Artifact], *, evidence_missing: bool) -> str:
    """The confidence of an answer resting on `artifacts` ('' when it rests on no data)."""
    measured = [a for a in artifacts if a.kind in TELEMETRY_KINDS]
    records = [a for a in artifacts if a.kind in RECORD_KINDS]
    knowledge = [a for a in artifacts if a.kind in KNOWLEDGE_KINDS]
    scored = [a for a in measured if a.confidence is not None]
    if scored:
        lead = min(scored, key=lambda a: a.confidence or 0.0)
        value = (lead.confidence or 0.0) * (0.8 if evidence_missing else 1.0)
        basis = NAMES.get(lead.kind, lead.kind.replace("_", " "))
        if lead.window_start and lead.window_end:
            basis += f" from {span(lead.window_end - lead.window_start)} of telemetry"
        missing = ", reduced by the missing evidence" if evidence_missing else ""
        return f"Confidence: {_level(value)} ({value:.2f}, {basis}{missing})."
    if measured:
        spans = [a.window_end - a.window_start for a in measured if a.window_start and a.window_end]
        amount = f"{span(max(spans))} of measured data" if spans else "measured data"
        if evidence_missing:
            return f"Confidence: low (part of the evidence is missing; rests on {amount})."
        return f"Confidence: moderate ({amount}, no model-based check yet)."
    if records:
        return "Confidence: as good as the records (counted from the work-order and alert history)."
    if knowledge:
        return "Confidence: low; based on failure-mode knowledge only, not on this chiller's data."
    return ""
