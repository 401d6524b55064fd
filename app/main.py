"""FastAPI app factory: `uvicorn app.main:create_app --factory`."""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from app.auth import ensure_local_key
from app.limits import BodySizeLimit
from app.metrics import Metrics, ProfilingMiddleware
from app.routes import artifacts, drafts, health, profiling, sessions, web, ws
from app.security import SecurityHeaders
from app.services.recovery import fail_interrupted_turns
from app.state import Resources
from assetops.redact import install_log_redaction, redact
from assetops.settings import Settings, get_settings
from tools.framework.workers import task_pool

log = logging.getLogger("assetops")


def _metrics_of(scope: Any) -> Metrics | None:
    app = scope.get("app")
    resources = getattr(getattr(app, "state", None), "resources", None)
    return resources.metrics if resources is not None else None


MAX_ECHO_CHARS = 120


def _short(value: Any) -> Any:
    """An input as echoed in an error body: long strings cut (a 30k-character message is not sent back)."""
    if isinstance(value, str) and len(value) > MAX_ECHO_CHARS:
        return f"{value[:MAX_ECHO_CHARS]}... ({len(value):,} characters)"
    if isinstance(value, dict):
        return {k: _short(v) for k, v in list(value.items())[:20]}
    if isinstance(value, list):
        return [_short(v) for v in value[:20]]
    return value


def _plain(ctx: Any) -> Any:
    """The error's context (e.g. max_length) with anything not JSON-shaped (an exception) as text."""
    if not isinstance(ctx, dict):
        return str(ctx)
    return {k: v if isinstance(v, int | float | str | bool) or v is None else str(v) for k, v in ctx.items()}


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 naming each wrong field in words (the default body with long inputs cut, plus a summary)."""
    assert isinstance(exc, RequestValidationError)
    errors = [{k: _short(_text(v)) if k == "input" else _plain(v) if k == "ctx" else v for k, v in err.items()}
              for err in exc.errors()]
    fields = ["/".join(str(p) for p in err.get("loc", ())[1:]) or "body" for err in errors]
    summary = "; ".join(f"{f}: {e.get('msg')}" for f, e in zip(fields, errors, strict=False))
    return JSONResponse(status_code=422, content=jsonable_encoder({"detail": errors,
                                                                   "message": f"Invalid request: {summary}"}))


def _text(value: Any) -> Any:
    """Raw byte inputs (a form or binary body) as text, so the error body serialises."""
    return value[:200].decode("utf-8", errors="replace") if isinstance(value, bytes) else value


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    """503 (retryable) instead of a bare 500 when the database drops a connection mid-request."""
    log.warning("database error on %s %s: %s", request.method, request.url.path, exc)
    return JSONResponse(status_code=503, headers={"Retry-After": "2"}, content={
        "detail": f"The database did not answer this request ({type(exc).__name__}); nothing partial was stored. "
                  "Retry in a moment; /readyz shows when it answers again."})


async def _announce_local_key(settings: Settings, resources: Resources) -> None:
    key = await ensure_local_key(settings, resources.db)
    if key is not None:
        print(f"\n  First start: created API user 'local' with key\n    {key}\n"
              f"  (also saved in {settings.data_dir / 'local_api_key'}). Paste it into the web page.\n", flush=True)


def work_dir_problem(settings: Settings) -> str | None:
    """Why the data/work directories cannot be created or written (None when they can): tools write
    every CSV, JSON and model there, so a turn could not keep its evidence without it."""
    try:
        settings.ensure_dirs()
        with tempfile.NamedTemporaryFile(dir=settings.work_dir, prefix=".write-check-"):
            pass
    except OSError as exc:
        return (f"the work directory {settings.work_dir} is not writable ({type(exc).__name__}: {exc.strerror or exc}); "
                "point ASSETOPS_WORK_DIR at a writable directory with free space")
    return None


def create_app(settings: Settings | None = None, *, deps_overrides: dict[str, Any] | None = None) -> FastAPI:
    """Build the app; the database, cache, checkpointer and graph open in the lifespan."""
    settings = settings or get_settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    install_log_redaction()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from graph.deps import open_deps

        work_problem = work_dir_problem(settings)
        if work_problem is None:
            task_pool(settings).start()  # tool worker processes warm up in the background
        async with contextlib.AsyncExitStack() as stack:
            try:
                if work_problem is not None:  # serve /healthz and /readyz with the reason, run no turns
                    raise OSError(work_problem)
                deps = await stack.enter_async_context(open_deps(settings, **(deps_overrides or {})))
                resources = Resources.from_deps(deps)
            except Exception as exc:  # keep serving /healthz and /readyz (503 with the reason) when storage is down
                log.error("chat engine not started: %s", exc)
                resources = Resources.open(settings)
                resources.startup_error = redact(f"{type(exc).__name__}: {exc}")
                stack.push_async_callback(resources.close)
            app.state.resources = resources
            if resources.startup_error is None:
                await fail_interrupted_turns(resources.db, resources.locks)
            if settings.auth == "on" and resources.startup_error is None:
                await _announce_local_key(settings, resources)
            yield

    app = FastAPI(
        title="AssetOps",
        summary="Multi-turn diagnostic assistant for chiller operations and maintenance.",
        description="REST and websocket access to the supervisor and its four specialists. Authenticate with "
                    "`Authorization: Bearer <API key>` (`assetops users create NAME`).",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # served by app.routes.web with local Swagger UI assets (works offline)
    )
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(SQLAlchemyError, _database_error)
    for module in (health, sessions, artifacts, drafts, ws, web, profiling):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=web.STATIC_DIR), name="static")
    app.mount("/docs-assets", StaticFiles(directory=web.SWAGGER_DIR), name="docs-assets")
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_request_bytes)
    if settings.cors_origins:  # off unless origins are listed: the web page is served same-origin
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Authorization", "Content-Type"])
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ProfilingMiddleware, metrics_of=_metrics_of)
    return app
