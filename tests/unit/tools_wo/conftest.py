"""Fixtures of these tool tests: the shared temporary-database helpers of tests/support/tool_db.py."""

from tests.support.tool_db import (
    db_engine,
    db_settings,
    insert_rows,
    migrated_template,
    temp_settings,
    tool_ctx,
)

__all__ = ["db_engine", "db_settings", "insert_rows", "migrated_template", "temp_settings", "tool_ctx"]
