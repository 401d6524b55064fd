"""Memory, consistency, diagnosis, profile and judge metrics on hand-written inputs with known answers."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from evaluation.judge import NOT_JUDGED, judge_dialog, judge_summary, parse_scores
from evaluation.metrics.consistency import contradictions
from evaluation.metrics.diagnosis import NO_FAULT, DiagnosisCase, diagnosis_figures, ranking
from evaluation.metrics.memory import memory_counts
from evaluation.metrics.profile import busy_ms, latency_by_position, tool_time_share
from evaluation.records import CallRecord, TurnRecord

MODES = ["Condenser Water side fouling", "Evaporator Water side fouling", "Purge Unit Excessive purge"]


def line(turn: int, role: str, calls: list[dict[str, Any]] = (), out: list[str] = (), reused: list[str] = (),
         memo: int = 0) -> dict[str, Any]:
    return {"turn_id": f"turn_{turn:03d}", "agent_role": role, "tool_calls": list(calls),
            "output_artifact_ids": list(out), "reused_artifact_ids": list(reused),
            "reused_tool_calls": [{"tool_name": "iot.history"}] * memo}


def test_memory_counts_reuse_redundancy_and_fetches_avoided() -> None:
    history = {"tool_name": "iot.history", "args": {"asset_id": "Chiller 6", "start": "a"}, "status": "ok"}
    same_reordered = {"tool_name": "iot.history", "args": {"start": "a", "asset_id": "Chiller 6"}, "status": "ok"}
    failed = {"tool_name": "iot.sites", "args": {}, "status": "failed"}
    retry = {"tool_name": "iot.sites", "args": {}, "status": "ok"}
    lines = [line(1, "data_collection_specialist", [history, history, failed, retry], out=["a1", "a2"]),
             line(2, "failure_reasoning_specialist", [], out=["f1"], reused=["a1"], memo=1),
             line(3, "data_collection_specialist", [same_reordered], out=["a3"], reused=["f1", "a3x"])]
    counts = memory_counts(lines)
    assert counts.executed_calls == 5
    assert counts.redundant_calls == 2  # the second history in turn 1 and its reordered twin in turn 3; not the retry
    assert counts.memo_calls == 1
    assert counts.fetches_avoided == 1 + 2.0 + 0.0  # memo call + a1's share of 4 calls over 2 outputs + f1 (0 calls)
    assert (counts.follow_created, counts.follow_reused) == (2, 2)  # "a3x" came from no earlier turn
    assert counts.reuse_rate == 0.5


def test_cross_turn_consistency_flags_unexplained_changes_only() -> None:
    first = "Chiller 6, 2020-05-01 to 2020-07-01: Power Input: 130.18 kW while running."
    same = "Chiller 6, 2020-05-01 to 2020-07-01: Power Input: 130.2 kW while running."
    other = "Chiller 6, 2020-05-01 to 2020-07-01: Power Input: 150.00 kW while running."
    explained = other + " Revised after adding the missing week."
    assert contradictions([first, same]) == []
    found = contradictions([first, other])
    assert [(c.kind, c.earlier_turn, c.later_turn) for c in found] == [("figure", 1, 2)]
    assert contradictions([first, explained]) == []
    h1 = "Chiller 6: most likely Condenser Water side fouling 0.8; Evaporator Water side fouling 0.1."
    h2 = "Chiller 6: most likely Evaporator Water side fouling 0.6; Condenser Water side fouling 0.3."
    assert [c.kind for c in contradictions([h1, h2], MODES)] == ["hypothesis"]
    assert contradictions([h1, h2 + " With the other sensors the ranking changed."], MODES) == []
    assert contradictions([h1, "Chiller 9: most likely Purge Unit Excessive purge."], MODES) == []  # other asset


def test_diagnosis_ranking_and_accuracy() -> None:
    text = "Chiller 6: see Evaporator Water side fouling notes; most likely Condenser Water side fouling 0.9."
    assert ranking(text, MODES) == ["Condenser Water side fouling", "Evaporator Water side fouling"]
    assert ranking("most likely no fault: normal operation; Purge Unit Excessive purge 0.1", MODES)[0] == NO_FAULT
    cases = [DiagnosisCase("S1", "Condenser Water side fouling", ranking(text, MODES)),
             DiagnosisCase("S2", "Evaporator Water side fouling", ranking(text, MODES)),
             DiagnosisCase("S3", "Purge Unit Excessive purge", []),
             DiagnosisCase("C1", None, [NO_FAULT, "Purge Unit Excessive purge"]),
             DiagnosisCase("C2", None, ["Purge Unit Excessive purge"])]
    figures = diagnosis_figures(cases)
    assert (figures["top1"], figures["top2"], figures["control_false_alarm"]) == (1 / 3, 2 / 3, 0.5)



def test_a_concurrent_injected_fault_counts_and_the_strict_figure_does_not() -> None:
    evap, purge, trip = "Evaporator Water side fouling", "Purge Unit Excessive purge", "Control Panel: Electrical failure (safety trip)"
    cases = [DiagnosisCase("S1", evap, [purge, evap], also_active=(purge,)),  # both faults on the chiller that day
             DiagnosisCase("S2", trip, ["Condenser Water side fouling", "Compressor Overheating", trip],
                           also_active=("Compressor Overheating",)),  # a fault not active there: a miss
             DiagnosisCase("S3", evap, [NO_FAULT, evap], also_active=(purge,)),
             DiagnosisCase("S4", purge, [purge])]
    assert [c.top1 for c in cases] == [True, False, False, True]
    assert [c.top2 for c in cases] == [True, True, True, True]
    assert [c.top1_strict for c in cases] == [False, False, False, True]
    figures = diagnosis_figures(cases)
    assert (figures["top1"], figures["top1_strict"], figures["top2_strict"]) == (0.5, 0.25, 0.75)
    assert figures["concurrent_episodes"] == 3
    assert [m["dialog"] for m in figures["misses"]] == ["S2", "S3"]
    assert DiagnosisCase("C1", None, [purge], also_active=(purge,)).top1 is False  # a control never scores a hit

def _turn(index: int, wall: float, calls: list[CallRecord]) -> TurnRecord:
    return TurnRecord("D", index, "q", "a", "ok", wall, calls)


def test_profile_tool_time_is_the_union_of_call_intervals() -> None:
    parallel = [CallRecord("iot.history", {}, "ok", 100.0, False, 150.0),
                CallRecord("iot.history", {}, "ok", 100.0, False, 170.0),  # overlaps: [50,150] + [70,170] = 120
                CallRecord("wo.get_work_orders", {}, "ok", 30.0, False, 300.0),
                CallRecord("iot.sites", {}, "ok", 0.0, True, 310.0)]  # memo: no time
    assert busy_ms(parallel) == 150.0
    turns = [_turn(1, 1000.0, parallel), _turn(2, 200.0, []), _turn(3, 300.0, [])]
    assert tool_time_share(turns) == 150.0 / 1500.0
    latency = latency_by_position(turns)
    assert (latency["first_turn_ms"], latency["follow_up_ms"], latency["follow_up_speedup"]) == (1000.0, 250.0, 4.0)


async def test_the_judge_reads_scripted_replies_and_reports_unusable_ones() -> None:
    lines = [{"turn_id": "turn_001", "agent_role": "user", "user_message": "hi"},
             {"turn_id": "turn_001", "agent_role": "respond_to_user", "task_type": "final_response",
              "final_response": "hello"}]
    good = FakeListChatModel(responses=['Sure. {"planning_effectiveness": 0.8, "tool_usage_quality": 1.4, '
                                        '"task_completion": 0.5, "reason": "fine"}'])
    scores = await judge_dialog(good, lines)
    assert (scores.planning_effectiveness, scores.tool_usage_quality, scores.task_completion) == (0.8, 1.0, 0.5)
    bad = await judge_dialog(FakeListChatModel(responses=["I think it was good."]), lines)
    assert bad.error is not None and bad.task_completion is None
    summary = judge_summary([scores, bad])
    assert summary["planning_effectiveness"] == 0.8 and summary["errors"] == 1
    assert judge_summary(None)["task_completion"] == NOT_JUDGED
    assert parse_scores('{"planning_effectiveness": "x"}').error is not None
