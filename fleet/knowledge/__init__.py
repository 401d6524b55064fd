"""Curated O&M knowledge as data: failure codes, alert rules, KPI mappings, FMEA, sensor relevance."""

from fleet.knowledge.loader import (
    AlertRule,
    AnomalyMapping,
    FailureCode,
    FaultTypeSpec,
    FmeaEntry,
    KnowledgeFileError,
    SensorRelevance,
    WorkOrderTemplate,
    alert_rules,
    anomaly_mappings,
    background_corrective,
    curated_failure_modes,
    failure_codes,
    fault_types,
    fmea_entries,
    preventive_schedules,
    primary_codes,
    secondary_codes,
    sensor_relevance,
)

__all__ = [
    "AlertRule", "AnomalyMapping", "FailureCode", "FaultTypeSpec", "FmeaEntry", "KnowledgeFileError",
    "SensorRelevance", "WorkOrderTemplate", "alert_rules", "anomaly_mappings", "background_corrective",
    "curated_failure_modes", "failure_codes", "fault_types", "fmea_entries", "preventive_schedules",
    "primary_codes", "secondary_codes", "sensor_relevance",
]
