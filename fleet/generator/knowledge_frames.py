"""Knowledge tables (failure codes, rules, mappings, FMEA, sensor relevance) as FleetData frames."""

from __future__ import annotations

from dataclasses import asdict

import pandas as pd

from fleet.knowledge import (
    alert_rules,
    anomaly_mappings,
    failure_codes,
    fmea_entries,
    primary_codes,
    sensor_relevance,
)


def failure_code_frame() -> pd.DataFrame:
    """failure_codes rows in catalogue order."""
    return pd.DataFrame([asdict(code) for code in failure_codes()],
                        columns=["category", "primary_code", "primary_code_description", "secondary_code",
                                 "secondary_code_description"])


def primary_failure_code_frame() -> pd.DataFrame:
    """primary_failure_codes rows in catalogue order."""
    rows = [{"primary_code": code, "category": category, "primary_code_description": description}
            for code, (category, description) in primary_codes().items()]
    return pd.DataFrame(rows, columns=["primary_code", "category", "primary_code_description"])


def alert_rule_frame() -> pd.DataFrame:
    """alert_rules rows with their readable rule logic."""
    rows = [{"rule_id": r.rule_id, "rule_name": r.rule_name, "rule_logic": r.rule_logic} for r in alert_rules()]
    return pd.DataFrame(rows, columns=["rule_id", "rule_name", "rule_logic"])


def alert_rule_mapping_frame() -> pd.DataFrame:
    """alert_rule_fc_mapping rows: every rule x each failure code it points at."""
    descriptions = primary_codes()
    rows = [{"rule_id": r.rule_id, "rule_name": r.rule_name, "primary_code": code,
             "primary_code_description": descriptions[code][1]} for r in alert_rules() for code in r.failure_codes]
    return pd.DataFrame(rows, columns=["rule_id", "rule_name", "primary_code", "primary_code_description"])


def anomaly_mapping_frame() -> pd.DataFrame:
    """anomaly_fc_mapping rows."""
    rows = [{"kpi_name": m.kpi_name, "anomaly_type": m.anomaly_type, "category": m.code.category,
             "primary_code": m.code.primary_code, "primary_code_description": m.code.primary_code_description,
             "secondary_code": m.code.secondary_code, "secondary_code_description": m.code.secondary_code_description}
            for m in anomaly_mappings()]
    return pd.DataFrame(rows, columns=["kpi_name", "anomaly_type", "category", "primary_code",
                                       "primary_code_description", "secondary_code", "secondary_code_description"])


def fmea_frame() -> pd.DataFrame:
    """fmea rows: curated failure modes first per asset class (curated_rank 1..n), then the broader ones."""
    rows = [{**asdict(entry), "primary_codes": list(entry.primary_codes)} for entry in fmea_entries()]
    frame = pd.DataFrame(rows, columns=["asset_class", "failure_mode", "degradation_mechanism", "influencing_factors",
                                        "detection", "preventive_task", "primary_codes", "curated_rank"])
    frame["curated_rank"] = frame["curated_rank"].astype("Int64")
    return frame


def sensor_relevance_frame() -> pd.DataFrame:
    """sensor_relevance rows (failure mode x sensor, with reason and temporal behaviour)."""
    return pd.DataFrame([asdict(row) for row in sensor_relevance()],
                        columns=["asset_class", "failure_mode", "sensor", "relevant", "reason", "temporal_behavior"])
