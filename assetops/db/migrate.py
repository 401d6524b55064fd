"""Run Alembic migrations from code (the CLI, `make run`/`make test` and the tests use this)."""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.config import Config

from assetops.settings import PROJECT_ROOT, Settings

# LangGraph's checkpointers create and migrate these themselves; autogenerate must not drop them.
LANGGRAPH_TABLES = frozenset({
    "checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations", "writes",
    "store", "store_migrations", "store_vectors", "vector_migrations",
})


def include_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """Autogenerate filter: skip LangGraph's tables and their indexes."""
    if type_ == "table" and name in LANGGRAPH_TABLES:
        return False
    table = getattr(obj, "table", None)
    return not (table is not None and getattr(table, "name", None) in LANGGRAPH_TABLES)


def alembic_config(settings: Settings) -> Config:
    """An Alembic config bound to `settings` (URL and all), independent of the working directory."""
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.attributes["settings"] = settings
    return config


def upgrade(settings: Settings, revision: str = "head") -> None:
    """Bring the schema to `revision` (head by default)."""
    settings.ensure_dirs()
    command.upgrade(alembic_config(settings), revision)


def downgrade(settings: Settings, revision: str = "base") -> None:
    """Take the schema back to `revision` (empty by default)."""
    command.downgrade(alembic_config(settings), revision)
