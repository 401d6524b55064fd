"""The offline answer answers the question asked: the answering result leads, evidence is cited once,
checklists show their steps, "a few lines for my boss" stays short, "how serious" gets a severity."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from artifacts.model import Artifact
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import Focus, SpecialistResult, SpecialistTask, TimeWindow, TurnDecision
from graph.answering.compose import DEFAULT_MAX_CHARS, TurnOutcome, compose_answer
from graph.answering.question_style import read_question
from graph.answering.sections import severity_level
from tests.support.catalog import default_catalog

WINDOW = TimeWindow(datetime.fromisoformat("2021-03-01T00:00:00-05:00"),
                    datetime.fromisoformat("2021-06-01T00:00:00-04:00"), "march to may 2021")
DATA_SUMMARY = ("Chiller 4, 2021-03-01 to 2021-04-01: Supply Temperature: 46.01 degF while running "
                "(all samples 65.65, min 45.79, max 67.94).")
ANOMALY_SUMMARY = "Chiller 4: anomaly rate 3.9% on Chiller 4 Return Temperature (55 periods)."


def _artifact(ident: str, kind: str, producer: str, *, summary: str = "", results: dict[str, Any] | None = None,
              turn: int = 1, observations: list[str] | None = None) -> Artifact:
    return Artifact(id=ident, session_id="s", turn_index=turn, producer=producer, kind=kind,
                    asset_ids=["Chiller 4"], window_start=datetime(2021, 3, 1, 5, tzinfo=UTC),
                    window_end=datetime(2021, 6, 1, 4, tzinfo=UTC), summary=summary,
                    observations=observations or [summary], results=results or {})


def _result(step: int, specialist: SpecialistId, action: str, summary: str, artifact_id: str) -> SpecialistResult:
    return SpecialistResult(specialist, action, "ok", summary, artifact_ids=[artifact_id], task_index=step - 1,
                            step=step)


def _outcome(question: str, results: list[SpecialistResult], artifacts: list[Artifact], *,
             intent: str = "investigate", cited: list[Artifact] | None = None) -> TurnOutcome:
    plan = [SpecialistTask(r.specialist, r.action, asset_ids=["Chiller 4"], window=WINDOW, status="done")
            for r in results]
    return TurnOutcome(decision=TurnDecision(intent=intent), plan=plan, results=results, artifacts=artifacts,
                       zone=default_catalog().zone, question=question, cited=cited or [], focus=Focus(window=WINDOW))


def _diagnosis(turn: int = 3, mode: str = "Condenser Water side fouling", low: float = 0.84) -> Artifact:
    return _artifact("artifact_fr_1", "diagnose", "failure", turn=turn,
                     summary=f"Chiller 4: most likely {mode} {low:.2f}-0.96.",
                     results={"hypotheses": [{"failure_mode": mode, "confidence_range": [low, 0.96],
                                              "confirm_by": "condenser approach check or a tube inspection"}],
                              "evidence": {"shifts": {"Power Input": {"signal": "Power Input", "shift": 16.85,
                                                                      "z": 5.6, "baseline_level": 93.0,
                                                                      "units": ""}}},
                              "source": "artifact_dc_1"})


def test_a_named_sensor_follow_up_leads_with_its_readings_not_the_newest_result() -> None:
    data = _artifact("artifact_dc_1", "telemetry_window", "data", summary=DATA_SUMMARY)
    anomaly = _artifact("artifact_ts_1", "anomaly_detection", "timeseries", summary=ANOMALY_SUMMARY)
    outcome = _outcome("fine, chiller 4 supply temp for march 2021 then",
                       [_result(1, "data", "history", DATA_SUMMARY, data.id),
                        _result(2, "timeseries", "anomaly_detection", ANOMALY_SUMMARY, anomaly.id)], [data, anomaly])
    answer = compose_answer(outcome, max_chars=2400)
    assert answer.startswith("Chiller 4, 2021-03-01 to 2021-04-01: Supply Temperature: 46.01 degF while running")
    assert answer.index("artifact_dc_1") < answer.index("artifact_ts_1")


def test_the_headline_is_not_repeated_under_evidence_and_each_artifact_is_cited_once() -> None:
    data = _artifact("artifact_dc_1", "telemetry_window", "data", summary=DATA_SUMMARY)
    answer = compose_answer(_outcome("how did chiller 4 run", [_result(1, "data", "history", DATA_SUMMARY, data.id)],
                                     [data], intent="history"), max_chars=2400)
    assert answer.count("Supply Temperature: 46.01") == 1
    assert answer.count("[artifact_dc_1]") == 1


def test_a_checklist_shows_every_step_it_counts() -> None:
    steps = [f"Step text number {i}." for i in range(1, 8)]
    checklist = _artifact("artifact_mp_1", "restart_checklist", "maintenance",
                          summary=f"Safe restart of Chiller 4 after a trip: {len(steps)} steps",
                          results={"title": "Safe restart", "steps": steps, "criteria": []}, observations=steps)
    answer = compose_answer(_outcome("give me a checklist to bring it back online",
                                     [_result(1, "maintenance", "restart_checklist", checklist.summary, checklist.id)],
                                     [checklist], intent="restart"), max_chars=2400)
    for number, step in enumerate(steps, start=1):
        assert f"{number}. {step}" in answer


def test_a_write_up_for_the_boss_is_a_few_lines_without_a_generic_suggestion() -> None:
    telemetry = _artifact("artifact_dc_1", "telemetry_window", "data", summary=DATA_SUMMARY, results={
        "running_share": 0.18, "stats": {"Chiller 4 Power Input": {"mean": 25.31, "running_mean": 130.18,
                                                                   "unit": "kW"}}})
    alerts = _artifact("artifact_mp_2", "alert_rules", "maintenance",
                       summary="2 alert rule(s) fired on CWC04704: RUL0017 Load Low (9 alerts); no alerts from RUL0016")
    report_text = "## Management summary: Chiller 4\n\n" + "- a long line of findings [x]\n" * 40
    report = _artifact("artifact_mp_3", "management_report", "maintenance", turn=5,
                       summary="Management summary: Chiller 4", results={"report": report_text})
    outcome = _outcome("write it up in a few lines for my boss",
                       [_result(1, "maintenance", "report", report_text, report.id)], [report], intent="report",
                       cited=[telemetry, _diagnosis(), alerts])
    answer = compose_answer(outcome, max_chars=2400)
    assert len(answer) <= 600 and len(answer.splitlines()) <= 8
    assert "Condenser Water side fouling" in answer and "130.18 kW while running" in answer
    assert "Next step: confirm with condenser approach check" in answer
    assert "Next:" not in answer and "Management summary" not in answer


def test_how_serious_gets_a_severity_with_the_numbers_it_rests_on() -> None:
    diagnosis = _diagnosis()
    answer = compose_answer(_outcome("most likely cause and how serious is it?",
                                     [_result(1, "failure", "diagnose", diagnosis.summary, diagnosis.id)],
                                     [diagnosis], intent="diagnose"), max_chars=2400)
    severity = next(line for line in answer.splitlines() if line.startswith("Severity:"))
    assert severity.startswith("Severity: high") and "0.84-0.96" in severity
    assert "Power Input +16.85 kW at equal load" in severity and "z +5.6" in severity


def test_severity_grows_with_confidence_and_deviation() -> None:
    assert severity_level(0.84, 5.6, 0.18, tripped=False) == "high"
    assert severity_level(0.40, 2.5, 0.02, tripped=False) == "medium"
    assert severity_level(0.40, 5.0, 0.20, tripped=False) == "medium"  # large shift, unsure cause
    assert severity_level(0.10, 0.5, 0.01, tripped=False) == "low"
    assert severity_level(0.10, 0.5, 0.01, tripped=True) == "high"


def test_answers_stay_bounded_unless_detail_is_asked() -> None:
    long_summary = "Chiller 4 finding with many numbers; " * 80
    data = _artifact("artifact_dc_1", "telemetry_window", "data", summary=long_summary)
    results = [_result(1, "data", "history", long_summary, data.id)]
    assert len(compose_answer(_outcome("how did it run", results, [data], intent="history"),
                              max_chars=2400)) <= DEFAULT_MAX_CHARS
    detailed = compose_answer(_outcome("how did it run, in detail please", results, [data], intent="history"),
                              max_chars=2400)
    assert DEFAULT_MAX_CHARS < len(detailed) <= 2400


def test_the_question_style_is_read_from_the_message() -> None:
    assert read_question("write it up in a few lines for my boss").brief
    assert read_question("summarise for management").brief
    assert read_question("how serious is it?").severity
    assert not read_question("which sensors does ch4 have and over what dates?").brief
    assert read_question("chiller 4 supply temp for march 2021").sensors == ["Supply Temperature"]


def test_a_sensor_that_went_silent_is_stated_even_when_its_window_is_not_the_lead() -> None:
    data = _artifact("artifact_dc_1", "telemetry_window", "data", summary=DATA_SUMMARY, results={
        "sensors_stopped": {"Chiller 9 Condenser Water Flow": "2019-07-23T15:00:00-04:00"}})
    anomaly = _artifact("artifact_ts_1", "anomaly_detection", "timeseries", summary=ANOMALY_SUMMARY)
    answer = compose_answer(_outcome("Chiller 9 just tripped. Investigate.",
                                     [_result(1, "data", "history", DATA_SUMMARY, data.id),
                                      _result(2, "timeseries", "anomaly_detection", ANOMALY_SUMMARY, anomaly.id)],
                                     [data, anomaly]), max_chars=2400)
    assert answer.startswith(ANOMALY_SUMMARY)
    assert "Chiller 9 Condenser Water Flow stopped reporting at 2019-07-23 15:00" in answer


def test_every_result_answering_the_question_is_shown_in_full_and_the_others_by_their_first_clause() -> None:
    modes = "Chiller 6: 7 failure modes: Compressor Overheating; Condenser Water side fouling; Purge Unit."
    mapping = "Chiller 6: mapped 7 failure modes to 10 sensors (2 call(s)). Strongest: fouling on Power Input."
    window = "Chiller 6, 2020-05-01 to 2020-07-01: Chiller Efficiency: 0.44 kW/ton while running; more numbers."
    artifacts = [_artifact(f"artifact_{i}", kind, "failure") for i, kind in
                 enumerate(("failure_modes", "sensor_mapping", "telemetry_window"))]
    outcome = _outcome("and?", [_result(1, "failure", "failure_modes", modes, "artifact_0"),
                                _result(2, "failure", "sensor_mapping", mapping, "artifact_1"),
                                _result(3, "data", "history", window, "artifact_2")],
                       artifacts, intent="failure_modes")
    lead = compose_answer(outcome, max_chars=2400).splitlines()[0]
    assert modes in lead and mapping in lead
    assert "Chiller 6, 2020-05-01 to 2020-07-01: Chiller Efficiency: 0.44 kW/ton while running." in lead
    assert "more numbers" not in lead


def test_a_supporting_checklist_is_cited_not_spelled_out() -> None:
    draft = _artifact("artifact_mp_1", "work_order_draft", "maintenance", summary="Drafted WOD-1 for Chiller 4.")
    config = _artifact("artifact_mp_2", "monitoring_config", "maintenance", summary="Alert configuration: 3 steps",
                       results={"steps": ["a", "b", "c"], "criteria": []})
    answer = compose_answer(_outcome("ok raise a wo for that",
                                     [_result(1, "maintenance", "draft_wo", draft.summary, draft.id),
                                      _result(2, "maintenance", "monitoring_config", config.summary, config.id)],
                                     [draft, config], intent="draft_wo"), max_chars=2400)
    assert answer.startswith("Drafted WOD-1 for Chiller 4.")
    assert "1. a" not in answer and "[artifact_mp_2]" in answer
