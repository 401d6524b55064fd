"""FastAPI app factory: `uvicorn app.main:create_app --factory`."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.routes import health
from app.state import Resources
from assetops.settings import Settings, get_settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; resources are opened in the lifespan and closed on shutdown."""
    settings = settings or get_settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        resources = Resources.open(settings)
        app.state.resources = resources
        try:
            yield
        finally:
            await resources.close()

    app = FastAPI(
        title="AssetOps",
        summary="Multi-turn diagnostic assistant for chiller operations and maintenance.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.include_router(health.router)
    return app
