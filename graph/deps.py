"""The dependencies of the turn runner, built once per process (or per test) and shared by turns."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver

from artifacts.store import ArtifactStore
from assetops.cache import FallbackCache, build_cache
from assetops.db.engine import Database
from assetops.domain.catalog import FleetCatalog
from assetops.domain.catalog_loader import load_catalog
from assetops.settings import Settings
from graph.checkpoint import open_checkpointer
from graph.config import GraphConfig
from graph.planning.planner import Planner
from specialists.base import ToolOutcome
from specialists.registry import SpecialistRegistry

ToolExecutor = Callable[[list[tuple[str, dict[str, Any]]], str | None], Awaitable[list[ToolOutcome]]]

MAX_SESSION_MEMOS = 256


@dataclass
class Deps:
    """Database, artifact store, cache, checkpointer and (optionally) the chat model of the service.

    `planner` overrides the offline planner, `tool_executor` replaces the tool framework as the
    ToolRunner's executor (tests inject failures through it), `record` persists turns and tool calls.
    `graph_factory` builds another graph over the checkpointer (the plan-execute baseline of
    baselines/plan_execute); `cross_turn_memo=False` gives every turn a fresh tool memo (no reuse of
    earlier turns' tool calls, as that baseline requires).
    """

    settings: Settings
    db: Database
    store: ArtifactStore
    cache: FallbackCache
    catalog: FleetCatalog  # the loaded fleet, read once when the dependencies open
    checkpointer: BaseCheckpointSaver | None = None
    llm: BaseChatModel | None = None  # None: the offline mode
    config: GraphConfig = field(default_factory=GraphConfig)
    planner: Planner | None = None
    specialists: SpecialistRegistry = field(default_factory=SpecialistRegistry)
    tool_executor: ToolExecutor | None = None
    record: bool = True
    graph_factory: Callable[[BaseCheckpointSaver], Any] | None = None  # another architecture's graph (baseline)
    cross_turn_memo: bool = True  # False: no tool call is answered from an earlier turn's memo
    _graph: Any = field(default=None, repr=False)  # the compiled graph (its generic types fight mypy)
    _memos: OrderedDict[str, dict[str, ToolOutcome]] = field(default_factory=OrderedDict, repr=False)

    @property
    def graph(self) -> Any:
        """The compiled supervisor graph over this checkpointer (built on first use)."""
        if self._graph is None:
            from langgraph.checkpoint.memory import InMemorySaver

            from graph.builder import build_graph

            if self.checkpointer is None:  # state then lives as long as this process (tests, one-off runs)
                self.checkpointer = InMemorySaver()
            self._graph = (self.graph_factory or build_graph)(self.checkpointer)
        return self._graph

    def session_memo(self, session_id: str) -> dict[str, ToolOutcome]:
        """The session's memo of successful tool calls (identical calls are answered from it).

        Kept in process and bounded: after a restart, reuse comes from the durable artifacts, which
        is what specialists consult first anyway. Without `cross_turn_memo` every call gets a new memo.
        """
        if not self.cross_turn_memo:
            return {}
        memo = self._memos.get(session_id)
        if memo is None:
            memo = self._memos[session_id] = {}
            while len(self._memos) > MAX_SESSION_MEMOS:
                self._memos.popitem(last=False)
        self._memos.move_to_end(session_id)
        return memo


@contextlib.asynccontextmanager
async def open_deps(settings: Settings, *, llm: Any = None, config: GraphConfig | None = None,
                    **overrides: Any) -> AsyncIterator[Deps]:
    """Open the database, cache, store and checkpointer for `settings` and read the fleet catalog;
    closed when the block ends (`catalog=` in the overrides replaces the one read from the database).

    With `llm=None` the LLM configured in the settings (if any) is built; pass `llm=False` to force
    the offline mode.
    """
    from assetops.llm import build_chat_model

    db = Database(settings)
    cache = build_cache(settings.redis_url, settings.artifact_lru_size)
    store = ArtifactStore(db, cache, ttl_s=settings.artifact_cache_ttl_s)
    chat_model = build_chat_model(settings) if llm is None else (None if llm is False else llm)
    try:
        catalog = overrides.pop("catalog", None) or await load_catalog(db)
        async with open_checkpointer(settings) as saver:
            yield Deps(settings=settings, db=db, store=store, cache=cache, catalog=catalog, checkpointer=saver, llm=chat_model,
                       config=config or GraphConfig(), **overrides)
    finally:
        await cache.close()
        await db.close()
