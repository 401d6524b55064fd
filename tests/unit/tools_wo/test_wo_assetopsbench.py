"""Contract facts (TOOL_CONTRACT.md §3, §8) checked on the AssetOpsBench sample files.

The files are read from the shared folder next to the repository; when it is absent the tests fail
under CI and skip elsewhere. Loading goes through the project's importer and loader, exactly as `assetops` does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from assetops.db import migrate
from assetops.settings import Settings
from fleet.importer import read_assetopsbench
from fleet.loader import load_fleet
from tests.conftest import require_shared
from tools.framework import ToolContext, call_tool, clear_result_cache

from .conftest import temp_settings


@pytest.fixture(scope="module")
def loaded_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """A database holding the imported AssetOpsBench sample (loaded once for this module)."""
    samples = require_shared("assetopsbench")
    settings = temp_settings(tmp_path_factory.mktemp("assetopsbench"))
    migrate.upgrade(settings)
    load_fleet(settings, read_assetopsbench(samples))
    return settings


@pytest.fixture
async def ctx(loaded_settings: Settings) -> AsyncIterator[ToolContext]:
    clear_result_cache()
    context = ToolContext.from_settings(loaded_settings)
    yield context
    await context.db.close()


async def _ok(ctx: ToolContext, name: str, **args: Any) -> dict[str, Any]:
    result = await call_tool(f"wo.{name}", args, context=ctx)
    assert result.status == "ok", result.output
    return result.output


# TOOL_CONTRACT.md §3.3: equipment id <-> chiller name and work orders per chiller.
WORK_ORDERS_PER_CHILLER = [
    ("Chiller 1", "CWC04701", 435), ("Chiller 2", "CWC04702", 278), ("Chiller 3", "CWC04703", 282),
    ("Chiller 4", "CWC04704", 297), ("Chiller 6", "CWC04006", 333), ("Chiller 7", "CWC04007", 442),
    ("Chiller 9", "CWC04009", 335), ("Chiller 10", "CWC04010", 465), ("Chiller 12", "CWC04012", 427),
    ("Chiller 13", "CWC04013", 431), ("Chiller 14", "CWC04014", 524),
]


@pytest.mark.parametrize(("name", "code", "count"), WORK_ORDERS_PER_CHILLER)
async def test_work_orders_per_chiller_name(ctx: ToolContext, name: str, code: str, count: int) -> None:
    output = await _ok(ctx, "get_work_orders", equipment_id=name)
    assert (output["equipment_id"], output["total"]) == (code, count)


async def test_preventive_and_corrective_totals_add_up(ctx: ToolContext) -> None:
    preventive = await _ok(ctx, "get_preventive_work_orders", equipment_id="CWC04006")
    corrective = await _ok(ctx, "get_corrective_work_orders", equipment_id="CWC04006")
    assert preventive["total"] + corrective["total"] == 333


async def test_events_of_chiller_9_from_july_2020(ctx: ToolContext) -> None:
    assert (await _ok(ctx, "get_events", equipment_id="CWC04009", start_date="2020-07-01"))["total"] == 644


async def test_all_failure_codes(ctx: ToolContext) -> None:
    assert (await _ok(ctx, "get_failure_codes"))["total"] == 143


async def test_alert_rules_of_chiller_9_and_6(ctx: ToolContext) -> None:
    nine = await _ok(ctx, "get_alert_rules", equipment_id="CWC04009")
    assert [r["rule_id"] for r in nine["rules"]] == ["RUL0017", "RUL0018", "RUL0022"]
    six = await _ok(ctx, "get_alert_rules", equipment_id="Chiller 6")
    assert {r["rule_id"]: r["alert_count"] for r in six["rules"]} == {
        "RUL0012": 62, "RUL0017": 108, "RUL0018": 8, "RUL0021": 98, "RUL0022": 76}


async def test_alert_analysis_covers_every_alert_of_the_rule(ctx: ToolContext) -> None:
    six = await _ok(ctx, "analyze_alert_to_failure", equipment_id="CWC04006", rule_id="RUL0012")
    nine = await _ok(ctx, "analyze_alert_to_failure", equipment_id="CWC04009", rule_id="RUL0018")
    assert (six["total_alerts_analyzed"], nine["total_alerts_analyzed"]) == (62, 183)
    for output in (six, nine):
        assert sum(t["probability"] for t in output["transitions"]) == pytest.approx(1.0, abs=1e-3)


async def test_prediction_for_chiller_9_is_the_textbook_estimate(ctx: ToolContext) -> None:
    # §8.7: last type MT013; the textbook version gives MT012 first, then MT013 0.184 and MT010 0.132.
    output = await _ok(ctx, "predict_next_work_order", equipment_id="CWC04009")
    assert output["last_work_order_type"] == "MT013"
    probabilities = {p["primary_code"]: p["probability"] for p in output["predictions"]}
    assert output["predictions"][0]["primary_code"] == "MT012"
    assert probabilities["MT013"] == pytest.approx(0.184, abs=1e-3)
    assert probabilities["MT010"] == pytest.approx(0.132, abs=1e-3)


async def test_imported_fmea_serves_the_contract_failure_mode_lists(ctx: ToolContext) -> None:
    # §3.5: the curated chiller and AHU lists, in their served order (fmsr reads the imported fmea table).
    chiller = await call_tool("fmsr.get_failure_modes", {"asset_name": "Chiller 9"}, context=ctx)
    ahu = await call_tool("fmsr.get_failure_modes", {"asset_name": "AHU"}, context=ctx)
    assert chiller.output["failure_modes"][0] == "Compressor Overheating: Failed due to Normal wear, overheating"
    assert chiller.output["failure_modes"][3] == "Condenser Water side fouling"
    assert len(chiller.output["failure_modes"]) == 7
    assert ahu.output["failure_modes"] == [
        "Pressure Regulators Diaphragm failure", "Steam Heating Coils Air side fouling", "Belts or sheaves Wear",
        "Improper switch position", "Solenoid Valves Bound due to hardened grease"]
