"""Artifacts by id: the artifact itself, its data file, and a chart of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, status
from fastapi.responses import FileResponse, Response

from app.auth import ApiUser
from app.deps import ResourcesDep
from app.responses import AUTHENTICATED
from app.services import sessions as session_service
from app.services.chart_cache import cached_chart
from app.services.charts import chart_for_file
from app.state import Resources
from artifacts.model import Artifact

router = APIRouter(prefix="/v1/artifacts", tags=["artifacts"], responses=AUTHENTICATED)


async def owned_artifact(resources: Resources, user: Any, artifact_id: str) -> Artifact:
    """The artifact when its session belongs to the caller, else 404."""
    artifact = await resources.artifacts.get(artifact_id)
    if artifact is None or await session_service.get_session_row(
            resources.db, owner=user, session_id=artifact.session_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"No artifact '{artifact_id}' for this API key.")
    return artifact


def data_path(resources: Resources, artifact: Artifact) -> Path:
    """The artifact's data file, which must lie inside the work directory."""
    if not artifact.data_ref:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"Artifact '{artifact.id}' has no data file.")
    workdir = resources.settings.work_dir.resolve()
    path = Path(artifact.data_ref)
    path = (path if path.is_absolute() else workdir / path).resolve()
    if not path.is_relative_to(workdir) or not path.is_file():
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"The data file of '{artifact.id}' is no longer available.")
    return path


@router.get("/{artifact_id}", summary="One artifact")
async def get_artifact(artifact_id: str, user: ApiUser, resources: ResourcesDep) -> dict[str, Any]:
    artifact = await owned_artifact(resources, user, artifact_id)
    return artifact.model_dump(mode="json")


@router.get("/{artifact_id}/data", summary="The artifact's data file (CSV or JSON)",
            responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}, "application/json": {}}}})
async def artifact_data(artifact_id: str, user: ApiUser, resources: ResourcesDep) -> FileResponse:
    path = data_path(resources, await owned_artifact(resources, user, artifact_id))
    return FileResponse(path, filename=path.name)


@router.get("/{artifact_id}/chart.png", summary="A chart of the artifact's data",
            responses={200: {"content": {"image/png": {}}}})
async def artifact_chart(artifact_id: str, user: ApiUser, resources: ResourcesDep) -> Response:
    artifact = await owned_artifact(resources, user, artifact_id)
    path = data_path(resources, artifact)
    title = f"{artifact.kind.replace('_', ' ')}: {', '.join(artifact.asset_ids)}"
    cache_dir = resources.settings.data_dir / "charts"
    png = await cached_chart(cache_dir, artifact.id, path, lambda: chart_for_file(path, title))
    if png is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"The data of '{artifact_id}' has no chartable shape.")
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=86400"})
