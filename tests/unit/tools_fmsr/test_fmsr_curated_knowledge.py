"""The fmsr tools on the project's curated knowledge (fleet/knowledge) loaded into the database."""

from __future__ import annotations

from dataclasses import asdict

import pytest
from sqlalchemy import Engine

from assetops.db.tables.fleet import FmeaRow, SensorRelevanceRow
from fleet.knowledge.loader import fmea_entries, sensor_relevance
from tools.framework import ToolContext, call_tool

from .conftest import insert_rows

# TOOL_CONTRACT.md §3.5: the curated chiller list, in its served order.
CONTRACT_CHILLER_MODES = [
    "Compressor Overheating: Failed due to Normal wear, overheating",
    "Heat Exchangers: Fans: Degraded motor or worn bearing due to Normal use",
    "Evaporator Water side fouling",
    "Condenser Water side fouling",
    "Condenser Improper water side flow rate",
    "Purge Unit Excessive purge",
    "Refrigerant Operated Control Valve Failed spring",
]


@pytest.fixture
def curated_knowledge(db_engine: Engine) -> None:
    insert_rows(db_engine, FmeaRow, [{**asdict(e), "primary_codes": list(e.primary_codes)} for e in fmea_entries()])
    insert_rows(db_engine, SensorRelevanceRow, [asdict(r) for r in sensor_relevance()])


async def test_chiller_failure_modes_are_the_contract_list(tool_ctx: ToolContext, curated_knowledge: None) -> None:
    result = await call_tool("fmsr.get_failure_modes", {"asset_name": "Chiller 6"}, context=tool_ctx)
    assert result.output["failure_modes"] == CONTRACT_CHILLER_MODES


@pytest.mark.parametrize(("failure_mode", "sensor", "answer"), [
    # Cells of the cached-verdict table of TOOL_CONTRACT.md §3.5, named the way callers write them.
    ("Compressor Overheating", "Chiller 6 Tonnage", "No"),
    ("Condenser Water side fouling", "Chiller 6 Tonnage", "Yes"),
    ("Heat Exchangers: Fans", "Chiller 9 Setpoint Temperature", "No"),
    ("Purge Unit Excessive purge", "Chiller % Loaded", "Yes"),
    ("Refrigerant Operated Control Valve Failed spring", "Chiller 3 Power Input", "No"),
    ("condenser improper water side flow rate", "Chiller 6 Condenser Water Flow", "Yes"),
])
async def test_mapping_reads_the_curated_relevance(
    tool_ctx: ToolContext, curated_knowledge: None, failure_mode: str, sensor: str, answer: str
) -> None:
    result = await call_tool("fmsr.get_failure_mode_sensor_mapping",
                             {"asset_name": "Chiller 6", "failure_modes": [failure_mode], "sensors": [sensor]},
                             context=tool_ctx)
    [row] = result.output["full_relevancy"]
    assert row["relevancy_answer"] == answer
    assert row["source"] == "knowledge_base"
    assert row["relevancy_reason"] not in ("", "Unknown")
