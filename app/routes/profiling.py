"""Profiling data: the dashboard's summary (filtered) and one session's per-turn profile."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status

from app.auth import ApiUser
from app.deps import ResourcesDep
from app.responses import AUTHENTICATED
from app.services import profiles

router = APIRouter(tags=["profiling"], responses=AUTHENTICATED)


@router.get("/v1/profiling/summary", summary="Profile of the caller's turns, filtered by session and time")
async def profiling_summary(
    user: ApiUser, resources: ResourcesDep,
    session_id: Annotated[str | None, Query(max_length=40, description="Only this session's turns.")] = None,
    since: Annotated[datetime | None, Query(description="Turns started at or after (ISO 8601).")] = None,
    until: Annotated[datetime | None, Query(description="Turns started at or before (ISO 8601).")] = None,
    limit: Annotated[int, Query(ge=1, le=profiles.MAX_TURNS, description="Newest turns to include.")] = 500,
) -> dict[str, Any]:
    """The newest `limit` matching turns with their measured wall-time split, totals over them,
    per-server tool latency, and `matching`: how many turns match the filters in all."""
    where = profiles.TurnFilter(session_id=session_id, since=since, until=until, limit=limit)
    entries, matching = await profiles.load_turns(resources.db, user, where)
    servers = await profiles.server_latency(resources.db, user, [e["turn_id"] for e in entries])
    return {"filters": {"session_id": session_id, "since": since, "until": until, "limit": limit},
            "matching": matching, "totals": profiles.totals(entries), "turns": entries, "servers": servers}


@router.get("/v1/sessions/{session_id}/profile", summary="Per-turn profile of one session")
async def session_profile(session_id: str, user: ApiUser, resources: ResourcesDep) -> dict[str, Any]:
    """Every finished turn: wall time, the measured split (LLM, tools, database, routing, specialists,
    answer, other), and its tool calls with latency, database time and reuse."""
    profile = await profiles.session_profile(resources.db, user, session_id)
    if profile is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"No session '{session_id}' for this API key.")
    return profile
