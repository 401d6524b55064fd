"""The web chat page, the profiling dashboard, its data, and Prometheus metrics."""

from __future__ import annotations

from pathlib import Path
from statistics import mean
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, PlainTextResponse
from sqlalchemy import select

from app.auth import ApiUser
from app.deps import ResourcesDep
from assetops.db.tables import SessionRow, ToolCallRow, TurnRow

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
router = APIRouter(tags=["web"])


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html")


@router.get("/dashboard", include_in_schema=False)
async def dashboard() -> FileResponse:
    return FileResponse(STATIC_DIR / "dashboard.html")


@router.get("/metrics", response_class=PlainTextResponse, summary="Prometheus metrics")
async def metrics(resources: ResourcesDep) -> PlainTextResponse:
    return PlainTextResponse(resources.metrics.prometheus(), media_type="text/plain; version=0.0.4")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


@router.get("/v1/profiling/summary", summary="Dialog- and turn-level profile of the caller's sessions")
async def profiling_summary(user: ApiUser, resources: ResourcesDep) -> dict[str, Any]:
    """Wall time split into LLM / tool / routing (the residual), tokens, LLM and tool calls, reuse,
    first vs follow-up turn latency, and per-server tool latency."""
    async with resources.db.session() as session:
        mine = select(SessionRow.id).where(SessionRow.owner == user.id)
        turns = (await session.execute(select(TurnRow).where(TurnRow.session_id.in_(mine))
                                       .order_by(TurnRow.started_at.desc()).limit(200))).scalars().all()
        calls = (await session.execute(select(ToolCallRow).where(ToolCallRow.session_id.in_(mine)))).scalars().all()
    rows = []
    for t in turns:
        timings = t.timings or {}
        wall, llm, tool = (float(timings.get(k, 0.0)) for k in ("wall_ms", "llm_ms", "tool_ms"))
        rows.append({"session_id": t.session_id, "index": t.index, "status": t.status, "wall_ms": wall, "llm_ms": llm,
                     "tool_ms": min(tool, max(wall - llm, 0.0)), "routing_ms": max(wall - llm - tool, 0.0),
                     "tool_calls": timings.get("tool_calls", 0), "db_queries": timings.get("db_queries", 0),
                     "answer_chars": len(t.answer or ""),
                     "tokens": timings.get("prompt_tokens", 0) + timings.get("completion_tokens", 0)})
    servers: dict[str, list[ToolCallRow]] = {}
    for call in calls:
        if not call.reused:
            servers.setdefault(call.server or "?", []).append(call)
    first = [r["wall_ms"] for r in rows if r["index"] == 1]
    follow = [r["wall_ms"] for r in rows if r["index"] > 1]
    totals = {
        "sessions": len({r["session_id"] for r in rows}), "turns": len(rows),
        "wall_ms": sum(r["wall_ms"] for r in rows), "llm_ms": sum(r["llm_ms"] for r in rows),
        "tool_ms": sum(r["tool_ms"] for r in rows), "routing_ms": sum(r["routing_ms"] for r in rows),
        "llm_calls": sum(int((t.timings or {}).get("llm_calls", 0)) for t in turns),
        "prompt_tokens": sum(int((t.timings or {}).get("prompt_tokens", 0)) for t in turns),
        "completion_tokens": sum(int((t.timings or {}).get("completion_tokens", 0)) for t in turns),
        "tool_calls": len(calls), "reused_calls": sum(1 for c in calls if c.reused),
        "first_turn_ms": mean(first) if first else 0.0, "follow_up_ms": mean(follow) if follow else 0.0,
    }
    return {
        "totals": totals, "turns": rows,
        "servers": [{"server": name, "calls": len(items), "failed": sum(1 for c in items if c.status != "ok"),
                     "mean_ms": mean(c.latency_ms for c in items), "p95_ms": _p95([c.latency_ms for c in items])}
                    for name, items in sorted(servers.items())],
    }
