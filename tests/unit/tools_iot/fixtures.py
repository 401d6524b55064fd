"""Shared fixtures of the tool tests (imported by the conftest.py of each tool test folder)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.unit.tools_iot.small_fleet import SmallFleet, build_small_fleet
from tools.framework import ToolContext, clear_result_cache


@pytest.fixture(scope="session")
def small_fleet(tmp_path_factory: pytest.TempPathFactory) -> SmallFleet:
    """Chiller 6 and Chiller 9 telemetry in a temporary SQLite database (built once per session)."""
    return build_small_fleet(tmp_path_factory.mktemp("small_fleet"))


@pytest.fixture(autouse=True)
def fresh_result_cache() -> Iterator[None]:
    """Every test starts with an empty result cache (tests share one database)."""
    clear_result_cache()
    yield
    clear_result_cache()


@pytest.fixture
async def ctx(small_fleet: SmallFleet) -> AsyncIterator[ToolContext]:
    """A tool context on the small fleet (its engine lives in this test's event loop)."""
    context = ToolContext.from_settings(small_fleet.settings)
    yield context
    await context.db.close()
