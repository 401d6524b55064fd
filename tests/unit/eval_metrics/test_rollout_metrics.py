"""Harness metrics on hand-written rollouts with known answers (ROLLOUT_FORMAT.md §1.7, §2.4, §2.6)."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation.metrics.rollout import corpus_harness, harness_metrics, load_contract, turn_outcome

CONTRACT = load_contract()
FINAL = {"agent_role": "respond_to_user", "task_type": "final_response", "status": "ok", "final_response": "done"}
PE_FINAL = {"agent_role": "summarizer", "task_type": "final_response", "status": "ok", "final_response": "done"}


def call(name: str = "iot.sites", status: str | None = "ok", **args: Any) -> dict[str, Any]:
    return {"tool_name": name, "args": args, "status": status}


def spec(role: str, *calls: dict[str, Any], status: str = "ok") -> dict[str, Any]:
    return {"agent_role": role, "task_type": "work", "status": status, "tool_calls": list(calls)}


def test_the_format_documents_example_scores_as_documented() -> None:
    lines = [{"turn_id": "turn_001", **spec("data_collection_specialist", call(),
                                             call("iot.assets", "failed", site_name="MAIN "),
                                             call("iot.assets", site_name="MAIN"))},
             {"turn_id": "turn_001", **FINAL},
             {"turn_id": "turn_002", **spec("data_collection_specialist",
                                             call("iot.sensors", site_name="MAIN", asset_id="Chiller 6"),
                                             call("tsfm.get_ai_tasks"))},
             {"turn_id": "turn_002", **FINAL}]
    assert corpus_harness([harness_metrics(lines, CONTRACT)]) == {"TNV": 1.0, "SC": 1.0, "ESR": 0.8, "RSR": 1.0}


@pytest.mark.parametrize(("events", "expected"), [
    ([spec("a", call(status="failed")), spec("b", call()), FINAL], (True, False)),  # no cross-role repair
    ([spec("a", call(status="failed")), spec("a", call()), FINAL], (True, True)),
    ([spec("a", status="failed"), spec("a", call()), FINAL], (True, True)),
    ([spec("supervisor", status="failed"), spec("a", call()), FINAL], (True, False)),  # never repaired
    ([spec("a", call(status="failed")), spec("a", call())], (True, False)),  # no final response
    ([spec("a", call(status=None)), FINAL], (False, True)),  # missing status is OK
    ([spec("a", call(status="timeout")), FINAL], (True, False)),
])
def test_supervisor_turn_recovery_edge_cases(events: list[dict[str, Any]], expected: tuple[bool, bool]) -> None:
    assert turn_outcome(events) == expected


def planner(kind: str = "original") -> dict[str, Any]:
    return {"agent_role": "planner", "task_type": "replan_generation" if kind == "replan" else "plan_generation",
            "plan_kind": kind, "plan": {"steps": []}, "status": "ok", "tool_calls": []}


def executor(*calls: dict[str, Any], status: str = "ok") -> dict[str, Any]:
    return {"agent_role": "executor", "task_type": "plan_execution", "status": status, "tool_calls": list(calls)}


@pytest.mark.parametrize(("events", "expected"), [
    ([planner(), executor(call(status="failed")), planner("replan"), executor(call()), PE_FINAL], (True, True)),
    ([planner(), executor(call(status="failed")), executor(call()), PE_FINAL], (True, False)),  # replan required
    ([planner(), executor(call(status="failed")), planner("replan"), executor(call(), status="failed"), PE_FINAL],
     (True, False)),
    ([planner(), executor(call(), status="failed"), PE_FINAL], (False, True)),  # skipped step: no trigger
])
def test_plan_execute_turn_recovery_edge_cases(events: list[dict[str, Any]], expected: tuple[bool, bool]) -> None:
    assert turn_outcome(events) == expected


def test_illegal_names_bad_args_and_dialog_level_rsr() -> None:
    unknown = [{"turn_id": "turn_001", **spec("a", call("iot.foo"), {"args": {}, "status": "ok"})}, {**FINAL}]
    counts = harness_metrics(unknown, CONTRACT)
    assert (counts["calls"], counts["legal"], counts["exec_ok"]) == (2, 0, 2)  # missing name = "unknown"
    assert corpus_harness([counts])["SC"] is None
    bad = [{"turn_id": "turn_001", **spec("a", {"tool_name": "iot.assets", "args": '{"site_name": "MAIN"}'},
                                          call("iot.assets", site_name=""))}, FINAL]
    assert harness_metrics(bad, CONTRACT)["schema_errors"] == ["missing required site_name",
                                                              "empty required string site_name"]
    # a failed, unrecovered first turn does not count when the last turn succeeds (§2.4 edge case)
    first_fails = [{"turn_id": "turn_001", **spec("a", call(status="failed"))}, {"turn_id": "turn_001", **FINAL},
                   {"turn_id": "turn_002", **spec("a", call())}, {"turn_id": "turn_002", **FINAL}]
    assert corpus_harness([harness_metrics(first_fails, CONTRACT)])["RSR"] == 1.0
    assert corpus_harness([harness_metrics([{"turn_id": "turn_001", **FINAL}], CONTRACT)])["RSR"] is None
