"""Running a turn for the service: lock the session, run the graph in the background, persist and
broadcast every event. The turn finishes (and is stored) even when the client goes away."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from app.bus import SessionBus
from app.locks import RENEW_EVERY_S, SessionLocks
from app.metrics import Metrics
from app.services.recovery import fail_interrupted_turns
from assetops.db.base import utcnow
from assetops.db.engine import Database
from assetops.db.tables import SessionRow, TurnEventRow
from assetops.domain.events import TurnEvent
from assetops.redact import redact

if TYPE_CHECKING:
    from graph.deps import Deps

log = logging.getLogger(__name__)
_END = object()


class TurnExecution:
    """One running turn: iterate `events()` to follow it; it runs to the end regardless."""

    def __init__(self, *, deps: Deps, db: Database, bus: SessionBus, locks: SessionLocks, lease: tuple[str, str, bool],
                 session_id: str, message: str, reference_date: date, metrics: Metrics | None = None) -> None:
        self.session_id = session_id
        self._metrics = metrics
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._db, self._bus, self._locks, self._lease = db, bus, locks, lease
        self.task = asyncio.create_task(self._run(deps, message, reference_date))

    async def _run(self, deps: Deps, message: str, reference_date: date) -> None:
        from graph.runner import run_turn

        events: list[TurnEvent] = []
        renewer = asyncio.create_task(self._keep_lock())
        try:
            async for event in run_turn(deps, self.session_id, message, reference_date=reference_date):
                events.append(event)
                if event.type != "done":  # `done` goes out once the turn is stored and the session free
                    await self._deliver(event)
        except Exception as exc:  # run_turn reports its own failures; this guards the plumbing around it
            log.exception("turn plumbing failed for %s", self.session_id)
            turn_index = events[0].turn_index if events else 0
            for kind, data in (("error", {"stage": "service", "message": redact(str(exc))}),
                               ("final_answer", {"text": "The turn could not be completed because of an internal "
                                                         "problem; nothing was lost, please retry.", "kind": "error"}),
                               ("done", {"status": "error"})):
                event = TurnEvent(type=kind, session_id=self.session_id, turn_index=turn_index, data=data)  # type: ignore[arg-type]
                events.append(event)
                if kind != "done":
                    await self._deliver(event)
        finally:
            renewer.cancel()
            await save_events(self._db, events)
            await self._locks.release(self._lease)
            # Only now: a client that sends its next message on `done` must find the session free.
            for event in [e for e in events if e.type == "done"][-1:]:
                await self._deliver(event)
            if self._metrics is not None:
                self._observe(events)
            self._queue.put_nowait(_END)

    async def _deliver(self, event: TurnEvent) -> None:
        self._queue.put_nowait(event)
        with contextlib.suppress(Exception):  # a bus failure must not lose the turn (it is stored either way)
            await self._bus.publish(self.session_id, event.model_dump_json())

    async def _keep_lock(self) -> None:
        while True:  # cancelled when the turn ends
            await asyncio.sleep(RENEW_EVERY_S)
            await self._locks.renew(self._lease)

    def _observe(self, events: list[TurnEvent]) -> None:
        done = next((e for e in reversed(events) if e.type == "done"), None)
        calls = [(str(e.data.get("name")), "reused" if e.data.get("reused") else str(e.data.get("status")),
                  float(e.data.get("latency_ms") or 0.0)) for e in events if e.type == "tool_call_finished"]
        assert self._metrics is not None
        self._metrics.observe_turn(str(done.data.get("status", "ok")) if done else "error", calls)

    async def events(self) -> AsyncIterator[TurnEvent]:
        """The turn's events as they happen, ending after `done`."""
        while (item := await self._queue.get()) is not _END:
            yield item


async def start_turn(*, deps: Deps, db: Database, bus: SessionBus, locks: SessionLocks, session_id: str,
                     message: str, reference_date: date, metrics: Metrics | None = None) -> TurnExecution:
    """Lock the session (SessionBusy if a turn is running) and start the turn in the background."""
    lease = await locks.acquire(session_id)
    # Holding the lock proves no other turn of this session runs: one still "running" was interrupted.
    await fail_interrupted_turns(db, session_id=session_id)
    return TurnExecution(deps=deps, db=db, bus=bus, locks=locks, lease=lease, session_id=session_id,
                         message=message, reference_date=reference_date, metrics=metrics)


async def save_events(db: Database, events: list[TurnEvent]) -> None:
    """Append a turn's events (in order) and touch the session; best effort, logged on failure."""
    if not events:
        return
    session_id = events[0].session_id
    try:
        async with db.session() as session:
            start = (await session.execute(select(func.count()).select_from(TurnEventRow).where(
                TurnEventRow.session_id == session_id, TurnEventRow.turn_index == events[0].turn_index))).scalar_one()
            session.add_all([TurnEventRow(session_id=e.session_id, turn_index=e.turn_index, seq=start + i, type=e.type,
                                          specialist=e.specialist, timestamp=e.timestamp, data=e.data)
                             for i, e in enumerate(events)])
            row = await session.get(SessionRow, session_id)
            if row is not None:
                row.updated_at = utcnow()
    except SQLAlchemyError as exc:
        log.warning("events of session %s not stored: %s", session_id, exc)


async def load_events(db: Database, session_id: str) -> list[TurnEvent]:
    """Every stored event of a session, by turn and order."""
    async with db.session() as session:
        rows = (await session.execute(select(TurnEventRow).where(TurnEventRow.session_id == session_id)
                                      .order_by(TurnEventRow.turn_index, TurnEventRow.seq))).scalars()
        return [TurnEvent(type=r.type, session_id=r.session_id, turn_index=r.turn_index,  # type: ignore[arg-type]
                          timestamp=r.timestamp, specialist=r.specialist, data=r.data or {}) for r in rows]
