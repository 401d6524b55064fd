"""Annotated dependency aliases used by the routes (thin routes, resources injected)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.state import Resources


def get_resources(request: Request) -> Resources:
    """The resources the lifespan opened for this app instance."""
    resources: Resources = request.app.state.resources
    return resources


ResourcesDep = Annotated[Resources, Depends(get_resources)]
