"""Every development dialog (docs/DIALOGS.md) end to end, offline, on a small generated fleet.

Per turn: the supervisor's first decision has the expected kind, the expected specialists were
dispatched, each specialist finished (or its failure is listed in the answer), the answer names
the right asset and window; per session: no successful tool call was executed twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.deps import open_deps
from tests.integration.graph.graph_dialog_support import (
    answer_of,
    executed_calls,
    of_type,
    planned_specialists,
    repeated_calls,
    turn_events,
)
from tests.integration.graph.graph_dialogs import DIALOGS, Dialog

pytestmark = pytest.mark.slow


def _finished_honestly(event_data: dict, answer: str) -> bool:
    return event_data["status"] in ("ok", "partial") or "Not available:" in answer


@pytest.mark.parametrize("dialog", DIALOGS, ids=[d.name for d in DIALOGS])
async def test_dialog_runs_end_to_end(dialog: Dialog, fleet_templates, tmp_path: Path) -> None:
    settings = fleet_templates.settings_for(dialog.fleet_start, dialog.fleet_end, dialog.assets, tmp_path)
    session_events = []
    async with open_deps(settings, llm=False) as deps:
        for number, turn in enumerate(dialog.turns, start=1):
            events = await turn_events(deps, dialog.name, turn.message, dialog.reference_date)
            session_events += events
            where = f"{dialog.name} turn {number}"
            answer = answer_of(events)
            assert events[-1].type == "done", where
            assert not [e for e in of_type(events, "error") if e.data.get("stage") == "graph"], where
            assert of_type(events, "final_answer")[0].data["kind"] == turn.kind, where
            assert set(turn.specialists) <= planned_specialists(events), (where, planned_specialists(events))
            # A task may first fail asking another specialist for missing evidence (replanning); what
            # counts is how each task ended: its last attempt finished or honestly said why not.
            last_attempt = {e.data["index"]: e for e in of_type(events, "specialist_finished")}
            for finished in last_attempt.values():
                assert _finished_honestly(finished.data, answer), (where, finished.data)
            for mention in turn.mentions:
                assert mention in answer, (where, mention, answer)
    assert repeated_calls(session_events) == [], dialog.name


async def test_follow_up_turns_reuse_evidence_instead_of_refetching(fleet_templates, tmp_path: Path) -> None:
    """D1 turn 2 needs no new telemetry call; D10's management summary calls no tool at all."""
    d1 = next(d for d in DIALOGS if d.name == "D1")
    settings = fleet_templates.settings_for(d1.fleet_start, d1.fleet_end, d1.assets, tmp_path)
    async with open_deps(settings, llm=False) as deps:
        await turn_events(deps, "reuse", d1.turns[0].message, d1.reference_date)
        second = await turn_events(deps, "reuse", d1.turns[1].message, d1.reference_date)
    assert [name for name, _ in executed_calls(second) if name.startswith("iot.")] == []


async def test_management_summary_is_built_from_artifacts_only(fleet_templates, tmp_path: Path) -> None:
    d10 = next(d for d in DIALOGS if d.name == "D10")
    settings = fleet_templates.settings_for(d10.fleet_start, d10.fleet_end, d10.assets, tmp_path)
    async with open_deps(settings, llm=False) as deps:
        for turn in d10.turns[:-1]:
            await turn_events(deps, "report", turn.message, d10.reference_date)
        last = await turn_events(deps, "report", d10.turns[-1].message, d10.reference_date)
    assert of_type(last, "tool_call_started") == []
    assert "Chiller 9" in answer_of(last)
