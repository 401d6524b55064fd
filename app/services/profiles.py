"""Turn profiles for the dashboard, `GET /v1/sessions/{id}/profile` and `assetops profile`.

Each finished turn stores its timings (app/graph runner): totals, the measured wall-time split
(assetops/profile_split.py) and the list of its tool calls. This module reads them back for one
owner, filtered by session and time range, and sums them; it never infers a share from a remainder.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from statistics import mean
from typing import Any

from sqlalchemy import func, select

from app.auth import User
from assetops.db.engine import Database
from assetops.db.tables import SessionRow, ToolCallRow, TurnRow
from assetops.profile_split import CATEGORIES

SPLIT_KEYS = (*CATEGORIES, "other")
MAX_TURNS = 1000


@dataclass(frozen=True)
class TurnFilter:
    """Which of the owner's turns to read: one session, a started-at range, and a cap (newest first)."""

    session_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    limit: int = 500


def turn_entry(turn: TurnRow, title: str, *, with_calls: bool = False) -> dict[str, Any]:
    """One turn as the dashboard shows it; `split_ms` is None for turns recorded before it was measured."""
    timings = turn.timings or {}
    split = timings.get("split_ms")
    entry: dict[str, Any] = {
        "turn_id": turn.id, "session_id": turn.session_id, "session_title": title, "index": turn.index,
        "started_at": turn.started_at.isoformat() if turn.started_at else None, "status": turn.status,
        "message": (turn.user_message or "")[:200], "wall_ms": float(timings.get("wall_ms", 0.0)),
        "split_ms": {k: float(split.get(k, 0.0)) for k in SPLIT_KEYS} if isinstance(split, dict) else None,
        "llm_calls": int(timings.get("llm_calls", 0)), "tool_calls": int(timings.get("tool_calls", 0)),
        "tool_busy_ms": float(timings.get("tool_ms", 0.0)), "db_queries": int(timings.get("db_queries", 0)),
        "db_ms": float(timings.get("db_ms", 0.0)),
        "tokens": int(timings.get("prompt_tokens", 0)) + int(timings.get("completion_tokens", 0)),
        "reused_calls": sum(1 for c in timings.get("calls", []) if c.get("reused")),
        "answer_chars": len(turn.answer or ""),
    }
    if with_calls:
        entry["calls"] = list(timings.get("calls", []))
    return entry


def _owned_turns(owner: User, where: TurnFilter) -> Any:
    query = (select(TurnRow, SessionRow.title).join(SessionRow, SessionRow.id == TurnRow.session_id)
             .where(SessionRow.owner == owner.id, TurnRow.status != "running"))
    if where.session_id:
        query = query.where(TurnRow.session_id == where.session_id)
    if where.since:
        query = query.where(TurnRow.started_at >= where.since)
    if where.until:
        query = query.where(TurnRow.started_at <= where.until)
    return query


async def load_turns(db: Database, owner: User, where: TurnFilter) -> tuple[list[dict[str, Any]], int]:
    """(the newest `limit` matching turns, how many turns match in all)."""
    query = _owned_turns(owner, where)
    async with db.session() as session:
        total = (await session.execute(select(func.count()).select_from(query.subquery()))).scalar_one()
        rows = (await session.execute(query.order_by(TurnRow.started_at.desc())
                                      .limit(min(max(where.limit, 1), MAX_TURNS)))).all()
    return [turn_entry(turn, title or turn.session_id) for turn, title in rows], int(total)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def totals(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Sums over the shown turns: wall, the measured split, calls, reuse, first vs follow-up latency."""
    measured = [e for e in entries if e["split_ms"] is not None]
    first = [e["wall_ms"] for e in entries if e["index"] == 1]
    follow = [e["wall_ms"] for e in entries if e["index"] > 1]
    return {
        "turns": len(entries), "sessions": len({e["session_id"] for e in entries}),
        "turns_with_split": len(measured), "wall_ms": sum(e["wall_ms"] for e in entries),
        "split_ms": {k: sum(e["split_ms"][k] for e in measured) for k in SPLIT_KEYS},
        "llm_calls": sum(e["llm_calls"] for e in entries), "tokens": sum(e["tokens"] for e in entries),
        "tool_calls": sum(e["tool_calls"] for e in entries), "reused_calls": sum(e["reused_calls"] for e in entries),
        "db_queries": sum(e["db_queries"] for e in entries), "db_ms": sum(e["db_ms"] for e in entries),
        "first_turns": len(first), "first_turn_ms": mean(first) if first else 0.0,
        "follow_ups": len(follow), "follow_up_ms": mean(follow) if follow else 0.0,
    }


async def server_latency(db: Database, owner: User, turn_ids: list[str]) -> list[dict[str, Any]]:
    """Per tool server over the given turns: calls that ran (not reused), failures, mean and p95 latency."""
    if not turn_ids:
        return []
    async with db.session() as session:
        calls = (await session.execute(select(ToolCallRow).where(ToolCallRow.turn_id.in_(turn_ids)))).scalars().all()
    servers: dict[str, list[ToolCallRow]] = {}
    for call in calls:
        if not call.reused:
            servers.setdefault(call.server or "?", []).append(call)
    return [{"server": name, "calls": len(items), "failed": sum(1 for c in items if c.status != "ok"),
             "mean_ms": mean(c.latency_ms for c in items), "p95_ms": _p95([c.latency_ms for c in items])}
            for name, items in sorted(servers.items())]


async def session_profile(db: Database, owner: User, session_id: str) -> dict[str, Any] | None:
    """Every finished turn of one of the owner's sessions with its split and tool calls; None if not theirs."""
    async with db.session() as session:
        row = await session.get(SessionRow, session_id)
        if row is None or row.owner != owner.id:
            return None
        turns = (await session.execute(select(TurnRow).where(TurnRow.session_id == session_id,
                                                             TurnRow.status != "running")
                                       .order_by(TurnRow.index))).scalars().all()
    entries = [turn_entry(t, row.title or session_id, with_calls=True) for t in turns]
    return {"session_id": session_id, "title": row.title, "turns": entries, "totals": totals(entries)}
