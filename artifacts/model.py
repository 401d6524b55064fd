"""The typed artifact: what a specialist found, on which asset, window and sensors, and how."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from assetops.domain.specialists import SpecialistId, producer_code


def new_artifact_id(producer: str) -> str:
    """A globally unique id that still says who made the artifact: `artifact_ts_3f9c1a2b7d4e`."""
    return f"artifact_{producer_code(producer)}_{uuid.uuid4().hex[:12]}"


class ArtifactToolCall(BaseModel):
    """A tool call that contributed to an artifact."""

    name: str  # "iot.history_csv"
    args: dict[str, Any] = Field(default_factory=dict)
    status: str = "ok"
    latency_ms: float = 0.0
    error: str | None = None


class Artifact(BaseModel):
    """One unit of evidence or conclusion, reusable by later turns of the same session."""

    id: str
    session_id: str
    turn_index: int = 0
    producer: SpecialistId
    kind: str  # e.g. telemetry_window, anomaly_report, forecast, failure_modes, hypotheses, work_orders
    site: str | None = "MAIN"
    asset_ids: list[str] = Field(default_factory=list)
    equipment_ids: list[str] = Field(default_factory=list)
    window_start: datetime | None = None
    window_end: datetime | None = None
    sensors: list[str] = Field(default_factory=list)  # full names: "Chiller 9 Supply Temperature"
    tool_calls: list[ArtifactToolCall] = Field(default_factory=list)
    observations: list[str] = Field(default_factory=list)  # key findings, one line each
    results: dict[str, Any] = Field(default_factory=dict)  # compact structured results
    data_ref: str | None = None  # a file in the work dir (CSV/JSON) holding the full data
    assumptions: list[str] = Field(default_factory=list)
    confidence: float | None = None  # 0..1 where it applies
    summary: str = ""  # one or two lines for prompts and answers
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    def compact(self) -> dict[str, Any]:
        """The small view passed to the supervisor and prompts: no raw data, no tool outputs."""
        return {
            "id": self.id,
            "producer": self.producer,
            "kind": self.kind,
            "asset_ids": self.asset_ids,
            "window": [
                self.window_start.isoformat() if self.window_start else None,
                self.window_end.isoformat() if self.window_end else None,
            ],
            "sensors": self.sensors,
            "summary": self.summary,
            "observations": self.observations[:5],
            "confidence": self.confidence,
        }
