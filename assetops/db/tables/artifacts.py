"""Durable storage of artifacts: the assistant's memory of what it found."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from assetops.db.base import Base, UTCDateTime, utcnow


class ArtifactRow(Base):
    """One artifact; list-valued fields are JSON so the same table works on SQLite and Postgres."""

    __tablename__ = "artifacts"
    __table_args__ = (Index("ix_artifacts_session_asset", "session_id", "asset_id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(40), index=True)
    turn_index: Mapped[int] = mapped_column(Integer, default=0)
    producer: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(60))
    site: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # The first asset, for indexed lookups; `asset_ids` holds them all.
    asset_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    asset_ids: Mapped[list[str]] = mapped_column(default=list)
    equipment_ids: Mapped[list[str]] = mapped_column(default=list)
    window_start: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    window_end: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    sensors: Mapped[list[str]] = mapped_column(default=list)
    tool_calls: Mapped[list[Any]] = mapped_column(default=list)
    observations: Mapped[list[str]] = mapped_column(default=list)
    results: Mapped[dict[str, Any]] = mapped_column(default=dict)
    data_ref: Mapped[str | None] = mapped_column(String(400), nullable=True)
    assumptions: Mapped[list[str]] = mapped_column(default=list)
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    summary: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, onupdate=utcnow)
