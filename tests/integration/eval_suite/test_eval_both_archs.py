"""`assetops eval` end to end on a small generated fleet: a two-dialog suite, both architectures, one report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.pipeline import EvalRequest, evaluate
from tests.integration.graph.conftest import FleetTemplates

SUITE = """
reference_date: "2021-07-01"
dialogs:
  - id: E1
    category: diagnosis
    turns:
      - text: "Chiller 4 at MAIN has been drawing more power than usual this spring. What's going on?"
        specialists: [data, timeseries]
        mentions: ["Chiller 4"]
      - text: "Which failure modes could explain that?"
        specialists: [failure]
        mentions: ["Chiller 4"]
  - id: E2
    category: refusal
    turns:
      - text: "What is Chiller 77 doing this week?"
        kind: clarify_or_reject
"""


@pytest.fixture(scope="module")
def eval_templates(tmp_path_factory: pytest.TempPathFactory) -> FleetTemplates:
    from tests.unit.timeseries.fixtures import train_tiny_checkpoint

    models = tmp_path_factory.mktemp("eval_models")
    train_tiny_checkpoint(models / "ttm_96_28")
    return FleetTemplates(tmp_path_factory.mktemp("eval_fleets"), models)


@pytest.mark.slow
async def test_a_two_dialog_suite_runs_for_both_architectures(eval_templates: FleetTemplates, tmp_path: Path) -> None:
    settings = eval_templates.settings_for("2021-02-20", "2021-06-30", ("Chiller 4",), tmp_path)
    suite = tmp_path / "two.yaml"
    suite.write_text(SUITE)
    out = tmp_path / "report"
    report = await evaluate(settings, EvalRequest(suites=[str(suite)], archs=["supervisor", "plan-execute"], out=out))

    figures = json.loads((out / "report.json").read_text())
    runs = figures["runs"]
    assert set(runs) == {"supervisor", "plan-execute"}
    for arch, run in runs.items():
        assert run["turns"] == 3, arch
        assert run["harness"]["TNV"] == 1.0 and run["harness"]["SC"] == 1.0, (arch, run["harness_per_dialog"])
        assert run["profile"]["tool_calls_total"] > 0
        assert len(list((out / "rollouts" / arch).glob("dialog*.jsonl"))) == 2
    assert runs["supervisor"]["memory"]["redundant_calls"] == 0
    assert runs["plan-execute"]["memory"]["follow_reused"] == 0  # the baseline reuses nothing across turns
    baseline_roles = {json.loads(line)["agent_role"]
                      for line in (out / "rollouts" / "plan-execute" / "dialog01_E1.jsonl").read_text().splitlines()}
    assert {"planner", "executor", "summarizer"} <= baseline_roles
    assert set(figures["ratios"]) >= {"wall_time", "tool_calls", "tool_time_share", "task_completion"}
    text = report.read_text()
    assert "not judged" in text and "latency_by_turn.png" in text
    assert all((out / name).stat().st_size > 0 for name in ("latency_by_turn.png", "latency_split.png",
                                                            "tool_time_by_server.png"))
