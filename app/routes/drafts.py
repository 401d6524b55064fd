"""Work orders drafted by the maintenance specialist (read-only here: a planner reviews them)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status
from sqlalchemy import select

from app.auth import ApiUser
from app.deps import ResourcesDep
from app.responses import AUTHENTICATED
from app.schemas import DraftPublic
from assetops.db.tables import SessionRow, WorkOrderDraftRow

router = APIRouter(prefix="/v1/work-orders/drafts", tags=["work orders"], responses=AUTHENTICATED)


def _public(row: WorkOrderDraftRow) -> DraftPublic:
    return DraftPublic(id=row.id, session_id=row.session_id, equipment_id=row.equipment_id, asset_id=row.asset_id,
                       title=row.title, scope=row.scope, primary_code=row.primary_code,
                       secondary_code=row.secondary_code, priority=row.priority, status=row.status,
                       details=row.details or {}, created_at=row.created_at)


def _owned(user_id: str):  # type: ignore[no-untyped-def]
    mine = select(SessionRow.id).where(SessionRow.owner == user_id)
    return select(WorkOrderDraftRow).where(WorkOrderDraftRow.session_id.in_(mine))


@router.get("", response_model=list[DraftPublic], summary="The caller's drafted work orders")
async def list_drafts(user: ApiUser, resources: ResourcesDep) -> list[DraftPublic]:
    async with resources.db.session() as session:
        rows = (await session.execute(_owned(user.id).order_by(WorkOrderDraftRow.created_at.desc()))).scalars()
        return [_public(r) for r in rows]


@router.get("/{draft_id}", response_model=DraftPublic, summary="One drafted work order")
async def get_draft(draft_id: str, user: ApiUser, resources: ResourcesDep) -> DraftPublic:
    async with resources.db.session() as session:
        row = (await session.execute(_owned(user.id).where(WorkOrderDraftRow.id == draft_id))).scalar_one_or_none()
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"No drafted work order '{draft_id}' for this API key.")
    return _public(row)
