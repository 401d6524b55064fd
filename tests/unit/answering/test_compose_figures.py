"""The composed answer's first sentence states the figure asked for; a named figure the lead lacks is added."""

from __future__ import annotations

from datetime import UTC, datetime

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistResult, SpecialistTask, TurnDecision
from evaluation.dialog_checks import first_sentence
from graph.answering.compose import TurnOutcome, compose_answer
from tests.support.catalog import default_catalog

STATS = {"Chiller 4 Chiller Efficiency": {"mean": 0.07, "running_mean": 0.43, "min": 0.0, "max": 0.45,
                                          "unit": "kW/ton", "count": 2880},
         "Chiller 4 Power Input": {"mean": 11.4, "running_mean": 61.5, "min": 1.5, "max": 184.3, "unit": "kW",
                                   "count": 2880},
         "Chiller 4 Chiller % Loaded": {"mean": 4.0, "running_mean": 22.0, "min": 0.0, "max": 66.0, "unit": "%",
                                        "count": 2880}}
SUMMARY = "Chiller 4, 2021-04-01 to 2021-05-01: Power Input: 61.5 kW while running (all samples 11.4)."


def _answer(question: str, artifacts: list[Artifact], results: list[SpecialistResult]) -> str:
    plan = [SpecialistTask(r.specialist, r.action, asset_ids=["Chiller 4"], status="done") for r in results]
    outcome = TurnOutcome(decision=TurnDecision(intent="history"), plan=plan, results=results, artifacts=artifacts,
                          zone=default_catalog().zone, question=question)
    return compose_answer(outcome, max_chars=2400)


def _window() -> Artifact:
    return Artifact(id="artifact_dc_1", session_id="s", turn_index=1, producer="data", kind="telemetry_window",
                    asset_ids=["Chiller 4"], window_start=datetime(2021, 4, 1, 4, tzinfo=UTC),
                    window_end=datetime(2021, 5, 1, 4, tzinfo=UTC), summary=SUMMARY,
                    results={"stats": STATS, "running_share": 0.16})


def _history() -> SpecialistResult:
    return SpecialistResult("data", "history", "ok", SUMMARY, artifact_ids=["artifact_dc_1"], task_index=0, step=1)


def test_the_first_sentence_states_the_sensor_asked_for() -> None:
    answer = _answer("what was chiller 4's average load in April?", [_window()], [_history()])
    assert first_sentence(answer) == "Chiller 4, 2021-04-01 to 2021-05-01: Load 22% while running."
    assert "- Efficiency:" in answer  # the other figures still follow as bullets


def test_how_did_it_run_leads_with_the_headline_figure() -> None:
    answer = _answer("how did chiller 4 run in April?", [_window()], [_history()])
    assert first_sentence(answer) == "Chiller 4, 2021-04-01 to 2021-05-01: Efficiency 0.43 kW/ton while running."
    assert len(answer) <= 1200


def test_a_whole_history_listing_says_so_in_its_scope_not_the_period_discussed_before() -> None:
    from assetops.domain.turn import Focus, TimeWindow
    from graph.answering.compose import scope_line

    june = TimeWindow(datetime(2021, 6, 1, 4, tzinfo=UTC), datetime(2021, 7, 1, 4, tzinfo=UTC), "last month")
    listing = [SpecialistTask("maintenance", "wo_summary", asset_ids=["Chiller 9"], status="done")]
    outcome = TurnOutcome(decision=TurnDecision(intent="work_orders"), plan=listing, results=[], artifacts=[],
                          zone=default_catalog().zone, focus=Focus(asset_ids=["Chiller 9"], window=june))
    assert scope_line(outcome) == "Scope: Chiller 9; all history."
    looked = [SpecialistTask("data", "history", asset_ids=["Chiller 9"], status="done")]
    assert "last month" in scope_line(TurnOutcome(decision=TurnDecision(), plan=looked, results=[], artifacts=[],
                                                  zone=default_catalog().zone, focus=Focus(window=june)))


def test_a_checklist_too_long_to_fit_keeps_the_steps_that_fit_and_says_how_many_are_left() -> None:
    steps = [f"Step {n}: " + "check the panel, the pumps, the oil and the refrigerant pressures carefully " * 2
             for n in range(1, 9)]
    checklist = Artifact(id="artifact_mp_1", session_id="s", turn_index=1, producer="maintenance",
                         kind="restart_checklist", asset_ids=["Chiller 4"], results={"steps": steps},
                         summary="Restart checklist for Chiller 4.")
    result = SpecialistResult("maintenance", "restart_checklist", "ok", "Restart checklist for Chiller 4.",
                              artifact_ids=["artifact_mp_1"], task_index=0, step=1)
    plan = [SpecialistTask("maintenance", "restart_checklist", asset_ids=["Chiller 4"], status="done")]
    outcome = TurnOutcome(decision=TurnDecision(intent="restart", shape="how_to"), plan=plan, results=[result],
                          artifacts=[checklist], zone=default_catalog().zone,
                          question="how do I bring it back up safely?")
    answer = compose_answer(outcome, max_chars=2400)
    assert "1. Step 1:" in answer and "more lines; ask for the full list" in answer
    assert len(answer) <= 1200
