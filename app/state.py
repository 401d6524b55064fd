"""The service's long-lived resources, opened in the lifespan and reached through dependencies."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.bus import SessionBus
from app.limits import RateLimiter
from app.locks import SessionLocks
from app.metrics import Metrics
from app.services.coverage import CoverageCache
from artifacts.store import ArtifactStore
from assetops.cache import FallbackCache, build_cache
from assetops.db.engine import Database
from assetops.settings import Settings

if TYPE_CHECKING:  # the graph's dependencies are opened in the lifespan; importing graph here would load it early
    from graph.deps import Deps


@dataclass
class Resources:
    """What a request may use: settings, database, hot cache, artifact store, and the chat machinery
    (graph dependencies, session locks, the event bus, the rate limiter, metrics)."""

    settings: Settings
    db: Database
    cache: FallbackCache
    artifacts: ArtifactStore
    deps: Deps | None = None  # opened in the lifespan; None while the chat engine is down
    locks: SessionLocks = field(init=False)
    bus: SessionBus = field(init=False)
    limiter: RateLimiter = field(init=False)
    coverage: CoverageCache = field(init=False)
    metrics: Metrics = field(default_factory=Metrics)
    startup_error: str | None = None  # why the chat engine did not start (storage down at startup)

    def __post_init__(self) -> None:
        self.locks = SessionLocks(self.cache)
        self.bus = SessionBus(self.cache)
        self.limiter = RateLimiter(self.settings.rate_limit_per_minute, self.cache)
        self.coverage = CoverageCache(self.db)

    @classmethod
    def open(cls, settings: Settings) -> Resources:
        """Create engine and cache clients (connections are made lazily, on first use)."""
        with contextlib.suppress(OSError):  # an unusable work dir is reported by /readyz, not raised here
            settings.ensure_dirs()
        db = Database(settings)
        cache = build_cache(settings.redis_url, settings.artifact_lru_size)
        return cls(settings=settings, db=db, cache=cache,
                   artifacts=ArtifactStore(db, cache, ttl_s=settings.artifact_cache_ttl_s))

    @classmethod
    def from_deps(cls, deps: Deps) -> Resources:
        """Share the graph's database, cache and store (one pool, one cache per process)."""
        return cls(settings=deps.settings, db=deps.db, cache=deps.cache, artifacts=deps.store, deps=deps)

    async def close(self) -> None:
        """Dispose of the engine's pool and the Redis client."""
        await self.cache.close()
        await self.db.close()
