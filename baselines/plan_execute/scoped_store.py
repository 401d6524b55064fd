"""An artifact store view that only shows the current turn's artifacts (no cross-turn reuse)."""

from __future__ import annotations

from typing import Any

from artifacts.matching import CoverageQuery, best_cover
from artifacts.model import Artifact
from artifacts.store import ArtifactStore


class TurnScopedStore:
    """Delegates to the session's store, but listings and coverage lookups see one turn only."""

    def __init__(self, store: ArtifactStore, turn_index: int) -> None:
        self._store = store
        self.turn_index = turn_index

    def __getattr__(self, name: str) -> Any:  # put, get, delete, db: the real store's
        return getattr(self._store, name)

    async def list_session(self, session_id: str) -> list[Artifact]:
        """This turn's artifacts of the session, oldest first."""
        return [a for a in await self._store.list_session(session_id) if a.turn_index == self.turn_index]

    async def find_covering(self, query: CoverageQuery) -> list[Artifact]:
        """Covering artifacts made in this turn."""
        return [a for a in await self._store.find_covering(query) if a.turn_index == self.turn_index]

    async def best_covering(self, query: CoverageQuery) -> Artifact | None:
        """The tightest covering artifact of this turn, or None."""
        return best_cover(await self.find_covering(query), query)
