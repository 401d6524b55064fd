"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.deps import ResourcesDep
from tools.framework.workers import task_pool

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is up")
async def healthz() -> dict[str, str]:
    """Always 200 while the process serves requests."""
    return {"status": "ok"}


@router.get("/readyz", summary="The database (and Redis, when configured) answer")
async def readyz(resources: ResourcesDep) -> JSONResponse:
    """200 when every configured backing service answers; 503 naming the one that does not."""
    checks: dict[str, str] = {}
    problems: list[str] = []
    try:
        await resources.db.ping()
        checks["database"] = "ok"
    except (SQLAlchemyError, OSError) as exc:
        checks["database"] = "unreachable"
        problems.append(f"database {resources.db.dialect} unreachable: {exc.__class__.__name__}: {exc}")
    if resources.settings.redis_url:
        try:
            await resources.cache.ping()
            checks["redis"] = "ok"
        except (RedisError, OSError) as exc:
            checks["redis"] = "unreachable"
            problems.append(f"redis at {resources.settings.redis_url} unreachable: {exc}")
    else:
        checks["redis"] = "not configured (in-process cache)"
    # Informational only: without workers the same work runs in this process.
    pool = task_pool(resources.settings)
    checks["tool_workers"] = f"{pool.ready_processes} of {pool.processes} worker processes running"
    if resources.startup_error is not None:
        checks["chat_engine"] = "not started"
        problems.append(f"chat engine not started: {resources.startup_error}")
    if problems:
        return JSONResponse(status_code=503, content={"status": "unavailable", "checks": checks, "reason": "; ".join(problems)})
    return JSONResponse(status_code=200, content={"status": "ready", "checks": checks})
