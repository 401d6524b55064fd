"""Fleet tables: assets, maintenance history, alerts, anomalies, failure-code and FMEA knowledge.

Column names follow the AssetOpsBench files so the importer and the generator land in the same
shape. Work-order, event and alert times are naive site-local times, as in those files; telemetry
and the fault schedule are aware (UTC) instead. `row_order` keeps storage order, which the tool
contract returns results in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from assetops.db.base import Base, UTCDateTime


class AssetRow(Base):
    """An asset known to the site: chillers with telemetry and those that only have work orders."""

    __tablename__ = "assets"

    asset_id: Mapped[str] = mapped_column(String(64), primary_key=True)  # "Chiller 9"
    site: Mapped[str] = mapped_column(String(40), default="MAIN")
    equipment_id: Mapped[str] = mapped_column(String(40), unique=True)  # "CWC04009"
    asset_class: Mapped[str] = mapped_column(String(40), default="chiller")
    has_telemetry: Mapped[bool] = mapped_column(Boolean, default=False)


class AssetSensorRow(Base):
    """The sensors an asset reports (full contract names) and the telemetry column holding each."""

    __tablename__ = "asset_sensors"

    asset_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    sensor_name: Mapped[str] = mapped_column(String(120), primary_key=True)
    column_name: Mapped[str] = mapped_column(String(60))
    unit: Mapped[str] = mapped_column(String(20), default="")


class WorkOrderRow(Base):
    """A work order (AssetOpsBench `wo_events`)."""

    __tablename__ = "work_orders"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    wo_id: Mapped[str] = mapped_column(String(40), index=True)
    wo_description: Mapped[str | None] = mapped_column(Text, nullable=True)
    collection: Mapped[str | None] = mapped_column(String(120), nullable=True)
    primary_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    primary_code_description: Mapped[str | None] = mapped_column(String(200), nullable=True)
    secondary_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    secondary_code_description: Mapped[str | None] = mapped_column(String(200), nullable=True)
    equipment_id: Mapped[str] = mapped_column(String(40), index=True)
    equipment_name: Mapped[str | None] = mapped_column(String(120), nullable=True)
    preventive: Mapped[bool] = mapped_column(Boolean, default=False)
    work_priority: Mapped[int | None] = mapped_column(Integer, nullable=True)
    actual_finish: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)
    duration: Mapped[str | None] = mapped_column(String(20), nullable=True)
    actual_labor_hours: Mapped[str | None] = mapped_column(String(20), nullable=True)
    # Ground truth of generated data: the fault episode a corrective order was raised for.
    fault_episode_id: Mapped[str | None] = mapped_column(String(40), nullable=True)


class EventRow(Base):
    """The unified event stream (WORK_ORDER / ALERT / ANOMALY), AssetOpsBench `events`."""

    __tablename__ = "events"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    event_id: Mapped[str] = mapped_column(String(60), index=True)
    event_group: Mapped[str] = mapped_column(String(20))
    event_category: Mapped[str] = mapped_column(String(20))
    event_type: Mapped[str | None] = mapped_column(String(120), nullable=True)
    description: Mapped[str | None] = mapped_column(Text, nullable=True)
    equipment_id: Mapped[str] = mapped_column(String(40), index=True)
    equipment_name: Mapped[str | None] = mapped_column(String(120), nullable=True)
    event_time: Mapped[datetime] = mapped_column(DateTime())
    note: Mapped[str | None] = mapped_column(Text, nullable=True)


class AlertEventRow(Base):
    """One firing of an alert rule on one piece of equipment."""

    __tablename__ = "alert_events"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    equipment_id: Mapped[str] = mapped_column(String(40), index=True)
    equipment_name: Mapped[str | None] = mapped_column(String(120), nullable=True)
    rule_id: Mapped[str] = mapped_column(String(20), index=True)
    start_time: Mapped[datetime] = mapped_column(DateTime())
    end_time: Mapped[datetime | None] = mapped_column(DateTime(), nullable=True)


class AlertRuleRow(Base):
    """An alert rule; `rule_logic` is the condition evaluated on telemetry (empty when imported)."""

    __tablename__ = "alert_rules"

    rule_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    rule_name: Mapped[str] = mapped_column(String(200))
    rule_logic: Mapped[str | None] = mapped_column(Text, nullable=True)


class AlertRuleFailureCodeRow(Base):
    """Which failure codes an alert rule points at."""

    __tablename__ = "alert_rule_fc_mapping"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    rule_id: Mapped[str] = mapped_column(String(20), index=True)
    rule_name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    primary_code: Mapped[str] = mapped_column(String(20))
    primary_code_description: Mapped[str | None] = mapped_column(String(200), nullable=True)


class AnomalyEventRow(Base):
    """A KPI anomaly (value outside its learned bounds)."""

    __tablename__ = "anomaly_events"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    timestamp: Mapped[datetime] = mapped_column(DateTime())
    kpi: Mapped[str] = mapped_column(String(60))
    asset_name: Mapped[str] = mapped_column(String(64), index=True)
    value: Mapped[float | None] = mapped_column(Float, nullable=True)
    upper_bound: Mapped[float | None] = mapped_column(Float, nullable=True)
    lower_bound: Mapped[float | None] = mapped_column(Float, nullable=True)
    anomaly_score: Mapped[float | None] = mapped_column(Float, nullable=True)


class AnomalyFailureCodeRow(Base):
    """Which failure codes a KPI anomaly direction points at."""

    __tablename__ = "anomaly_fc_mapping"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kpi_name: Mapped[str] = mapped_column(String(60))
    anomaly_type: Mapped[str] = mapped_column(String(20))
    category: Mapped[str | None] = mapped_column(String(120), nullable=True)
    primary_code: Mapped[str] = mapped_column(String(20))
    primary_code_description: Mapped[str | None] = mapped_column(String(200), nullable=True)
    secondary_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    secondary_code_description: Mapped[str | None] = mapped_column(String(200), nullable=True)


class FailureCodeRow(Base):
    """A (primary, secondary) failure code pair with its category."""

    __tablename__ = "failure_codes"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    category: Mapped[str] = mapped_column(String(120))
    primary_code: Mapped[str] = mapped_column(String(20), index=True)
    primary_code_description: Mapped[str] = mapped_column(String(200))
    secondary_code: Mapped[str] = mapped_column(String(20))
    secondary_code_description: Mapped[str] = mapped_column(String(200))


class PrimaryFailureCodeRow(Base):
    """A primary failure code with its category."""

    __tablename__ = "primary_failure_codes"

    primary_code: Mapped[str] = mapped_column(String(20), primary_key=True)
    category: Mapped[str] = mapped_column(String(120))
    primary_code_description: Mapped[str] = mapped_column(String(200))


class FmeaRow(Base):
    """A failure mode of an asset class with its mechanism, detection and preventive task.

    `curated_rank` is set for the failure modes `fmsr.get_failure_modes` serves, in their order.
    """

    __tablename__ = "fmea"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    asset_class: Mapped[str] = mapped_column(String(40), index=True)
    failure_mode: Mapped[str] = mapped_column(String(200))
    degradation_mechanism: Mapped[str | None] = mapped_column(Text, nullable=True)
    influencing_factors: Mapped[str | None] = mapped_column(Text, nullable=True)
    detection: Mapped[str | None] = mapped_column(Text, nullable=True)
    preventive_task: Mapped[str | None] = mapped_column(Text, nullable=True)
    primary_codes: Mapped[list[str]] = mapped_column(default=list)
    curated_rank: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SensorRelevanceRow(Base):
    """Knowledge: does a sensor help detect a failure mode, why, and how does it behave over time."""

    __tablename__ = "sensor_relevance"

    row_order: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    asset_class: Mapped[str] = mapped_column(String(40), index=True)
    failure_mode: Mapped[str] = mapped_column(String(200))
    sensor: Mapped[str] = mapped_column(String(120))  # without the asset prefix
    relevant: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(Text)
    temporal_behavior: Mapped[str] = mapped_column(Text)


class FaultEpisodeRow(Base):
    """Ground truth of the generated fleet: one injected fault episode."""

    __tablename__ = "fault_episodes"

    episode_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    asset_id: Mapped[str] = mapped_column(String(64), index=True)
    equipment_id: Mapped[str] = mapped_column(String(40))
    fault_type: Mapped[str] = mapped_column(String(60))
    failure_mode: Mapped[str] = mapped_column(String(200))
    onset: Mapped[datetime] = mapped_column(UTCDateTime())
    peak: Mapped[datetime] = mapped_column(UTCDateTime())
    repair: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    severity: Mapped[float] = mapped_column(Float)
    affected_sensors: Mapped[list[str]] = mapped_column(default=list)
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)


class FleetMetaRow(Base):
    """Key/value facts about the loaded fleet; `data_version` changes on every (re)load or import."""

    __tablename__ = "fleet_meta"

    key: Mapped[str] = mapped_column(String(60), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
