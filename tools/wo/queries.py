"""Database reads of the work-order server (async SQLAlchemy through `Database`, so the profiler sees them).

Every function returns plain values (dicts, tuples, dataclasses) in storage order (`row_order`)
unless it says otherwise; filtering by equipment and date happens in SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, CompoundSelect, Select, func, select, union
from sqlalchemy.orm import InstrumentedAttribute

from assetops.db.engine import Database
from assetops.db.tables.fleet import (
    AlertEventRow,
    AlertRuleRow,
    AssetRow,
    EventRow,
    FailureCodeRow,
    PrimaryFailureCodeRow,
    WorkOrderRow,
)
from tools.wo.alerts import TimedWorkOrder
from tools.wo.logic import DateWindow

_WORK_ORDER_COLUMNS = [c for c in WorkOrderRow.__table__.c if c.name not in {"row_order", "fault_episode_id"}]
_EVENT_COLUMNS = [c for c in EventRow.__table__.c if c.name != "row_order"]
_FAILURE_CODE_COLUMNS = [c for c in FailureCodeRow.__table__.c if c.name != "row_order"]


async def _mappings(db: Database, statement: Select[Any]) -> list[dict[str, Any]]:
    async with db.session() as session:
        result = await session.execute(statement)
        return [dict(row) for row in result.mappings().all()]


def _window_conditions(column: InstrumentedAttribute[Any], window: DateWindow) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if window.start is not None:
        conditions.append(column >= window.start)
    if window.end is not None:
        conditions.append(column <= window.end)
    return conditions


async def equipment_pairs(db: Database) -> list[tuple[str | None, str | None]]:
    """Every (equipment_id, name) pair the data knows: assets plus work orders, events and alerts."""
    statement: CompoundSelect[str, str | None] = union(
        select(AssetRow.equipment_id, AssetRow.asset_id),
        select(WorkOrderRow.equipment_id, WorkOrderRow.equipment_name),
        select(EventRow.equipment_id, EventRow.equipment_name),
        select(AlertEventRow.equipment_id, AlertEventRow.equipment_name),
    )
    async with db.session() as session:
        result = await session.execute(statement)
        return [(row[0], row[1]) for row in result.all()]


async def has_rows(db: Database, table: type[Any]) -> bool:
    """True when `table` (an ORM class) holds at least one row."""
    async with db.session() as session:
        first = await session.execute(select(1).select_from(table).limit(1))
        return first.first() is not None


async def work_orders(
    db: Database,
    equipment_id: str,
    window: DateWindow,
    *,
    preventive: bool | None = None,
) -> list[dict[str, Any]]:
    """The equipment's work orders finished inside `window` (optionally only (non-)preventive ones)."""
    statement = select(*_WORK_ORDER_COLUMNS).where(
        WorkOrderRow.equipment_id == equipment_id, *_window_conditions(WorkOrderRow.actual_finish, window)
    )
    if preventive is not None:
        statement = statement.where(WorkOrderRow.preventive.is_(preventive))
    return await _mappings(db, statement.order_by(WorkOrderRow.row_order))


async def events(db: Database, equipment_id: str, window: DateWindow) -> list[dict[str, Any]]:
    """The equipment's events (work orders, alerts, anomalies) inside `window`."""
    statement = select(*_EVENT_COLUMNS).where(
        EventRow.equipment_id == equipment_id, *_window_conditions(EventRow.event_time, window)
    )
    return await _mappings(db, statement.order_by(EventRow.row_order))


async def failure_codes(db: Database) -> list[dict[str, Any]]:
    """Every (primary, secondary) failure code row."""
    return await _mappings(db, select(*_FAILURE_CODE_COLUMNS).order_by(FailureCodeRow.row_order))


async def primary_failure_codes(db: Database) -> list[dict[str, Any]]:
    """Every primary failure code with category and description."""
    return await _mappings(db, select(*PrimaryFailureCodeRow.__table__.c).order_by(PrimaryFailureCodeRow.primary_code))


async def alert_counts_by_rule(db: Database, equipment_id: str) -> dict[str, int]:
    """How often each rule fired on the equipment."""
    statement = (
        select(AlertEventRow.rule_id, func.count())
        .where(AlertEventRow.equipment_id == equipment_id)
        .group_by(AlertEventRow.rule_id)
    )
    async with db.session() as session:
        result = await session.execute(statement)
        return {row[0]: int(row[1]) for row in result.all()}


async def alert_rule_names(db: Database) -> dict[str, str]:
    """rule_id -> rule_name of every alert rule."""
    async with db.session() as session:
        result = await session.execute(select(AlertRuleRow.rule_id, AlertRuleRow.rule_name))
        return {row[0]: row[1] for row in result.all()}


async def alert_starts(db: Database, equipment_id: str, rule_id: str, window: DateWindow) -> list[datetime]:
    """Start times of the rule's alerts on the equipment inside `window` (rule id case-insensitive)."""
    statement = (
        select(AlertEventRow.start_time)
        .where(
            AlertEventRow.equipment_id == equipment_id,
            func.upper(AlertEventRow.rule_id) == rule_id.strip().upper(),
            *_window_conditions(AlertEventRow.start_time, window),
        )
        .order_by(AlertEventRow.start_time, AlertEventRow.row_order)
    )
    async with db.session() as session:
        result = await session.execute(statement)
        return [row[0] for row in result.all()]


async def timed_work_orders(db: Database, equipment_id: str, since: datetime | None) -> Sequence[TimedWorkOrder]:
    """The equipment's dated work orders finishing at or after `since`, in finish order."""
    statement = select(WorkOrderRow.actual_finish, WorkOrderRow.wo_id, WorkOrderRow.preventive).where(
        WorkOrderRow.equipment_id == equipment_id, WorkOrderRow.actual_finish.is_not(None)
    )
    if since is not None:
        statement = statement.where(WorkOrderRow.actual_finish >= since)
    statement = statement.order_by(WorkOrderRow.actual_finish, WorkOrderRow.row_order)
    async with db.session() as session:
        result = await session.execute(statement)
        # The query excludes undated orders; the check only narrows the type.
        return [TimedWorkOrder(row[0], row[1], bool(row[2])) for row in result.all() if row[0] is not None]
