"""Fixtures: a tool context whose work dir holds datasets and whose models dir holds the tiny TTM."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assetops.settings import Settings
from tests.unit.timeseries.fixtures import tiny_checkpoint
from tools.framework import ToolContext, use_tool_context

__all__ = ["tiny_checkpoint", "tsfm_ctx"]


@pytest.fixture
def tsfm_ctx(tmp_path: Path, tiny_checkpoint: Path) -> Iterator[ToolContext]:
    """Settings on tmp dirs; models_dir/ttm_96_28 is a link to the session's tiny checkpoint."""
    import tools.tsfm  # noqa: F401  registers the tools

    settings = Settings(data_dir=tmp_path / "data", work_dir=tmp_path / "work", models_dir=tmp_path / "models",
                        database_url=f"sqlite:///{tmp_path / 'data' / 'db.sqlite'}")
    settings.ensure_dirs()
    (settings.models_dir / "ttm_96_28").symlink_to(tiny_checkpoint, target_is_directory=True)
    with use_tool_context(ToolContext.from_settings(settings)) as ctx:
        yield ctx
