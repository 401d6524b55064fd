"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.deps import ResourcesDep
from assetops.redact import redact
from tools.framework.workers import task_pool

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is up")
async def healthz() -> dict[str, str]:
    """Always 200 while the process serves requests."""
    return {"status": "ok"}


@router.get("/readyz", summary="The database answers (Redis down only degrades)",
            responses={503: {"description": "The database does not answer, or the chat engine did not start."}})
async def readyz(resources: ResourcesDep) -> JSONResponse:
    """200 "ready" when every configured backing service answers; 200 "degraded" with the reason when
    only Redis is down (turns still run on the in-process cache and locks, so a load balancer must keep
    this replica); 503 naming the problem when the database is down or the chat engine did not start."""
    checks: dict[str, str] = {}
    problems: list[str] = []
    degraded: list[str] = []
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
            checks["redis"] = "unreachable (serving from the in-process cache and locks)"
            degraded.append(f"redis at {resources.settings.redis_url} unreachable: {exc}")
    else:
        checks["redis"] = "not configured (in-process cache)"
    # Informational only: without workers the same work runs in this process.
    pool = task_pool(resources.settings)
    checks["tool_workers"] = f"{pool.ready_processes} of {pool.processes} worker processes running"
    if resources.startup_error is not None:
        checks["chat_engine"] = "not started"
        problems.append(f"chat engine not started: {resources.startup_error}")
    if problems:
        return JSONResponse(status_code=503, content={"status": "unavailable", "checks": checks,
                                                      "reason": redact("; ".join(problems + degraded))})
    if degraded:
        return JSONResponse(status_code=200, content={"status": "degraded", "checks": checks,
                                                      "reason": redact("; ".join(degraded))})
    return JSONResponse(status_code=200, content={"status": "ready", "checks": checks})
