"""Pure fmsr logic: asset classes, tolerant matching, LLM answer parsing, output shape."""

from __future__ import annotations

from tools.fmsr_logic import (
    NO,
    UNKNOWN,
    YES,
    Verdict,
    asset_class_key,
    mapping_output,
    match_failure_mode,
    match_sensor,
    parse_numbered_list,
    parse_relevancy_answer,
    strip_asset_prefix,
    unknown_verdict,
    verdict_from_knowledge,
)

CURATED = [
    "Compressor Overheating: Failed due to Normal wear, overheating",
    "Heat Exchangers: Fans: Degraded motor or worn bearing due to Normal use",
    "Evaporator Water side fouling",
    "Condenser Water side fouling",
    "Condenser Improper water side flow rate",
    "Purge Unit Excessive purge",
    "Refrigerant Operated Control Valve Failed spring",
]


def test_asset_class_drops_digits_and_case() -> None:
    assert asset_class_key("Chiller 6") == "chiller"
    assert asset_class_key("  AHU12 ") == "ahu"
    assert asset_class_key("Cooling Tower 2") == "cooling tower"
    assert asset_class_key("42") == ""


def test_failure_modes_match_exactly_or_tolerantly() -> None:
    assert match_failure_mode("Condenser Water side fouling", CURATED) == "Condenser Water side fouling"
    assert match_failure_mode("condenser water-side  fouling", CURATED) == "Condenser Water side fouling"
    assert match_failure_mode("Compressor Overheating", CURATED) == CURATED[0]
    assert match_failure_mode("Heat Exchangers: Fans", CURATED) == CURATED[1]
    assert match_failure_mode("Purge Unit Excessive purge due to air leak", CURATED) == CURATED[5]
    assert match_failure_mode("failed spring", CURATED) == CURATED[6]


def test_ambiguous_or_unknown_failure_modes_do_not_match() -> None:
    assert match_failure_mode("fouling", CURATED) is None  # evaporator or condenser?
    assert match_failure_mode("Bearing seizure", CURATED) is None
    assert match_failure_mode("", CURATED) is None


def test_sensor_prefix_is_stripped_for_the_asset_and_its_siblings() -> None:
    assert strip_asset_prefix("Chiller 6 Supply Temperature", "Chiller 6") == "Supply Temperature"
    assert strip_asset_prefix("chiller 9 Tonnage", "Chiller 6") == "Tonnage"
    assert strip_asset_prefix("Supply Temperature", "Chiller 6") == "Supply Temperature"
    assert strip_asset_prefix("Chiller % Loaded", "Chiller 6") == "Chiller % Loaded"
    assert strip_asset_prefix("Chiller 6 Chiller % Loaded", "Chiller 6") == "Chiller % Loaded"


def test_sensors_match_with_or_without_prefix() -> None:
    known = ["Supply Temperature", "Chiller % Loaded", "Tonnage"]
    assert match_sensor("Chiller 6 Supply Temperature", "Chiller 6", known) == "Supply Temperature"
    assert match_sensor("supply temperature", "Chiller 6", known) == "Supply Temperature"
    assert match_sensor("Chiller 6 Chiller % Loaded", "Chiller 6", known) == "Chiller % Loaded"
    assert match_sensor("Chiller 6 Vibration", "Chiller 6", known) is None


def test_numbered_list_parsing_keeps_items_only() -> None:
    text = "Here are the failure modes:\n1. Bearing wear\n2) Seal leak\n\n3.  Impeller erosion \n- bullet\n2. Seal leak"
    assert parse_numbered_list(text) == ["Bearing wear", "Seal leak", "Impeller erosion"]
    assert parse_numbered_list("no list here") == []


def test_relevancy_answer_parsing_follows_the_three_line_protocol() -> None:
    verdict = parse_relevancy_answer("Yes\n\nPower rises with fouling.\nIncreases gradually over weeks.")
    assert (verdict.answer, verdict.reason, verdict.temporal_behavior) == (
        YES, "Power rises with fouling.", "Increases gradually over weeks.")
    verdict = parse_relevancy_answer("No.\nUnrelated.\nStays flat.")
    assert (verdict.answer, verdict.reason, verdict.temporal_behavior) == (NO, "Unrelated.", UNKNOWN)
    verdict = parse_relevancy_answer("Answer: yes\nReason: It tracks load.")
    assert (verdict.answer, verdict.reason, verdict.temporal_behavior) == (YES, "It tracks load.", UNKNOWN)
    assert parse_relevancy_answer("Maybe").answer == UNKNOWN
    assert parse_relevancy_answer("").reason == UNKNOWN


def test_mapping_output_lists_relevant_pairs_in_input_order() -> None:
    yes = verdict_from_knowledge(True, "why", "rises")
    no = verdict_from_knowledge(False, "not related", "")
    verdicts: dict[tuple[str, str], Verdict] = {
        ("F1", "S1"): yes, ("F1", "S2"): no, ("F2", "S1"): unknown_verdict("chiller"), ("F2", "S2"): yes,
    }
    output = mapping_output("Chiller 6", ["F1", "F2"], ["S1", "S2"], verdicts)
    assert output["metadata"] == {"asset_name": "Chiller 6", "failure_modes": ["F1", "F2"], "sensors": ["S1", "S2"]}
    assert output["fm2sensor"] == {"F1": ["S1"], "F2": ["S2"]}
    assert output["sensor2fm"] == {"S1": ["F1"], "S2": ["F2"]}
    assert [(r["failure_mode"], r["sensor"], r["relevancy_answer"]) for r in output["full_relevancy"]] == [
        ("F1", "S1", YES), ("F1", "S2", NO), ("F2", "S1", UNKNOWN), ("F2", "S2", YES)]
    assert output["full_relevancy"][1]["temporal_behavior"] == UNKNOWN
    assert "no LLM is configured" in output["full_relevancy"][2]["relevancy_reason"]
