"""One chiller over two periods asked in one message, end to end: both periods' windows are in the answer,
also when earlier turns already fetched both (the data specialist reuses them rather than showing one)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from graph.deps import open_deps
from tests.integration.graph.graph_dialog_support import answer_of, turn_events

pytestmark = pytest.mark.slow


async def test_two_periods_asked_for_one_chiller_are_both_answered(fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for("2020-07-25", "2021-06-30", ("Chiller 4",), tmp_path)
    async with open_deps(settings, llm=False) as deps:
        first = await turn_events(deps, "periods", "How did Chiller 4 run in May?", date(2021, 6, 10))
        assert "2021-05-01" in answer_of(first)
        earlier = await turn_events(deps, "periods", "How did it run in August last year?", date(2021, 6, 10))
        assert "2020-08-01" in answer_of(earlier)
        # both windows are in the session now: the comparison must still show both, not only the first
        both = await turn_events(deps, "periods", "what was its kW/ton in May, and in August last year?",
                                 date(2021, 6, 10))
        answer = answer_of(both)
        assert "2021-05-01" in answer and "2020-08-01" in answer, answer
