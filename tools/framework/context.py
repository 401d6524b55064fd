"""What a running tool can see: settings, database, work directory and (optionally) an LLM.

The context travels in a context variable so tool functions keep the contract's signatures (no
extra `ctx` argument that would leak into the schema). Callers install one with
`use_tool_context(...)`; without one, a process-wide default is built from `get_settings()`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assetops.db.engine import Database
from assetops.settings import Settings, get_settings


@dataclass
class ToolContext:
    """Dependencies of a tool call. `llm` is a LangChain chat model or None (offline mode)."""

    settings: Settings
    db: Database
    llm: Any | None = None

    @property
    def workdir(self) -> Path:
        """The only directory file arguments may point into (created on first use)."""
        self.settings.work_dir.mkdir(parents=True, exist_ok=True)
        return self.settings.work_dir

    @classmethod
    def from_settings(cls, settings: Settings, llm: Any | None = None) -> ToolContext:
        """A context with a fresh `Database` on the settings' database URL."""
        return cls(settings=settings, db=Database(settings), llm=llm)


_current: ContextVar[ToolContext | None] = ContextVar("assetops_tool_context", default=None)
_default: ToolContext | None = None


def set_default_context(context: ToolContext | None) -> None:
    """Install the process-wide fallback context (the app lifespan and CLI servers do this)."""
    global _default
    _default = context


def tool_context() -> ToolContext:
    """The context of the running tool call (the installed one, else the process default)."""
    context = _current.get()
    if context is not None:
        return context
    global _default
    if _default is None:
        _default = ToolContext.from_settings(get_settings())
    return _default


@contextlib.contextmanager
def use_tool_context(context: ToolContext) -> Iterator[ToolContext]:
    """Run the block (and every task it starts) with `context` as the tool context."""
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)
