"""The nine wo tools through the framework's call path, on a small hand-made fleet in SQLite."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import Engine

from assetops.db.tables.fleet import (
    AlertEventRow,
    AlertRuleRow,
    AssetRow,
    EventRow,
    FailureCodeRow,
    PrimaryFailureCodeRow,
    WorkOrderRow,
)
from tools.framework import ToolContext, call_tool

from .conftest import insert_rows


def _wo(wo_id: str, code: str, secondary: str, finish: datetime | None, *, preventive: bool,
        equipment: str = "CWC04009", name: str = "Chiller 9") -> dict[str, Any]:
    return {
        "wo_id": wo_id, "wo_description": f"{code} work", "collection": "entire chiller system",
        "primary_code": code, "primary_code_description": f"{code} from data", "secondary_code": secondary,
        "secondary_code_description": f"{secondary} from data", "equipment_id": equipment, "equipment_name": name,
        "preventive": preventive, "work_priority": 5 if preventive else 1, "actual_finish": finish,
        "duration": "3:00", "actual_labor_hours": "1:00",
    }


# Storage order differs from time order on purpose (the contract returns storage order).
WORK_ORDERS = [
    _wo("WO1", "MT001", "MT001a", datetime(2020, 1, 10, 10), preventive=True),
    _wo("WO2", "M013", "M013b", datetime(2020, 6, 5, 12), preventive=False),
    _wo("WO3", "MT010", "MT010b", datetime(2020, 3, 1, 9), preventive=True),
    _wo("WO4", "MT001", "MT001a", datetime(2020, 7, 1, 0), preventive=True),
    _wo("WO5", "MT001", "MT001a", datetime(2020, 7, 1, 15), preventive=True),
    _wo("WO6", "MT010", "MT010b", datetime(2020, 2, 1), preventive=True, equipment="CWC04006", name="Chiller 6"),
    _wo("WO7", "X999", "X999a", datetime(2019, 5, 1), preventive=False),
]
FAILURE_CODES = [
    {"category": "Maintenance and Routine Checks", "primary_code": "MT001", "primary_code_description":
     "Routine Maintenance", "secondary_code": "MT001a", "secondary_code_description": "Scheduled Maintenance"},
    {"category": "Maintenance and Routine Checks", "primary_code": "MT010", "primary_code_description":
     "Oil Analysis", "secondary_code": "MT010b", "secondary_code_description": "Routine Oil Analysis"},
    {"category": "Structural and Mechanical Failures", "primary_code": "M013", "primary_code_description":
     "Condenser Plugged", "secondary_code": "M013b", "secondary_code_description": "Condenser Plugged (Complete)"},
]
PRIMARY_CODES = [
    {"primary_code": code["primary_code"], "category": code["category"],
     "primary_code_description": code["primary_code_description"]} for code in FAILURE_CODES
]
ALERTS = [
    {"equipment_id": "CWC04009", "equipment_name": "Chiller 9", "rule_id": "RUL0018",
     "start_time": datetime(2020, 6, 1, 8), "end_time": datetime(2020, 6, 1, 9)},
    {"equipment_id": "CWC04009", "equipment_name": "Chiller 9", "rule_id": "RUL0017",
     "start_time": datetime(2020, 2, 1), "end_time": None},
    {"equipment_id": "CWC04009", "equipment_name": "Chiller 9", "rule_id": "RUL0018",
     "start_time": datetime(2020, 6, 20), "end_time": None},
    {"equipment_id": "CWC04009", "equipment_name": "Chiller 9", "rule_id": "RUL0018",
     "start_time": datetime(2020, 6, 4, 8), "end_time": None},
]
RULES = [
    {"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "rule_logic": None},
    {"rule_id": "RUL0018", "rule_name": "Chiller - Evaporator Approach High", "rule_logic": None},
]
EVENTS = [
    {"event_id": "WO1", "event_group": "WORK_ORDER", "event_category": "PM", "event_type": "MT001",
     "description": "Routine Maintenance", "equipment_id": "CWC04009", "equipment_name": "Chiller 9",
     "event_time": datetime(2020, 1, 10, 10), "note": None},
    {"event_id": "al_1", "event_group": "ALERT", "event_category": "ALERT", "event_type": "RUL0018",
     "description": "Chiller - Evaporator Approach High", "equipment_id": "CWC04009",
     "equipment_name": "Chiller 9", "event_time": datetime(2020, 7, 1, 8), "note": None},
    {"event_id": "an_1", "event_group": "ANOMALY", "event_category": "ANOMALY", "event_type": None,
     "description": None, "equipment_id": "CWC04009", "equipment_name": "Chiller 9",
     "event_time": datetime(2020, 6, 30, 23), "note": None},
]


@pytest.fixture
def fleet(db_engine: Engine) -> None:
    """The hand-made fleet: Chillers 9 and 6 (Chiller 6 has one work order and no alerts)."""
    insert_rows(db_engine, AssetRow, [
        {"asset_id": "Chiller 9", "site": "MAIN", "equipment_id": "CWC04009", "asset_class": "chiller",
         "has_telemetry": True},
        {"asset_id": "Chiller 6", "site": "MAIN", "equipment_id": "CWC04006", "asset_class": "chiller",
         "has_telemetry": True},
    ])
    insert_rows(db_engine, WorkOrderRow, WORK_ORDERS)
    insert_rows(db_engine, FailureCodeRow, FAILURE_CODES)
    insert_rows(db_engine, PrimaryFailureCodeRow, PRIMARY_CODES)
    insert_rows(db_engine, AlertEventRow, ALERTS)
    insert_rows(db_engine, AlertRuleRow, RULES)
    insert_rows(db_engine, EventRow, EVENTS)


async def _ok(ctx: ToolContext, name: str, **args: Any) -> dict[str, Any]:
    result = await call_tool(f"wo.{name}", args, context=ctx)
    assert result.status == "ok", result.output
    return result.output


async def _error(ctx: ToolContext, name: str, **args: Any) -> str:
    result = await call_tool(f"wo.{name}", args, context=ctx)
    assert result.status == "error", result.output
    assert set(result.output) == {"error"}
    return result.output["error"]


async def test_work_orders_by_chiller_name_echo_the_code_in_storage_order(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_work_orders", equipment_id="chiller 9")
    assert output["equipment_id"] == "CWC04009"
    assert output["start_date"] is None and output["end_date"] is None
    assert [wo["wo_id"] for wo in output["work_orders"]] == ["WO1", "WO2", "WO3", "WO4", "WO5", "WO7"]
    assert output["total"] == 6
    assert output["message"] == "Found 6 work orders for 'CWC04009'."
    first = output["work_orders"][0]
    assert first["actual_finish"] == "2020-01-10T10:00:00"
    assert first["preventive"] is True and first["work_priority"] == 5


async def test_end_date_means_midnight_and_bounds_are_inclusive(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_work_orders", equipment_id="CWC04009",
                       start_date="2020-03-01T09:00:00", end_date="2020-07-01")
    assert [wo["wo_id"] for wo in output["work_orders"]] == ["WO2", "WO3", "WO4"]
    assert output["start_date"] == "2020-03-01T09:00:00" and output["end_date"] == "2020-07-01"


async def test_offset_dates_are_read_as_site_wall_clock(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_work_orders", equipment_id="CWC04009",
                       start_date="2020-07-01T00:00:00-04:00", end_date="2020-07-02T00:00:00-04:00")
    assert [wo["wo_id"] for wo in output["work_orders"]] == ["WO4", "WO5"]


async def test_preventive_and_corrective_split_the_orders(tool_ctx: ToolContext, fleet: None) -> None:
    preventive = await _ok(tool_ctx, "get_preventive_work_orders", equipment_id="CWC04009")
    corrective = await _ok(tool_ctx, "get_corrective_work_orders", equipment_id="CWC04009")
    assert [wo["wo_id"] for wo in preventive["work_orders"]] == ["WO1", "WO3", "WO4", "WO5"]
    assert [wo["wo_id"] for wo in corrective["work_orders"]] == ["WO2", "WO7"]
    assert corrective["message"] == "Found 2 corrective work orders for 'CWC04009'."
    assert all(wo["preventive"] for wo in preventive["work_orders"])


async def test_no_orders_in_range_names_code_and_range(tool_ctx: ToolContext, fleet: None) -> None:
    message = await _error(tool_ctx, "get_corrective_work_orders", equipment_id="Chiller 6")
    assert message == "No corrective work orders found for equipment_id 'CWC04006'"
    message = await _error(tool_ctx, "get_work_orders", equipment_id="CWC04009", start_date="2024-01-01")
    assert message.startswith("No work orders found for equipment_id 'CWC04009' from 2024-01-01")


async def test_unknown_equipment_lists_the_known_equipment(tool_ctx: ToolContext, fleet: None) -> None:
    message = await _error(tool_ctx, "get_work_orders", equipment_id="Chiller 5")
    assert "Unknown equipment_id 'Chiller 5'" in message
    assert "CWC04006 (Chiller 6)" in message and "CWC04009 (Chiller 9)" in message


@pytest.mark.parametrize(("args", "fragment"), [
    ({"start_date": "01/07/2020"}, "'start_date'"),
    ({"end_date": "2020-13-01"}, "'end_date'"),
    ({"start_date": "2020-07-01", "end_date": "2020-06-01"}, "must be after 'start_date'"),
])
async def test_bad_dates_name_the_argument(tool_ctx: ToolContext, fleet: None, args: dict[str, str], fragment: str) -> None:
    assert fragment in await _error(tool_ctx, "get_events", equipment_id="CWC04009", **args)


async def test_validation_errors_name_the_argument(tool_ctx: ToolContext, fleet: None) -> None:
    assert "equipment_id" in await _error(tool_ctx, "get_work_orders")
    assert "'site'" in await _error(tool_ctx, "get_work_orders", equipment_id="CWC04009", site="MAIN")
    assert "rule_id" in await _error(tool_ctx, "analyze_alert_to_failure", equipment_id="CWC04009", rule_id=" ")


async def test_events_come_in_storage_order_with_iso_times(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_events", equipment_id="CWC04009", end_date="2020-07-01")
    assert [e["event_id"] for e in output["events"]] == ["WO1", "an_1"]
    assert output["events"][1]["event_time"] == "2020-06-30T23:00:00"
    assert output["message"] == "Found 2 events for 'CWC04009'."
    assert await _error(tool_ctx, "get_events", equipment_id="CWC04006") == "No events found for equipment_id 'CWC04006'"


async def test_failure_codes_are_listed_in_storage_order(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_failure_codes")
    assert output["total"] == 3
    assert [c["secondary_code"] for c in output["failure_codes"]] == ["MT001a", "MT010b", "M013b"]
    assert set(output["failure_codes"][0]) == {"category", "primary_code", "primary_code_description",
                                               "secondary_code", "secondary_code_description"}


async def test_distribution_counts_codes_with_unmatched_pairs_kept(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_work_order_distribution", equipment_id="Chiller 9")
    assert output["total_work_orders"] == 6
    assert [(d["primary_code"], d["count"]) for d in output["distribution"]] == [
        ("MT001", 3), ("M013", 1), ("MT010", 1), ("X999", 1)]
    unmatched = output["distribution"][-1]
    assert unmatched["category"] == "" and unmatched["primary_code_description"] == "X999 from data"
    assert output["distribution"][1]["category"] == "Structural and Mechanical Failures"
    assert output["message"] == "Distribution across 4 failure code(s) for 'CWC04009'."


async def test_prediction_is_conditioned_on_the_last_work_order_type(tool_ctx: ToolContext, fleet: None) -> None:
    # Finish order: X999, MT001, MT010, M013, MT001, MT001. From MT001: MT010 once, MT001 once.
    output = await _ok(tool_ctx, "predict_next_work_order", equipment_id="CWC04009")
    assert output["last_work_order_type"] == "MT001"
    assert [(p["primary_code"], p["probability"]) for p in output["predictions"]] == [("MT001", 0.5), ("MT010", 0.5)]
    assert output["predictions"][1]["primary_code_description"] == "Oil Analysis"
    assert output["message"] == "Predicted next work order for 'CWC04009' based on last type 'MT001'."
    bounded = await _ok(tool_ctx, "predict_next_work_order", equipment_id="CWC04009", end_date="2020-07-01")
    assert [(p["primary_code"], p["probability"]) for p in bounded["predictions"]] == [("MT010", 1.0)]


async def test_prediction_without_transitions_from_the_last_type_is_an_error(tool_ctx: ToolContext, fleet: None) -> None:
    message = await _error(tool_ctx, "predict_next_work_order", equipment_id="CWC04009",
                           start_date="2020-06-01", end_date="2020-07-01")
    assert message.startswith("No transition data for last work order type 'MT001'")
    message = await _error(tool_ctx, "predict_next_work_order", equipment_id="CWC04009", start_date="2030-01-01")
    assert message.startswith("No historical work orders found for equipment_id 'CWC04009'")


async def test_alert_rules_are_listed_ascending_with_names(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_alert_rules", equipment_id="Chiller 9")
    assert [(r["rule_id"], r["rule_name"], r["alert_count"]) for r in output["rules"]] == [
        ("RUL0017", "Chiller - Load Low", 1), ("RUL0018", "Chiller - Evaporator Approach High", 3)]
    assert output["message"] == ("Found 2 alert rule(s) for 'CWC04009': RUL0017 (Chiller - Load Low), "
                                 "RUL0018 (Chiller - Evaporator Approach High).")
    assert await _error(tool_ctx, "get_alert_rules", equipment_id="CWC04006") == (
        "No alert rules found for equipment_id 'CWC04006'")


async def test_alert_analysis_reports_follow_up_probability_and_hours(tool_ctx: ToolContext, fleet: None) -> None:
    # RUL0018 alerts on 06-01 08:00 and 06-04 08:00 are followed by WO2 (06-05 12:00) after 100 h and
    # 28 h; the 06-20 alert sees its next work order 11 days later, outside the 7-day window.
    output = await _ok(tool_ctx, "analyze_alert_to_failure", equipment_id="CWC04009", rule_id="rul0018")
    assert output["rule_id"] == "RUL0018"
    assert output["total_alerts_analyzed"] == 3
    work_order, no_maintenance = output["transitions"]
    assert work_order["transition"] == "WORK_ORDER"
    assert work_order["probability"] == 0.6667
    assert work_order["average_hours_to_maintenance"] == 64.0
    assert no_maintenance["transition"] == "No Maintenance" and no_maintenance["probability"] == 0.3333
    assert output["message"] == "Analyzed 3 alert occurrences for rule 'RUL0018' on 'CWC04009'."


async def test_alert_analysis_honours_the_date_range(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "analyze_alert_to_failure", equipment_id="CWC04009", rule_id="RUL0018",
                       start_date="2020-06-02", end_date="2020-07-01")
    assert output["total_alerts_analyzed"] == 2
    assert [(t["transition"], t["probability"]) for t in output["transitions"]] == [
        ("No Maintenance", 0.5), ("WORK_ORDER", 0.5)]
    assert output["transitions"][1]["average_hours_to_maintenance"] == 28.0
    assert output["start_date"] == "2020-06-02"


async def test_alert_analysis_of_an_unknown_rule_lists_the_available_ones(tool_ctx: ToolContext, fleet: None) -> None:
    message = await _error(tool_ctx, "analyze_alert_to_failure", equipment_id="CWC04009", rule_id="RUL0099")
    assert message == ("No alert events found for equipment 'CWC04009' and rule 'RUL0099'. Available rules for "
                       "this equipment: [RUL0017 (Chiller - Load Low), RUL0018 (Chiller - Evaporator Approach High)].")
    message = await _error(tool_ctx, "analyze_alert_to_failure", equipment_id="CWC04006", rule_id="RUL0018")
    assert "no alerts at all" in message


async def test_empty_tables_say_the_data_is_not_available(tool_ctx: ToolContext, db_engine: Engine) -> None:
    insert_rows(db_engine, AssetRow, [{"asset_id": "Chiller 9", "site": "MAIN", "equipment_id": "CWC04009",
                                       "asset_class": "chiller", "has_telemetry": True}])
    assert await _error(tool_ctx, "get_work_orders", equipment_id="Chiller 9") == "Work order data not available"
    assert await _error(tool_ctx, "get_events", equipment_id="Chiller 9") == "Event data not available"
    assert await _error(tool_ctx, "get_failure_codes") == "Failure codes data not available"
    assert await _error(tool_ctx, "get_alert_rules", equipment_id="Chiller 9") == "Alert data not available"


async def test_with_nothing_loaded_unknown_equipment_says_so(tool_ctx: ToolContext) -> None:
    assert "no equipment is loaded" in await _error(tool_ctx, "get_work_orders", equipment_id="Chiller 9")


async def test_mixed_offset_and_naive_bounds_are_ordered_on_the_site_clock(tool_ctx: ToolContext, fleet: None) -> None:
    output = await _ok(tool_ctx, "get_work_orders", equipment_id="CWC04009",
                       start_date="2020-07-01T00:00:00-04:00", end_date="2020-07-01T02:00:00")
    assert [wo["wo_id"] for wo in output["work_orders"]] == ["WO4"]
