"""The LangGraph checkpointer of the deployment: SQLite embedded, Postgres when the database is.

Thread state (one thread per chat session) lives here so a session continues after a restart; the
artifact and conversation tables stay with SQLAlchemy (ARCHITECTURE.md, "three stores").
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from assetops.settings import Settings
from graph.state import STATE_TYPES

CHECKPOINT_FILE = "checkpoints.sqlite"
CHECKPOINT_POOL_SIZE = 8


def postgres_conninfo(settings: Settings) -> str:
    """The settings' Postgres URL in the plain libpq form psycopg's saver expects."""
    url = settings.sync_database_url
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


def state_serializer() -> JsonPlusSerializer:
    """The checkpoint serializer: rebuilds LangChain messages, LangGraph's own types and the turn
    state's dataclasses (`graph.state.STATE_TYPES`), and nothing else."""
    return JsonPlusSerializer(allowed_msgpack_modules=[(t.__module__, t.__name__) for t in STATE_TYPES])


@contextlib.asynccontextmanager
async def open_checkpointer(settings: Settings) -> AsyncIterator[BaseCheckpointSaver]:
    """Open (and set up) the saver for the configured database; closed when the block ends."""
    if settings.is_postgres:
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        from psycopg.rows import dict_row
        from psycopg_pool import AsyncConnectionPool

        # A pool whose connections are checked before use, not one long-lived connection: a backend
        # terminated by PostgreSQL (restart, failover, pg_terminate_backend) then costs one failed turn
        # at most, instead of every later turn failing on "the connection is closed".
        async with AsyncConnectionPool(postgres_conninfo(settings), min_size=1, max_size=CHECKPOINT_POOL_SIZE,
                                       open=False, check=AsyncConnectionPool.check_connection,
                                       kwargs={"autocommit": True, "prepare_threshold": 0,
                                               "row_factory": dict_row}) as pool:
            pg_saver = AsyncPostgresSaver(pool, serde=state_serializer())  # type: ignore[arg-type]
            await pg_saver.setup()
            yield pg_saver
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(settings.data_dir / CHECKPOINT_FILE)) as saver:
        saver.serde = state_serializer()  # this saver's constructor takes no serializer
        await saver.setup()
        yield saver
