"""The service's long-lived resources, opened in the lifespan and reached through dependencies."""

from __future__ import annotations

from dataclasses import dataclass

from artifacts.store import ArtifactStore
from assetops.cache import FallbackCache, build_cache
from assetops.db.engine import Database
from assetops.settings import Settings


@dataclass
class Resources:
    """What a request may use: settings, the database, the hot cache and the artifact store."""

    settings: Settings
    db: Database
    cache: FallbackCache
    artifacts: ArtifactStore

    @classmethod
    def open(cls, settings: Settings) -> Resources:
        """Create engine and cache clients (connections are made lazily, on first use)."""
        settings.ensure_dirs()
        db = Database(settings)
        cache = build_cache(settings.redis_url, settings.artifact_lru_size)
        return cls(settings=settings, db=db, cache=cache,
                   artifacts=ArtifactStore(db, cache, ttl_s=settings.artifact_cache_ttl_s))

    async def close(self) -> None:
        """Dispose of the engine's pool and the Redis client."""
        await self.cache.close()
        await self.db.close()
