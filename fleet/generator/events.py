"""The unified event stream: work orders, alerts and KPI anomalies as one time-ordered table."""

from __future__ import annotations

import pandas as pd

from fleet.generator.timegrid import deterministic_uuid, stream
from fleet.knowledge import alert_rules
from fleet.model import EQUIPMENT_IDS

EVENT_COLUMNS = ["event_id", "event_group", "event_category", "event_type", "description", "equipment_id",
                 "equipment_name", "event_time", "note"]


def _work_order_events(orders: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "event_id": orders["wo_id"], "event_group": "WORK_ORDER",
        "event_category": orders["preventive"].map({True: "PM", False: "CM"}),
        "event_type": orders["primary_code"], "description": orders["primary_code_description"],
        "equipment_id": orders["equipment_id"], "equipment_name": orders["equipment_name"],
        "event_time": orders["actual_finish"], "note": None,
    }, columns=EVENT_COLUMNS)


def _alert_events(alerts: pd.DataFrame, seed: int) -> pd.DataFrame:
    rng = stream(seed, "alert-ids")
    names = {rule.rule_id: rule.rule_name for rule in alert_rules()}
    return pd.DataFrame({
        "event_id": [f"al_{deterministic_uuid(rng)}" for _ in range(len(alerts))],
        "event_group": "ALERT", "event_category": "ALERT", "event_type": alerts["rule_id"],
        "description": alerts["rule_id"].map(names), "equipment_id": alerts["equipment_id"],
        "equipment_name": alerts["equipment_name"], "event_time": alerts["start_time"], "note": None,
    }, columns=EVENT_COLUMNS)


def _anomaly_events(anomalies: pd.DataFrame, seed: int) -> pd.DataFrame:
    rng = stream(seed, "anomaly-ids")
    above = anomalies["value"] > anomalies["upper_bound"]
    bound = anomalies["upper_bound"].where(above, anomalies["lower_bound"])
    kpi = anomalies["kpi"]
    event_type = "KPI " + kpi + above.map({True: " above upper bound", False: " below lower bound"})
    description = ("The monitored KPI '" + kpi + "' is " + above.map({True: "higher than the upper", False:
                   "lower than the lower"}) + " bound (" + bound.map(lambda b: f"{b:.6g}") + ").")
    return pd.DataFrame({
        "event_id": [f"an_{deterministic_uuid(rng)}" for _ in range(len(anomalies))],
        "event_group": "ANOMALY", "event_category": "ANOMALY", "event_type": event_type,
        "description": description, "equipment_id": anomalies["asset_name"].map(EQUIPMENT_IDS),
        "equipment_name": anomalies["asset_name"], "event_time": anomalies["timestamp"], "note": None,
    }, columns=EVENT_COLUMNS)


def unified_events(orders: pd.DataFrame, alerts: pd.DataFrame, anomalies: pd.DataFrame, seed: int) -> pd.DataFrame:
    """events rows ordered by event time (work orders, then alerts, then anomalies at equal times)."""
    parts = [_work_order_events(orders), _alert_events(alerts, seed), _anomaly_events(anomalies, seed)]
    parts = [p for p in parts if not p.empty]
    if not parts:
        return pd.DataFrame(columns=EVENT_COLUMNS)
    events = pd.concat(parts, ignore_index=True)
    events["event_time"] = pd.to_datetime(events["event_time"])
    return events.sort_values("event_time", kind="stable").reset_index(drop=True)
