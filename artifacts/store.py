"""Durable artifact CRUD in the database with a read-through / write-through hot cache.

The database is the source of truth. Every write goes to the database first and then to the cache;
reads try the cache first and only touch the database on a miss, which is what makes follow-up turns
cheap. The cache is Redis when configured, otherwise (or while Redis is down) an in-process LRU.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import delete, select

from artifacts.matching import CoverageQuery, best_cover, covers
from artifacts.model import Artifact
from assetops.cache import FallbackCache
from assetops.db.engine import Database
from assetops.db.tables import ArtifactRow
from assetops.domain.specialists import SpecialistId


def _to_row(artifact: Artifact) -> dict[str, object]:
    data = artifact.model_dump(mode="python")
    data["tool_calls"] = [call.model_dump(mode="json") for call in artifact.tool_calls]
    data["asset_id"] = artifact.asset_ids[0] if artifact.asset_ids else None
    return data


def _from_row(row: ArtifactRow) -> Artifact:
    return Artifact(
        id=row.id, session_id=row.session_id, turn_index=row.turn_index, producer=cast(SpecialistId, row.producer), kind=row.kind,
        site=row.site, asset_ids=list(row.asset_ids or []), equipment_ids=list(row.equipment_ids or []),
        window_start=row.window_start, window_end=row.window_end, sensors=list(row.sensors or []),
        tool_calls=row.tool_calls or [], observations=list(row.observations or []), results=row.results or {},
        data_ref=row.data_ref, assumptions=list(row.assumptions or []), confidence=row.confidence,
        summary=row.summary, created_at=row.created_at,
    )


class ArtifactStore:
    """Artifacts of all sessions: durable in the database, hot in the cache."""

    def __init__(self, db: Database, cache: FallbackCache, *, ttl_s: int = 3600) -> None:
        self.db = db
        self.cache = cache
        self.ttl_s = ttl_s

    @staticmethod
    def _key(artifact_id: str) -> str:
        return f"artifact:{artifact_id}"

    async def put(self, artifact: Artifact) -> Artifact:
        """Insert or replace an artifact, then refresh the cache (write-through)."""
        values = _to_row(artifact)
        async with self.db.session() as session:
            row = await session.get(ArtifactRow, artifact.id)
            if row is None:
                session.add(ArtifactRow(**values))
            else:
                for name, value in values.items():
                    setattr(row, name, value)
        await self.cache.set(self._key(artifact.id), artifact.model_dump_json().encode(), self.ttl_s)
        return artifact

    async def get(self, artifact_id: str) -> Artifact | None:
        """The artifact by id: from the cache when hot (no database query), else from the database."""
        cached = await self.cache.get(self._key(artifact_id))
        if cached is not None:
            return Artifact.model_validate_json(cached)
        async with self.db.session() as session:
            row = await session.get(ArtifactRow, artifact_id)
            if row is None:
                return None
            artifact = _from_row(row)
        await self.cache.set(self._key(artifact_id), artifact.model_dump_json().encode(), self.ttl_s)
        return artifact

    async def delete(self, artifact_id: str) -> None:
        """Remove the artifact from the database and the cache."""
        async with self.db.session() as session:
            await session.execute(delete(ArtifactRow).where(ArtifactRow.id == artifact_id))
        await self.cache.delete(self._key(artifact_id))

    async def list_session(self, session_id: str) -> list[Artifact]:
        """Every artifact of a session, oldest first."""
        async with self.db.session() as session:
            rows = (
                await session.execute(
                    select(ArtifactRow).where(ArtifactRow.session_id == session_id).order_by(ArtifactRow.created_at)
                )
            ).scalars()
            return [_from_row(row) for row in rows]

    async def delete_session(self, session_id: str) -> int:
        """Remove every artifact of a session; returns how many went."""
        artifacts = await self.list_session(session_id)
        for artifact in artifacts:
            await self.delete(artifact.id)
        return len(artifacts)

    async def find_covering(self, query: CoverageQuery) -> list[Artifact]:
        """Artifacts of the session for the asset whose window contains [start, end] and whose sensors
        include the requested ones. The window/asset prefilter runs in SQL; list-valued conditions
        (all asset ids, sensor subset) are checked by the pure `covers`."""
        stmt = select(ArtifactRow).where(
            ArtifactRow.session_id == query.session_id,
            ArtifactRow.window_start <= query.start,
            ArtifactRow.window_end >= query.end,
        )
        if query.kinds:
            stmt = stmt.where(ArtifactRow.kind.in_(sorted(query.kinds)))
        async with self.db.session() as session:
            rows = (await session.execute(stmt.order_by(ArtifactRow.created_at))).scalars()
            candidates = [_from_row(row) for row in rows]
        return [a for a in candidates if covers(a, query)]

    async def best_covering(self, query: CoverageQuery) -> Artifact | None:
        """The tightest covering artifact, or None."""
        return best_cover(await self.find_covering(query), query)
