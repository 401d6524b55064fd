"""With Postgres as the database, thread state goes to the Postgres saver and survives a restart."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from assetops.db import migrate
from assetops.domain.turn import Decision, Focus
from graph.deps import open_deps
from graph.runner import session_state
from tests.conftest import make_settings
from tests.integration.graph.graph_dialog_support import answer_of, turn_events

pytestmark = pytest.mark.integration


def remembering_planner(message: str, focus: Focus, reference_date: date, artifacts: list[Any]) -> Decision:
    seen = ",".join(focus.asset_ids) or "nothing yet"
    return Decision("answer", message=f"focus before: {seen}", focus=Focus(asset_ids=["Chiller 6"]))


async def test_a_postgres_session_continues_after_a_restart(pg_schema_url: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, database_url=pg_schema_url)
    migrate.upgrade(settings)
    session = f"pg-{tmp_path.name}"
    async with open_deps(settings, llm=False, planner=remembering_planner) as deps:
        assert type(deps.checkpointer).__name__ == "AsyncPostgresSaver"
        first = await turn_events(deps, session, "hello", date(2021, 7, 1))
    async with open_deps(settings, llm=False, planner=remembering_planner) as deps:
        second = await turn_events(deps, session, "again", date(2021, 7, 1))
        state = await session_state(deps, session)
    assert answer_of(first) == "focus before: nothing yet"
    assert answer_of(second) == "focus before: Chiller 6"
    assert second[0].turn_index == 2 and state["reference_date"] == "2021-07-01"
