"""Work orders drafted by the maintenance specialist (never sent anywhere without a person)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from assetops.db.base import Base, UTCDateTime, utcnow


class WorkOrderDraftRow(Base):
    """A drafted work order with its failure code, priority and scope, tied to the session that made it."""

    __tablename__ = "work_order_drafts"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # "WOD-1a2b3c4d"
    session_id: Mapped[str] = mapped_column(String(40), index=True)
    owner: Mapped[str] = mapped_column(String(40), index=True, default="local")
    artifact_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    equipment_id: Mapped[str] = mapped_column(String(40))
    asset_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    title: Mapped[str] = mapped_column(String(200))
    scope: Mapped[str] = mapped_column(Text)
    primary_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    secondary_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    priority: Mapped[int] = mapped_column(Integer, default=2)
    status: Mapped[str] = mapped_column(String(20), default="draft")
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
