"""The web chat page, the profiling dashboard, offline API docs, and Prometheus metrics."""

from __future__ import annotations

from pathlib import Path

import swagger_ui
from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse

from app.deps import ResourcesDep

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
# Swagger UI's own files, from the swagger-ui-py wheel: /docs loads nothing from a CDN.
SWAGGER_DIR = Path(swagger_ui.__file__).resolve().parent / "static"
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


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    """Swagger UI for the OpenAPI schema, with its script and style served from this service."""
    return get_swagger_ui_html(openapi_url="/openapi.json", title="AssetOps API",
                               swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                               swagger_css_url="/docs-assets/swagger-ui.css",
                               swagger_favicon_url="/docs-assets/favicon-32x32.png")
