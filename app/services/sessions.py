"""Chat sessions: create, list, read (with turns), delete, always scoped to their owner."""

from __future__ import annotations

import uuid
from datetime import date

from sqlalchemy import delete, select

from app.auth import User
from app.schemas import SessionPublic, TurnPublic
from assetops.db.engine import Database
from assetops.db.tables import SessionRow, TurnRow, WorkOrderDraftRow


def new_session_id() -> str:
    return f"ses_{uuid.uuid4().hex[:16]}"


def _public(row: SessionRow) -> SessionPublic:
    return SessionPublic(id=row.id, title=row.title, reference_date=row.reference_date, created_at=row.created_at,
                         updated_at=row.updated_at)


async def create_session(db: Database, *, owner: User, title: str | None, reference_date: date) -> SessionPublic:
    """A new, empty session of `owner`."""
    row = SessionRow(id=new_session_id(), owner=owner.id, title=title or "", reference_date=reference_date)
    async with db.session() as session:
        session.add(row)
    return _public(row)


async def get_session_row(db: Database, *, owner: User, session_id: str) -> SessionRow | None:
    """The session when it exists and belongs to `owner` (another user's session is simply not found)."""
    async with db.session() as session:
        row = await session.get(SessionRow, session_id)
        return row if row is not None and row.owner == owner.id else None


async def list_sessions(db: Database, *, owner: User) -> list[SessionPublic]:
    """The owner's sessions, most recently active first."""
    async with db.session() as session:
        rows = (await session.execute(select(SessionRow).where(SessionRow.owner == owner.id)
                                      .order_by(SessionRow.updated_at.desc()))).scalars()
        return [_public(r) for r in rows]


async def session_turns(db: Database, session_id: str) -> list[TurnPublic]:
    """The session's turns in order."""
    async with db.session() as session:
        rows = (await session.execute(select(TurnRow).where(TurnRow.session_id == session_id)
                                      .order_by(TurnRow.index))).scalars()
        return [TurnPublic(id=r.id, index=r.index, user_message=r.user_message, answer=r.answer, status=r.status, error=r.error,
                           timings=r.timings or {}, started_at=r.started_at, finished_at=r.finished_at) for r in rows]


async def delete_session(db: Database, session_id: str) -> None:
    """Remove the session row (turns and events cascade) and its drafts."""
    async with db.session() as session:
        await session.execute(delete(WorkOrderDraftRow).where(WorkOrderDraftRow.session_id == session_id))
        row = await session.get(SessionRow, session_id)
        if row is not None:
            await session.delete(row)
