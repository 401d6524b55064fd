"""One dispatch style: every specialist runs its action from a handler table keyed by action name."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetops.domain.actions import ACTIONS
from assetops.domain.specialists import SPECIALISTS, SpecialistId
from assetops.domain.turn import SpecialistTask
from specialists.registry import default_specialists
from tests.unit.specialists_timeseries.synthetic import make_context, no_tools


@pytest.mark.parametrize("specialist_id", SPECIALISTS)
def test_each_specialist_has_one_handler_per_action_of_the_vocabulary(specialist_id: SpecialistId) -> None:
    specialist = default_specialists()[specialist_id]
    assert tuple(specialist.handlers) == ACTIONS[specialist_id]  # type: ignore[attr-defined]


@pytest.mark.parametrize("specialist_id", SPECIALISTS)
async def test_an_unknown_action_is_a_failed_result_naming_the_known_ones(specialist_id: SpecialistId, tmp_path: Path) -> None:
    ctx, tools, _ = await make_context(tmp_path, no_tools)
    specialist = default_specialists()[specialist_id]
    task = SpecialistTask(specialist_id, "predict_weather", asset_ids=["Chiller 6"])
    result = await specialist.run(task, ctx)
    assert result.status == "failed" and result.errors == ["unknown action predict_weather"]
    assert f"The {specialist_id} specialist has no action 'predict_weather'" in result.summary
    assert ACTIONS[specialist_id][0] in result.summary
    assert tools.batches == []
