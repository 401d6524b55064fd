"""Alembic migrations of the assetops schema (see env.py)."""
