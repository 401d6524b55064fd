"""Persists each turn and its tool calls (tables turns / tool_calls) for history and rollout export.

The recorder watches the turn's event stream: it opens the turn row when the turn starts, collects
`tool_call_finished` events, and writes them with the answer, status and timings at the end.
Recording is best effort: a database problem here is logged and never fails the user's turn.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from assetops.db.engine import Database
from assetops.db.tables import SessionRow, ToolCallRow, TurnRow
from assetops.domain.events import TurnEvent
from specialists.base import call_key

DEFAULT_OWNER = "local"


def tool_call_row(event: TurnEvent, *, turn_id: str) -> ToolCallRow:
    """The row of one `tool_call_finished` event."""
    data = event.data
    server, _, tool = str(data["name"]).partition(".")
    latency = float(data.get("latency_ms") or 0.0)
    return ToolCallRow(
        id=uuid.uuid4().hex, session_id=event.session_id, turn_id=turn_id, specialist=event.specialist,
        server=server if tool else "", tool=tool or server, args=data.get("args") or {},
        args_hash=call_key(str(data["name"]), data.get("args") or {}), status=str(data.get("status") or "ok"),
        error=data.get("error"), latency_ms=latency, reused=bool(data.get("reused")),
        started_at=event.timestamp - timedelta(milliseconds=latency),
    )


class TurnRecorder:
    """Writes one turn (and its tool calls) of one session."""

    def __init__(self, db: Database, session_id: str, turn_index: int, message: str, reference_date: date,
                 *, enabled: bool = True) -> None:
        self.db = db
        self.session_id = session_id
        self.turn_index = turn_index
        self.message = message
        self.reference_date = reference_date
        self.enabled = enabled
        self.turn_id = uuid.uuid4().hex
        self.tool_events: list[TurnEvent] = []

    def observe(self, event: TurnEvent) -> None:
        """Keep what must be persisted from the event stream."""
        if event.type == "tool_call_finished":
            self.tool_events.append(event)

    async def start(self) -> None:
        """Make sure the session row exists and open the turn row (status running)."""
        if not self.enabled:
            return
        try:
            async with self.db.session() as session:
                if await session.get(SessionRow, self.session_id) is None:
                    session.add(SessionRow(id=self.session_id, owner=DEFAULT_OWNER, title=self.message[:200],
                                           reference_date=self.reference_date))
                    await session.flush()
                existing = (await session.execute(select(TurnRow).where(
                    TurnRow.session_id == self.session_id, TurnRow.index == self.turn_index))).scalar_one_or_none()
                if existing is not None:  # a turn that crashed before its state was saved is redone
                    self.turn_id = existing.id
                    existing.user_message, existing.status, existing.answer = self.message, "running", ""
                else:
                    session.add(TurnRow(id=self.turn_id, session_id=self.session_id, index=self.turn_index,
                                        user_message=self.message, status="running"))
        except SQLAlchemyError as exc:
            self._disable(exc)

    async def finish(self, *, answer: str, status: str, error: str | None, timings: dict[str, Any]) -> None:
        """Close the turn row and write its tool calls."""
        if not self.enabled:
            return
        try:
            async with self.db.session() as session:
                row = await session.get(TurnRow, self.turn_id)
                if row is not None:
                    row.answer, row.status, row.error, row.timings = answer, status, error, timings
                    row.finished_at = datetime.now(UTC)
                session.add_all([tool_call_row(e, turn_id=self.turn_id) for e in self.tool_events])
        except SQLAlchemyError as exc:
            self._disable(exc)

    def _disable(self, exc: Exception) -> None:
        logging.getLogger(__name__).warning("turn %s/%s not recorded: %s", self.session_id, self.turn_index, exc)
        self.enabled = False
