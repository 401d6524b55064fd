"""The two fmsr tools through the framework's call path, on knowledge rows in SQLite."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from sqlalchemy import Engine

import tools.fmsr as fmsr
from assetops.db.tables.fleet import FmeaRow, SensorRelevanceRow
from assetops.profiling import profiling
from tools.framework import ToolContext, call_tool

from .conftest import insert_rows

OVERHEATING = "Compressor Overheating: Failed due to Normal wear, overheating"
CONDENSER_FOULING = "Condenser Water side fouling"
EVAPORATOR_FOULING = "Evaporator Water side fouling"


def _fmea(asset_class: str, failure_mode: str, rank: int | None) -> dict[str, Any]:
    return {"asset_class": asset_class, "failure_mode": failure_mode, "degradation_mechanism": None,
            "influencing_factors": None, "detection": None, "preventive_task": None, "primary_codes": [],
            "curated_rank": rank}


def _relevance(failure_mode: str, sensor: str, relevant: bool, reason: str, temporal: str) -> dict[str, Any]:
    return {"asset_class": "chiller", "failure_mode": failure_mode, "sensor": sensor, "relevant": relevant,
            "reason": reason, "temporal_behavior": temporal}


@pytest.fixture
def knowledge(db_engine: Engine) -> None:
    """Three curated chiller modes stored out of rank order, one broader row, two AHU modes, and relevance."""
    insert_rows(db_engine, FmeaRow, [
        _fmea("chiller", CONDENSER_FOULING, 2),
        _fmea("chiller", "Expansion Valve: Blockage", None),
        _fmea("chiller", OVERHEATING, 1),
        _fmea("ahu", "Belts or sheaves Wear", 1),
        _fmea("chiller", EVAPORATOR_FOULING, 3),
        _fmea("ahu", "Improper switch position", 2),
    ])
    insert_rows(db_engine, SensorRelevanceRow, [
        _relevance(CONDENSER_FOULING, "Power Input", True, "Lift raises power.", "Rises over weeks."),
        _relevance(CONDENSER_FOULING, "Tonnage", True, "Context for load.", "Follows load."),
        _relevance(OVERHEATING, "Power Input", True, "Losses raise power.", "Gradual rise, then 0 at trip."),
        _relevance(OVERHEATING, "Tonnage", False, "Follows the building load.", "Follows load."),
    ])


@pytest.fixture(autouse=True)
def _empty_llm_caches() -> None:
    fmsr._llm_failure_modes.clear()
    fmsr._llm_verdicts.clear()


async def _call(ctx: ToolContext, name: str, **args: Any) -> Any:
    return await call_tool(f"fmsr.{name}", args, context=ctx)


async def test_curated_failure_modes_come_in_rank_order(tool_ctx: ToolContext, knowledge: None) -> None:
    result = await _call(tool_ctx, "get_failure_modes", asset_name="Chiller 6")
    assert result.status == "ok"
    assert result.output["asset_name"] == "Chiller 6"
    assert result.output["failure_modes"] == [OVERHEATING, CONDENSER_FOULING, EVAPORATOR_FOULING]
    ahu = await _call(tool_ctx, "get_failure_modes", asset_name="AHU 2")
    assert ahu.output["failure_modes"] == ["Belts or sheaves Wear", "Improper switch position"]


async def test_other_classes_without_llm_name_the_supported_classes(tool_ctx: ToolContext, knowledge: None) -> None:
    result = await _call(tool_ctx, "get_failure_modes", asset_name="Pump 3")
    assert result.status == "error"
    assert "LLM unavailable" in result.output["error"]
    assert "'pump'" in result.output["error"] and "Supported asset classes: ahu, chiller." in result.output["error"]


async def test_asset_name_without_a_class_is_refused(tool_ctx: ToolContext, knowledge: None) -> None:
    result = await _call(tool_ctx, "get_failure_modes", asset_name="42")
    assert result.output == {"error": "asset_name is required"}


async def test_other_classes_are_answered_by_the_llm_as_a_parsed_list(tool_ctx: ToolContext, knowledge: None) -> None:
    tool_ctx.llm = FakeListChatModel(responses=["Failure modes:\n1. Bearing wear\n2) Seal leak\n3. Cavitation"])
    with profiling() as profile:
        result = await _call(tool_ctx, "get_failure_modes", asset_name="Pump 3")
    assert result.status == "ok"
    assert result.output["failure_modes"] == ["Bearing wear", "Seal leak", "Cavitation"]
    assert result.output["source"] == "llm"
    assert [call.purpose for call in profile.llm_calls] == ["fmsr.get_failure_modes"]


async def test_llm_answer_without_a_list_is_an_error(tool_ctx: ToolContext, knowledge: None) -> None:
    tool_ctx.llm = FakeListChatModel(responses=["I cannot help with that."])
    result = await _call(tool_ctx, "get_failure_modes", asset_name="Boiler")
    assert result.status == "error" and "no numbered list" in result.output["error"]


async def test_mapping_answers_from_the_knowledge_base(tool_ctx: ToolContext, knowledge: None) -> None:
    result = await _call(
        tool_ctx, "get_failure_mode_sensor_mapping", asset_name="Chiller 6",
        failure_modes=["Compressor Overheating", CONDENSER_FOULING],
        sensors=["Chiller 6 Power Input", "Tonnage"],
    )
    assert result.status == "ok"
    output = result.output
    assert output["metadata"]["failure_modes"] == ["Compressor Overheating", CONDENSER_FOULING]
    assert output["metadata"]["sensors"] == ["Chiller 6 Power Input", "Tonnage"]
    assert output["fm2sensor"] == {"Compressor Overheating": ["Chiller 6 Power Input"],
                                   CONDENSER_FOULING: ["Chiller 6 Power Input", "Tonnage"]}
    assert output["sensor2fm"] == {"Chiller 6 Power Input": ["Compressor Overheating", CONDENSER_FOULING],
                                   "Tonnage": [CONDENSER_FOULING]}
    first, second = output["full_relevancy"][:2]
    assert (first["relevancy_answer"], first["relevancy_reason"], first["temporal_behavior"]) == (
        "Yes", "Losses raise power.", "Gradual rise, then 0 at trip.")
    assert (second["relevancy_answer"], second["relevancy_reason"]) == ("No", "Follows the building load.")
    assert all(row["source"] == "knowledge_base" for row in output["full_relevancy"])


async def test_pairs_missing_from_the_knowledge_base_are_unknown_without_llm(tool_ctx: ToolContext, knowledge: None) -> None:
    result = await _call(tool_ctx, "get_failure_mode_sensor_mapping", asset_name="Chiller 9",
                         failure_modes=[EVAPORATOR_FOULING], sensors=["Chiller 9 Supply Temperature"])
    [row] = result.output["full_relevancy"]
    assert row["relevancy_answer"] == "Unknown"
    assert "knowledge base has no entry" in row["relevancy_reason"]
    assert result.output["fm2sensor"] == {} and result.output["sensor2fm"] == {}
    note = result.output["metadata"]["note"]
    assert CONDENSER_FOULING in note and "Power Input, Tonnage" in note


async def test_pairs_missing_from_the_knowledge_base_are_judged_by_the_llm(tool_ctx: ToolContext, knowledge: None) -> None:
    tool_ctx.llm = FakeListChatModel(responses=["Yes\nFouling lowers the supply temperature margin.\nDrifts up at peak."])
    with profiling() as profile:
        result = await _call(tool_ctx, "get_failure_mode_sensor_mapping", asset_name="Chiller 9",
                             failure_modes=[EVAPORATOR_FOULING, CONDENSER_FOULING],
                             sensors=["Chiller 9 Supply Temperature", "Chiller 9 Power Input"])
    rows = {(r["failure_mode"], r["sensor"]): r for r in result.output["full_relevancy"]}
    judged = rows[(EVAPORATOR_FOULING, "Chiller 9 Supply Temperature")]
    assert (judged["relevancy_answer"], judged["temporal_behavior"], judged["source"]) == (
        "Yes", "Drifts up at peak.", "llm")
    assert rows[(CONDENSER_FOULING, "Chiller 9 Power Input")]["source"] == "knowledge_base"
    # Three pairs are missing from the knowledge base: one LLM call each, recorded in the profile.
    assert len(profile.llm_calls) == 3
    assert result.output["metadata"]["knowledge_base_pairs"] == 1


class UnreachableChatModel(FakeListChatModel):
    """A chat model whose endpoint cannot be reached."""

    def _call(self, *args: Any, **kwargs: Any) -> str:
        raise ConnectionError("endpoint unreachable")


async def test_llm_failure_leaves_the_pair_unknown(tool_ctx: ToolContext, knowledge: None) -> None:
    tool_ctx.llm = UnreachableChatModel(responses=[])
    result = await _call(tool_ctx, "get_failure_mode_sensor_mapping", asset_name="Chiller 9",
                         failure_modes=[EVAPORATOR_FOULING], sensors=["Tonnage"])
    [row] = result.output["full_relevancy"]
    assert row["relevancy_answer"] == "Unknown" and "endpoint unreachable" in row["relevancy_reason"]


async def test_llm_failure_listing_failure_modes_is_an_error(tool_ctx: ToolContext, knowledge: None) -> None:
    tool_ctx.llm = UnreachableChatModel(responses=[])
    result = await _call(tool_ctx, "get_failure_modes", asset_name="Pump 3")
    assert result.status == "error" and "endpoint unreachable" in result.output["error"]


@pytest.mark.parametrize(("args", "message"), [
    ({"asset_name": "Chiller 6", "failure_modes": [], "sensors": ["Tonnage"]}, "failure_modes list is required"),
    ({"asset_name": "Chiller 6", "failure_modes": ["x"], "sensors": [" "]}, "sensors list is required"),
    ({"asset_name": "17", "failure_modes": ["x"], "sensors": ["Tonnage"]}, "asset_name is required"),
])
async def test_mapping_validation_errors(tool_ctx: ToolContext, knowledge: None, args: dict[str, Any], message: str) -> None:
    result = await _call(tool_ctx, "get_failure_mode_sensor_mapping", **args)
    assert result.output == {"error": message}


async def test_mapping_with_a_wrong_argument_type_names_it(tool_ctx: ToolContext, knowledge: None) -> None:
    result = await _call(tool_ctx, "get_failure_mode_sensor_mapping", asset_name="Chiller 6",
                         failure_modes="Condenser Water side fouling", sensors=["Tonnage"])
    assert result.status == "error" and "failure_modes" in result.output["error"]


async def test_llm_verdicts_are_remembered_per_pair(tool_ctx: ToolContext, knowledge: None) -> None:
    tool_ctx.llm = FakeListChatModel(responses=["No\nNot related.", "Yes\nchanged\nchanged"])
    args = {"asset_name": "Chiller 9", "failure_modes": [EVAPORATOR_FOULING], "sensors": ["Chiller 9 Tonnage"]}
    first = await _call(tool_ctx, "get_failure_mode_sensor_mapping", **args)
    with profiling() as profile:
        second = await _call(tool_ctx, "get_failure_mode_sensor_mapping", **{**args, "sensors": ["Tonnage"]})
    assert profile.llm_calls == []
    assert first.output["full_relevancy"][0]["relevancy_answer"] == "No"
    assert second.output["full_relevancy"][0]["relevancy_reason"] == "Not related."
