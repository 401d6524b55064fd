"""Turns left "running" by a process that died: found and marked failed, with the reason.

A turn row says "running" from its first event to its last. When the API process is killed in
between, nothing else would ever close it. Two sweeps close it:
- at startup, every running turn whose session lock nobody holds (no lock store: every one);
- when a new turn of a session takes the session lock, any older running turn of that session
  (holding the lock proves nothing else is running it).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from app.locks import SessionLocks
from assetops.db.engine import Database
from assetops.db.tables import TurnRow

log = logging.getLogger(__name__)

INTERRUPTED = ("interrupted: the service stopped while this turn was running (process killed or restarted); "
               "its answer was never completed. Send the message again.")


async def fail_interrupted_turns(db: Database, locks: SessionLocks | None = None, *,
                                 session_id: str | None = None) -> list[str]:
    """Mark running turns failed (all, or one session's); skip sessions whose lock someone holds.

    Returns the ids of the turns it marked. Database errors are logged, never raised: recovery
    must not stop the service from starting."""
    try:
        async with db.session() as session:
            query = select(TurnRow).where(TurnRow.status == "running")
            if session_id is not None:
                query = query.where(TurnRow.session_id == session_id)
            rows = list((await session.execute(query)).scalars())
            marked: list[str] = []
            for row in rows:
                if session_id is None and locks is not None and await locks.held_elsewhere(row.session_id):
                    continue  # another live replica is running it
                row.status, row.error = "failed", INTERRUPTED
                row.answer = row.answer or "This turn was interrupted before it finished; please send the message again."
                row.finished_at = datetime.now(UTC)
                marked.append(row.id)
    except SQLAlchemyError as exc:
        log.warning("could not sweep interrupted turns: %s", exc)
        return []
    if marked:
        log.warning("marked %d interrupted turn(s) failed: %s", len(marked), ", ".join(marked))
    return marked
