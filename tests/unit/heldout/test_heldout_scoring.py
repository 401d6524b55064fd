"""The held-out bench's pure scoring: answer checks and the harness metrics of ROLLOUT_FORMAT.md §2."""

from __future__ import annotations

import json

import pytest

from evaluation.dialog_checks import (
    kind_ok,
    load_dialogs,
    mention_found,
    number_found,
    numbers_in,
)
from evaluation.metrics.rollout import corpus_harness, harness_metrics
from tests.conftest import require_shared

SPEC_EXAMPLE = [  # ROLLOUT_FORMAT.md §1.7, scored there as TNV 1.0, SC 1.0, ESR 0.8, RSR 1.0
    {"turn_id": "turn_001", "agent_role": "supervisor", "task_type": "supervisor_decision", "status": "ok",
     "tool_calls": []},
    {"turn_id": "turn_001", "agent_role": "data_collection_specialist", "task_type": "list_sites_and_assets",
     "status": "ok", "tool_calls": [
         {"tool_name": "iot.sites", "args": {}, "status": "ok"},
         {"tool_name": "iot.assets", "args": {"site_name": "MAIN "}, "status": "failed"},
         {"tool_name": "iot.assets", "args": {"site_name": "MAIN"}, "status": "ok"}]},
    {"turn_id": "turn_001", "agent_role": "respond_to_user", "task_type": "final_response", "status": "ok",
     "tool_calls": [], "final_response": "Site MAIN has four chillers."},
    {"turn_id": "turn_002", "agent_role": "data_collection_specialist", "task_type": "list_sensors", "status": "ok",
     "tool_calls": [{"tool_name": "iot.sensors", "args": {"site_name": "MAIN", "asset_id": "Chiller 6"},
                     "status": "ok"},
                    {"tool_name": "tsfm.get_ai_tasks", "args": {}, "status": "ok"}]},
    {"turn_id": "turn_002", "agent_role": "respond_to_user", "task_type": "final_response", "status": "ok",
     "tool_calls": [], "final_response": "Chiller 6 reports supply temperature."},
]


@pytest.fixture(scope="module")
def contract() -> dict:
    return json.loads(require_shared("contract/tools.json").read_text())["servers"]


def _turn(role: str, calls: list[dict], answer: str = "done") -> list[dict]:
    return [{"turn_id": "turn_001", "agent_role": role, "task_type": "task", "status": "ok", "tool_calls": calls},
            {"turn_id": "turn_001", "agent_role": "respond_to_user", "task_type": "final_response", "status": "ok",
             "final_response": answer}]


def test_numbers_in_reads_thousands_separators_and_decimals() -> None:
    assert numbers_in("mean 1,234.5 kW, 46.01 while running; -0.3 degF") == [1234.5, 46.01, -0.3]


def test_number_found_respects_relative_and_absolute_tolerance() -> None:
    assert number_found("drew 310 kW", 300.0, tol_rel=0.05)
    assert not number_found("drew 320 kW", 300.0, tol_rel=0.05)
    assert number_found("13 corrective orders", 13.0)
    assert not number_found("12 corrective orders", 13.0)


def test_mention_found_accepts_any_alternative_case_insensitively() -> None:
    assert mention_found("Condenser fouling is likely", ["condenser water side fouling", "condenser fouling"])
    assert not mention_found("Evaporator fouling", "condenser fouling")


def test_a_first_sentence_word_must_stand_as_a_word() -> None:
    """"no" inside "diagnosed" is no answer, nor "Chiller 1" inside "Chiller 13"."""
    from evaluation.dialog_checks import word_found
    assert not word_found("Yes, the order is for the diagnosed fouling.", ["no"])
    assert word_found("No, nothing since then.", ["no"])
    assert not word_found("Chiller 13 had the most.", "Chiller 1")
    assert word_found("Chiller 6's kW/ton rose most.", ["Chiller 6"])
    assert not word_found("Not clearly from this alone.", ["no"])
    assert word_found("August 2016 was the busiest month.", ["Aug"])


def test_mention_is_not_found_inside_an_artifact_or_draft_id() -> None:
    """A setpoint of 44 must be written, not matched inside a hex id that happens to hold "44"."""
    assert not mention_found("Inspect it first [artifact_dc_a44b0e1f2c3d].", "44")
    assert not mention_found("Drafted WOD-3f44ab12 for Chiller 3.", "44")
    assert mention_found("Drop it back to 44 F [artifact_dc_a44b0e1f2c3d].", "44")
    assert mention_found("Drafted WOD-3f44ab12 for Chiller 3.", "WOD-")


def test_kind_ok_accepts_clarify_or_reject_and_skips_unchecked_turns() -> None:
    assert kind_ok("clarify_or_reject", {"reject"})
    assert not kind_ok("clarify", {"run", "answer"})
    assert kind_ok(None, {"run"}) is None


def test_harness_metrics_reproduce_the_scored_example_of_the_spec(contract: dict) -> None:
    figures = corpus_harness([harness_metrics(SPEC_EXAMPLE, contract)])
    assert figures == {"TNV": 1.0, "SC": 1.0, "ESR": 0.8, "RSR": 1.0}


def test_unknown_tool_counts_against_name_validity_but_not_execution(contract: dict) -> None:
    counts = harness_metrics(_turn("data_collection_specialist", [{"tool_name": "iot.foo", "status": "ok"}]),
                             contract)
    assert corpus_harness([counts]) == {"TNV": 0.0, "SC": None, "ESR": 1.0, "RSR": None}


@pytest.mark.parametrize("args", [
    {"site_name": ""},  # empty required string
    {"site_name": True},  # wrong type
    {"site_name": "MAIN", "site": "MAIN"},  # unknown key
    "{\"site_name\": \"MAIN\"}",  # args as a JSON string become {} and miss the required key
])
def test_schema_violations_are_detected(contract: dict, args: object) -> None:
    counts = harness_metrics(_turn("data_collection_specialist", [{"tool_name": "iot.assets", "args": args}]),
                             contract)
    assert (counts["legal"], counts["schema_ok"]) == (1, 0)


def test_integer_argument_rejects_floats_and_accepts_null(contract: dict) -> None:
    base = {"dataset_path": "x.csv", "timestamp_column": "ts", "target_columns": ["a"]}
    ok = harness_metrics(_turn("t", [{"tool_name": "tsfm.run_tsfm_forecasting",
                                      "args": {**base, "forecast_horizon": None}}]), contract)
    bad = harness_metrics(_turn("t", [{"tool_name": "tsfm.run_tsfm_forecasting",
                                       "args": {**base, "forecast_horizon": 2.0}}]), contract)
    assert (ok["schema_ok"], bad["schema_ok"]) == (1, 0)


def test_recovery_by_another_role_does_not_count(contract: dict) -> None:
    lines = [{"turn_id": "turn_001", "agent_role": "data_collection_specialist", "status": "ok",
              "tool_calls": [{"tool_name": "iot.sites", "status": "failed"}]},
             *_turn("time_series_analysis_specialist", [{"tool_name": "tsfm.get_ai_tasks", "status": "ok"}])]
    assert corpus_harness([harness_metrics(lines, contract)])["RSR"] == 0.0


def test_recovery_by_the_same_role_counts(contract: dict) -> None:
    lines = _turn("data_collection_specialist", [{"tool_name": "iot.sites", "status": "failed"},
                                                 {"tool_name": "iot.sites", "status": "ok"}])
    assert corpus_harness([harness_metrics(lines, contract)])["RSR"] == 1.0


def test_heldout_dialogs_file_is_well_formed() -> None:
    dialogs = load_dialogs()
    assert len(dialogs) >= 12
    probes = {"telemetry_mean", "wo_count", "alert_count"}
    for dialog in dialogs:
        assert 2 <= len(dialog.turns) <= 5, dialog.id
        for turn in dialog.turns:
            assert turn.text.strip()
            assert all(p["probe"] in probes for check in turn.numeric for p in check["any_of"])
