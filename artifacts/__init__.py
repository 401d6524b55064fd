"""Artifacts: the assistant's memory of what it found (model, coverage matching, cached durable store)."""

from artifacts.matching import CoverageQuery, covers
from artifacts.model import Artifact, ArtifactToolCall, new_artifact_id
from artifacts.store import ArtifactStore

__all__ = ["Artifact", "ArtifactStore", "ArtifactToolCall", "CoverageQuery", "covers", "new_artifact_id"]
