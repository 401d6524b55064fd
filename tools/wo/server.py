"""The `wo` tool server: work orders, events, failure codes, alert rules and their analyses (§8).

Every tool accepts an equipment code (CWC04009) or a chiller name (Chiller 9) and echoes the resolved
code; unknown equipment is an error listing the known equipment. Dates are YYYY-MM-DD or ISO
datetimes; both bounds are inclusive and a date-only end means midnight at its start. `start_date`
and `end_date` are echoed exactly as passed.
"""

# No `from __future__ import annotations`: the framework reads the real annotation objects.
from typing import Annotated, Any

from pydantic import Field

from assetops.db.tables.fleet import AlertEventRow, EventRow, WorkOrderRow
from tools.framework import ToolError, note_rows, tool, tool_context
from tools.framework.cache import data_version
from tools.framework.dates import check_order, parse_date_arg
from tools.wo import queries
from tools.wo.alerts import FOLLOW_UP_WINDOW, alert_outcomes, transition_summary
from tools.wo.equipment import EquipmentDirectory
from tools.wo.logic import (
    DateWindow,
    alert_rule_items,
    describe_rules,
    event_item,
    next_type_distribution,
    prediction_item,
    work_order_distribution,
    work_order_item,
    work_order_type_sequence,
)

EquipmentArg = Annotated[
    str, Field(description="Equipment code or chiller name, e.g. 'CWC04009' or 'Chiller 9'.")
]
StartArg = Annotated[
    str | None,
    Field(description="Inclusive start, YYYY-MM-DD or ISO datetime, e.g. '2020-01-01'. Omit for no lower bound."),
]
EndArg = Annotated[
    str | None,
    Field(description="Inclusive end, YYYY-MM-DD (= midnight at its start) or ISO datetime, e.g. '2020-07-01'."),
]

WORK_ORDER_DATA_MISSING = "Work order data not available"
EVENT_DATA_MISSING = "Event data not available"


def _window(start_date: str | None, end_date: str | None) -> DateWindow:
    window = DateWindow.from_datetimes(parse_date_arg("start_date", start_date), parse_date_arg("end_date", end_date))
    # Checked on the site wall-clock values the filter uses, so mixed offset/naive bounds order consistently.
    check_order(window.start, window.end)
    return window


_directories: dict[tuple[str, str], EquipmentDirectory] = {}
_MAX_DIRECTORIES = 16


async def _equipment_directory() -> EquipmentDirectory:
    """The known equipment, remembered per database and fleet data version (it changes on every load)."""
    ctx = tool_context()
    version = await data_version(ctx)
    key = (ctx.db.url, version) if version else None
    if key is not None and key in _directories:
        return _directories[key]
    directory = EquipmentDirectory.from_pairs(await queries.equipment_pairs(ctx.db))
    if key is not None:
        if len(_directories) >= _MAX_DIRECTORIES:
            _directories.clear()
        _directories[key] = directory
    return directory


async def _resolve(equipment_id: str) -> str:
    """The equipment code `equipment_id` denotes; ToolError listing the known equipment otherwise."""
    directory = await _equipment_directory()
    code = directory.resolve(equipment_id)
    if code is None:
        raise ToolError(directory.unknown_message(equipment_id))
    return code


async def _nothing_found(table: type[Any], missing_data: str, message: str) -> ToolError:
    """`message`, unless the table is empty altogether, then the dataset-level message."""
    if not await queries.has_rows(tool_context().db, table):
        return ToolError(missing_data)
    return ToolError(message)


async def _work_order_listing(
    kind: str, preventive: bool | None, equipment_id: str, start_date: str | None, end_date: str | None
) -> dict[str, Any]:
    window = _window(start_date, end_date)
    code = await _resolve(equipment_id)
    rows = await queries.work_orders(tool_context().db, code, window, preventive=preventive)
    note_rows(len(rows))
    label = f"{kind} work orders" if kind else "work orders"
    if not rows:
        raise await _nothing_found(
            WorkOrderRow, WORK_ORDER_DATA_MISSING, f"No {label} found for equipment_id '{code}'{window.describe()}"
        )
    return {
        "equipment_id": code,
        "start_date": start_date,
        "end_date": end_date,
        "total": len(rows),
        "work_orders": [work_order_item(row) for row in rows],
        "message": f"Found {len(rows)} {label} for '{code}'.",
    }


@tool("wo")
async def get_work_orders(
    equipment_id: EquipmentArg, start_date: StartArg = None, end_date: EndArg = None
) -> dict[str, Any]:
    """All work orders of one piece of equipment, optionally within a finish-date range, in storage order."""
    return await _work_order_listing("", None, equipment_id, start_date, end_date)


@tool("wo")
async def get_preventive_work_orders(
    equipment_id: EquipmentArg, start_date: StartArg = None, end_date: EndArg = None
) -> dict[str, Any]:
    """Preventive (scheduled) work orders of one piece of equipment, optionally within a date range."""
    return await _work_order_listing("preventive", True, equipment_id, start_date, end_date)


@tool("wo")
async def get_corrective_work_orders(
    equipment_id: EquipmentArg, start_date: StartArg = None, end_date: EndArg = None
) -> dict[str, Any]:
    """Corrective (fault-driven) work orders of one piece of equipment, optionally within a date range."""
    return await _work_order_listing("corrective", False, equipment_id, start_date, end_date)


@tool("wo")
async def get_events(equipment_id: EquipmentArg, start_date: StartArg = None, end_date: EndArg = None) -> dict[str, Any]:
    """The equipment's event stream (work orders, alerts, anomalies), optionally within a date range."""
    window = _window(start_date, end_date)
    code = await _resolve(equipment_id)
    rows = await queries.events(tool_context().db, code, window)
    note_rows(len(rows))
    if not rows:
        raise await _nothing_found(
            EventRow, EVENT_DATA_MISSING, f"No events found for equipment_id '{code}'{window.describe()}"
        )
    return {
        "equipment_id": code,
        "start_date": start_date,
        "end_date": end_date,
        "total": len(rows),
        "events": [event_item(row) for row in rows],
        "message": f"Found {len(rows)} events for '{code}'.",
    }


@tool("wo")
async def get_failure_codes() -> dict[str, Any]:
    """Every failure code: category, primary code and description, secondary code and description."""
    rows = await queries.failure_codes(tool_context().db)
    note_rows(len(rows))
    if not rows:
        raise ToolError("Failure codes data not available")
    return {"total": len(rows), "failure_codes": rows}


@tool("wo")
async def get_work_order_distribution(
    equipment_id: EquipmentArg, start_date: StartArg = None, end_date: EndArg = None
) -> dict[str, Any]:
    """How the equipment's work orders spread over failure codes, most frequent first (ties by code)."""
    window = _window(start_date, end_date)
    code = await _resolve(equipment_id)
    db = tool_context().db
    rows = await queries.work_orders(db, code, window)
    if not rows:
        raise await _nothing_found(
            WorkOrderRow, WORK_ORDER_DATA_MISSING, f"No work orders found for equipment_id '{code}'{window.describe()}"
        )
    distribution = work_order_distribution(
        rows, await queries.failure_codes(db), await queries.primary_failure_codes(db)
    )
    return {
        "equipment_id": code,
        "start_date": start_date,
        "end_date": end_date,
        "total_work_orders": len(rows),
        "distribution": distribution,
        "message": f"Distribution across {len(distribution)} failure code(s) for '{code}'.",
    }


@tool("wo")
async def predict_next_work_order(
    equipment_id: EquipmentArg, start_date: StartArg = None, end_date: EndArg = None
) -> dict[str, Any]:
    """Likely type of the next work order: P(next primary code | last one) from the history's transitions."""
    window = _window(start_date, end_date)
    code = await _resolve(equipment_id)
    db = tool_context().db
    rows = await queries.work_orders(db, code, window)
    sequence = work_order_type_sequence(rows)
    if not sequence:
        raise await _nothing_found(
            WorkOrderRow,
            WORK_ORDER_DATA_MISSING,
            f"No historical work orders found for equipment_id '{code}'{window.describe()}",
        )
    last = sequence[-1]
    candidates = next_type_distribution(sequence)
    if not candidates:
        raise ToolError(
            f"No transition data for last work order type '{last}': it is never followed by another work "
            f"order in the selected history of '{code}'; widen the date range."
        )
    primaries = {row["primary_code"]: row for row in await queries.primary_failure_codes(db)}
    described = {row["primary_code"]: row.get("primary_code_description") for row in rows}
    predictions = [prediction_item(c, primaries.get(c.primary_code), described.get(c.primary_code)) for c in candidates]
    return {
        "equipment_id": code,
        "start_date": start_date,
        "end_date": end_date,
        "last_work_order_type": last,
        "predictions": predictions,
        "message": f"Predicted next work order for '{code}' based on last type '{last}'.",
    }


@tool("wo")
async def get_alert_rules(equipment_id: EquipmentArg) -> dict[str, Any]:
    """The alert rules that have fired on the equipment, ascending by rule id, with names and counts."""
    code = await _resolve(equipment_id)
    db = tool_context().db
    counts = await queries.alert_counts_by_rule(db, code)
    if not counts:
        raise await _nothing_found(
            AlertEventRow, "Alert data not available", f"No alert rules found for equipment_id '{code}'"
        )
    rules = alert_rule_items(counts, await queries.alert_rule_names(db))
    return {
        "equipment_id": code,
        "total": len(rules),
        "rules": rules,
        "message": f"Found {len(rules)} alert rule(s) for '{code}': {describe_rules(rules)}.",
    }


async def _no_alerts_error(code: str, rule_id: str, window: DateWindow) -> ToolError:
    db = tool_context().db
    counts = await queries.alert_counts_by_rule(db, code)
    if not counts:
        return ToolError(f"No alert events found for equipment '{code}': it has no alerts at all.")
    rules = alert_rule_items(counts, await queries.alert_rule_names(db))
    return ToolError(
        f"No alert events found for equipment '{code}' and rule '{rule_id}'{window.describe()}. "
        f"Available rules for this equipment: [{describe_rules(rules)}]."
    )


@tool("wo")
async def analyze_alert_to_failure(
    equipment_id: EquipmentArg,
    rule_id: Annotated[str, Field(description="Alert rule id, e.g. 'RUL0018' (see get_alert_rules).")],
    start_date: StartArg = None,
    end_date: EndArg = None,
) -> dict[str, Any]:
    """How often a work order follows the rule's alerts within 7 days, and the mean hours until it does.

    Alerts are those of the rule on the equipment starting inside the date range; for each one the
    first work order finishing at or after its start and at most 7 days later (even past end_date)
    counts as the follow-up.
    """
    window = _window(start_date, end_date)
    code = await _resolve(equipment_id)
    db = tool_context().db
    starts = await queries.alert_starts(db, code, rule_id, window)
    if not starts:
        raise await _no_alerts_error(code, rule_id, window)
    canonical_rule = next(
        (known for known in await queries.alert_counts_by_rule(db, code) if known.upper() == rule_id.strip().upper()),
        rule_id.strip(),
    )
    orders = await queries.timed_work_orders(db, code, since=starts[0])
    outcomes = alert_outcomes(starts, orders, FOLLOW_UP_WINDOW)
    return {
        "equipment_id": code,
        "rule_id": canonical_rule,
        "start_date": start_date,
        "end_date": end_date,
        "total_alerts_analyzed": len(outcomes),
        "transitions": transition_summary(outcomes),
        "follow_up_window_hours": FOLLOW_UP_WINDOW.total_seconds() / 3600.0,
        "message": f"Analyzed {len(outcomes)} alert occurrences for rule '{canonical_rule}' on '{code}'.",
    }
