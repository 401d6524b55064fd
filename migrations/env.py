"""Alembic environment: one metadata for the project's tables, LangGraph's own tables left alone."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import pool

import assetops.db.tables  # noqa: F401  (registers every table on Base.metadata)
from assetops.db.base import Base
from assetops.db.engine import sync_engine
from assetops.db.migrate import include_object
from assetops.settings import Settings


def _settings() -> Settings:
    settings = context.config.attributes.get("settings")
    return settings if isinstance(settings, Settings) else Settings()


def run_migrations_offline() -> None:
    context.configure(url=_settings().sync_database_url, target_metadata=Base.metadata,
                      literal_binds=True, include_object=include_object, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = sync_engine(_settings(), poolclass=pool.NullPool)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


def _run(connection: Any) -> None:
    # Batch mode lets ALTER-style operations work on SQLite too.
    context.configure(connection=connection, target_metadata=Base.metadata, include_object=include_object,
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
