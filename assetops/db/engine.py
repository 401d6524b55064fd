"""The async engine and session factory, with query profiling hooked in."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine, create_engine
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from assetops.profiling import record_query
from assetops.settings import Settings

_START_KEY = "assetops_query_started"


def _statement_kind(statement: str) -> str:
    word = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else "OTHER"
    return word if word in {"SELECT", "INSERT", "UPDATE", "DELETE", "COPY"} else "OTHER"


def instrument(engine: Engine) -> None:
    """Record every statement of `engine` into the current profile (kind, latency, rows, errors)."""

    @event.listens_for(engine, "before_cursor_execute")
    def _before(conn: Connection, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        conn.info.setdefault(_START_KEY, []).append(time.perf_counter())

    @event.listens_for(engine, "after_cursor_execute")
    def _after(conn: Connection, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        started = conn.info[_START_KEY].pop()
        rows = cursor.rowcount if isinstance(cursor.rowcount, int) and cursor.rowcount >= 0 else 0
        record_query(_statement_kind(statement), started, rows)

    @event.listens_for(engine, "handle_error")
    def _error(context: Any) -> None:
        stack = context.connection.info.get(_START_KEY) if context.connection is not None else None
        if stack:
            record_query(_statement_kind(context.statement or ""), stack.pop(), 0, str(context.original_exception))


def _sqlite_pragmas(engine: Engine) -> None:
    # WAL lets readers (tools) run while a writer (artifact store) commits; foreign keys for cascades.
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


class Database:
    """Owns the async engine of the service; opened in the app lifespan, closed on shutdown."""

    def __init__(self, settings: Settings, **engine_kwargs: Any) -> None:
        self.settings = settings
        self.url = settings.effective_database_url
        if self.url.startswith("sqlite"):
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            engine_kwargs.setdefault("connect_args", {"timeout": 30})
        else:
            engine_kwargs.setdefault("pool_size", 10)
            engine_kwargs.setdefault("max_overflow", 10)
            engine_kwargs.setdefault("pool_pre_ping", True)
        self.engine: AsyncEngine = create_async_engine(self.url, **engine_kwargs)
        if self.url.startswith("sqlite"):
            _sqlite_pragmas(self.engine.sync_engine)
        instrument(self.engine.sync_engine)
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session that commits on success and rolls back on error."""
        async with self.sessionmaker() as session:
            try:
                yield session
                await session.commit()
            except BaseException:
                await session.rollback()
                raise

    async def ping(self) -> None:
        """Raise when the database cannot answer a trivial query."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def close(self) -> None:
        await self.engine.dispose()


def sync_engine(settings: Settings, **kwargs: Any) -> Engine:
    """A synchronous engine on the same database (migrations, bulk loads, CLI reports)."""
    url = settings.sync_database_url
    if url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        _sqlite_pragmas(engine)
    instrument(engine)
    return engine
