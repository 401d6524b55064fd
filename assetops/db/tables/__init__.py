"""Every table of the project, imported here so Alembic sees one complete metadata."""

from assetops.db.tables.artifacts import ArtifactRow
from assetops.db.tables.conversation import SessionRow, ToolCallRow, TurnEventRow, TurnRow, UserRow
from assetops.db.tables.drafts import WorkOrderDraftRow
from assetops.db.tables.fleet import (
    AlertEventRow,
    AlertRuleFailureCodeRow,
    AlertRuleRow,
    AnomalyEventRow,
    AnomalyFailureCodeRow,
    AssetRow,
    AssetSensorRow,
    EventRow,
    FailureCodeRow,
    FaultEpisodeRow,
    FleetMetaRow,
    FmeaRow,
    PrimaryFailureCodeRow,
    SensorRelevanceRow,
    WorkOrderRow,
)
from assetops.db.tables.telemetry import SENSOR_COLUMNS, TelemetryRow

__all__ = [
    "SENSOR_COLUMNS",
    "AlertEventRow",
    "AlertRuleFailureCodeRow",
    "AlertRuleRow",
    "AnomalyEventRow",
    "AnomalyFailureCodeRow",
    "ArtifactRow",
    "AssetRow",
    "AssetSensorRow",
    "EventRow",
    "FailureCodeRow",
    "FaultEpisodeRow",
    "FleetMetaRow",
    "FmeaRow",
    "PrimaryFailureCodeRow",
    "SensorRelevanceRow",
    "SessionRow",
    "TelemetryRow",
    "ToolCallRow",
    "TurnEventRow",
    "TurnRow",
    "UserRow",
    "WorkOrderDraftRow",
    "WorkOrderRow",
]
