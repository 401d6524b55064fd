"""Persistence of drafted work orders (the only I/O of drafting)."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from assetops.db.engine import Database
from assetops.db.tables import SessionRow, WorkOrderDraftRow
from specialists.maintenance.drafting import DraftWorkOrder


async def save_draft(db: Database, *, session_id: str, artifact_id: str | None, draft: DraftWorkOrder) -> str:
    """Store the draft and return its id (`WOD-xxxxxxxx`); the owner is the session's owner."""
    draft_id = f"WOD-{uuid.uuid4().hex[:8]}"
    async with db.session() as session:
        owner = (await session.execute(select(SessionRow.owner).where(SessionRow.id == session_id))).scalar()
        session.add(WorkOrderDraftRow(
            id=draft_id, session_id=session_id, owner=owner or "local", artifact_id=artifact_id,
            equipment_id=draft.equipment_id, asset_id=draft.asset_id, title=draft.title, scope=draft.scope_text(),
            primary_code=draft.primary_code, secondary_code=draft.secondary_code, priority=draft.priority,
            details={"failure_mode": draft.failure_mode, "code_description": draft.code_description,
                     "justification": draft.justification, "possible_duplicates": draft.possible_duplicates},
        ))
    return draft_id
