"""Answer composition (bounded, cites evidence) and the state codecs (round trips)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from artifacts.model import Artifact
from assetops.domain.turn import Focus, SpecialistResult, SpecialistTask, TimeWindow, TurnDecision
from graph.answering.compose import TurnOutcome, compose_answer
from graph.planning.llm_decision import PlannedTask, SupervisorDecision, to_decision
from graph.state import decode_focus, encode_focus
from tests.support.catalog import default_catalog

ZONE = ZoneInfo("America/New_York")
WINDOW = TimeWindow(datetime(2021, 3, 1, tzinfo=ZONE), datetime(2021, 6, 1, tzinfo=ZONE), "this spring")


def _artifact(i: int) -> Artifact:
    return Artifact(id=f"artifact_dc_{i:012d}", session_id="s", producer="data", kind="telemetry_window",
                    asset_ids=["Chiller 4"], window_start=datetime(2021, 3, 1, 5, tzinfo=UTC),
                    window_end=datetime(2021, 6, 1, 4, tzinfo=UTC),
                    observations=[f"Power Input: mean {300 + i} kW"] * 3, summary="s")


def _outcome(artifacts: list[Artifact]) -> TurnOutcome:
    plan = [SpecialistTask("data", "history", asset_ids=["Chiller 4"], window=WINDOW, status="done")]
    results = [SpecialistResult("data", "history", "ok", "Chiller 4 drew 12% more power in May than in March.",
                                task_index=0)]
    return TurnOutcome(decision=TurnDecision(assumptions=["Spring means March to May."]), plan=plan, results=results,
                       artifacts=artifacts, zone=default_catalog().zone)


def test_the_answer_leads_with_the_finding_and_cites_scope_and_artifacts() -> None:
    answer = compose_answer(_outcome([_artifact(1)]), max_chars=2000)
    lines = answer.splitlines()
    assert lines[0] == "Chiller 4 drew 12% more power in May than in March."
    assert "Chiller 4" in lines[1] and "2021-03-01" in lines[1] and "this spring" in lines[1]
    assert "[artifact_dc_000000000001]" in answer and "2021-03-01 to 2021-06-01" in answer
    assert "Assumptions: Spring means March to May." in answer
    assert lines[-1].startswith("Next:")


def test_the_answer_stays_bounded_however_much_evidence_there_is() -> None:
    answer = compose_answer(_outcome([_artifact(i) for i in range(40)]), max_chars=700)
    assert len(answer) <= 700
    assert answer.startswith("Chiller 4 drew 12% more power")


def test_the_focus_survives_its_prompt_encoding() -> None:
    focus = Focus(site="MAIN", asset_ids=["Chiller 9"], window=WINDOW, sensors=["Chiller 9 Power Input"],
                  hypotheses=["Condenser fouling"], last_intent="diagnose")
    assert decode_focus(encode_focus(focus)) == focus
    assert decode_focus(None) == Focus()


def test_a_model_decision_is_validated_into_a_planner_decision() -> None:
    planned = SupervisorDecision(kind="run", intent="history", tasks=[
        PlannedTask(specialist="data", action="history", asset_ids=["Chiller 9"],
                    window_start="2021-05-01T00:00:00-04:00", window_end="2021-06-01T00:00:00-04:00"),
        PlannedTask(specialist="data", action="launch_rocket", asset_ids=["Chiller 9"]),
    ])
    decision = to_decision(planned, Focus(asset_ids=["Chiller 3"]), date(2021, 7, 1))
    assert [t.action for t in decision.tasks] == ["history"]
    assert decision.focus.asset_ids == ["Chiller 9"]
    assert decision.focus.window is not None and decision.focus.window.start.month == 5


def test_llm_decision_carries_shape_and_scope_and_drafts_only_on_a_command() -> None:
    """The LLM mode gives the same structured reading as the offline planner (issue 11)."""
    draft = PlannedTask(specialist="maintenance", action="draft_wo", asset_ids=["Chiller 6"])
    history = PlannedTask(specialist="maintenance", action="wo_summary", asset_ids=["Chiller 6"])
    asked = to_decision(SupervisorDecision(kind="run", tasks=[history, draft], shape="recommend", scope="asset"),
                        Focus(asset_ids=["Chiller 6"]), date(2021, 7, 1))
    assert [t.action for t in asked.tasks] == ["wo_summary"]
    assert asked.shape == "recommend" and asked.focus.pending_offer == "draft_wo"
    commanded = to_decision(SupervisorDecision(kind="run", tasks=[draft], write_requested=True, scope="fleet"),
                            Focus(), date(2021, 7, 1))
    assert [t.action for t in commanded.tasks] == ["draft_wo"] and commanded.scope == "fleet"
    only_draft = to_decision(SupervisorDecision(kind="run", tasks=[draft]), Focus(), date(2021, 7, 1))
    assert only_draft.kind == "answer" and not only_draft.tasks and "draft it" in only_draft.message
