"""Pure reuse matching: does an existing artifact already cover what a specialist is about to fetch?"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from artifacts.model import Artifact


@dataclass(frozen=True)
class CoverageQuery:
    """The evidence a specialist needs: this asset, at least this window, at least these sensors."""

    session_id: str
    asset_id: str
    start: datetime
    end: datetime
    sensors: frozenset[str] = field(default_factory=frozenset)
    kinds: frozenset[str] = field(default_factory=frozenset)  # empty: any kind


def covers(artifact: Artifact, query: CoverageQuery) -> bool:
    """True when `artifact` belongs to the query's session and asset, its window contains
    [start, end] (touching edges count as contained) and its sensors include every requested one.

    An artifact with no window never covers a windowed query: we cannot know what it saw.
    """
    if artifact.session_id != query.session_id or query.asset_id not in artifact.asset_ids:
        return False
    if query.kinds and artifact.kind not in query.kinds:
        return False
    if artifact.window_start is None or artifact.window_end is None:
        return False
    if artifact.window_start > query.start or artifact.window_end < query.end:
        return False
    return query.sensors.issubset(artifact.sensors)


def best_cover(artifacts: Iterable[Artifact], query: CoverageQuery) -> Artifact | None:
    """The covering artifact with the tightest window (least to slice away); newest on ties."""
    matches = [a for a in artifacts if covers(a, query)]
    if not matches:
        return None

    def span(a: Artifact) -> float:
        assert a.window_start is not None and a.window_end is not None
        return (a.window_end - a.window_start).total_seconds()

    return min(matches, key=lambda a: (span(a), -a.created_at.timestamp()))
