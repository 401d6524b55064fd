"""Maintenance handlers end to end over a real SQLite store, with the tool layer scripted."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from artifacts.model import Artifact
from artifacts.store import ArtifactStore
from assetops.cache import build_cache
from assetops.db import migrate
from assetops.db.engine import Database
from assetops.db.tables import WorkOrderDraftRow
from assetops.domain.events import TurnEvent
from assetops.domain.turn import SpecialistTask, TimeWindow
from specialists.base import SpecialistContext, ToolOutcome, ToolRunner
from specialists.maintenance import MaintenanceSpecialist
from tests.conftest import make_settings
from tests.support.catalog import default_catalog

ORDERS = [
    {"wo_id": "WO1", "actual_finish": "2019-03-01T10:00:00", "preventive": False, "primary_code": "M013",
     "primary_code_description": "Condenser Plugged", "equipment_id": "CWC04006", "actual_labor_hours": "4:00"},
    {"wo_id": "WO2", "actual_finish": "2019-03-08T10:00:00", "preventive": False, "primary_code": "MT002",
     "primary_code_description": "Cleaning", "equipment_id": "CWC04006", "actual_labor_hours": "6:00"},
    {"wo_id": "WO3", "actual_finish": "2020-05-01T10:00:00", "preventive": False, "primary_code": "L001",
     "primary_code_description": "Refrigerant Leak", "equipment_id": "CWC04006", "actual_labor_hours": "2:00"},
]


class ScriptedTools:
    """Answers tool calls from a table; records every batch so parallelism can be checked."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    async def __call__(self, calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
        self.batches.append([name for name, _ in calls])
        return [self.answer(name, args) for name, args in calls]

    @staticmethod
    def answer(name: str, args: dict[str, Any]) -> ToolOutcome:
        eid = args.get("equipment_id")
        outputs: dict[str, Any] = {
            "wo.get_corrective_work_orders": {"equipment_id": eid, "total": 3, "work_orders": ORDERS},
            "wo.get_work_orders": {"equipment_id": eid, "total": 3, "work_orders": ORDERS},
            "wo.get_work_order_distribution": {"equipment_id": eid, "distribution": [
                {"primary_code": "M013", "secondary_code": "M013a", "count": 1}]},
            "wo.get_alert_rules": {"equipment_id": eid, "total": 2, "rules": [
                {"rule_id": "RUL0017", "rule_name": "Chiller - Load Low"},
                {"rule_id": "RUL0018", "rule_name": "Chiller - Evaporator Approach High"}]},
            "wo.get_events": {"equipment_id": eid, "events": [
                {"event_group": "ALERT", "event_type": rule, "event_time": f"2021-06-0{day}T10:00:00"}
                for rule, day in (("RUL0018", 1), ("RUL0018", 2), ("RUL0017", 3))]},
            "wo.analyze_alert_to_failure": {"equipment_id": eid, "rule_id": args.get("rule_id"),
                                            "total_alerts_analyzed": 40, "transitions": [
                                                {"transition": "WORK_ORDER", "probability": 0.4,
                                                 "average_hours_to_maintenance": 20.0}]
                                            if args.get("rule_id") == "RUL0018" else [
                                                {"transition": "No Maintenance", "probability": 1.0}]},
        }
        if name not in outputs:
            return ToolOutcome(name, args, "error", error=f"unscripted {name}")
        return ToolOutcome(name, args, "ok", outputs[name], latency_ms=1.0)


@pytest.fixture
async def ctx_and_tools(tmp_path: Path) -> Any:
    settings = make_settings(tmp_path)
    migrate.upgrade(settings)
    db = Database(settings)
    store = ArtifactStore(db, build_cache(""))
    tools = ScriptedTools()
    events: list[TurnEvent] = []

    async def emit(event: TurnEvent) -> None:
        events.append(event)

    ctx = SpecialistContext(session_id="s1", turn_index=1, reference_date=date(2021, 7, 1), store=store,
                            tools=ToolRunner("s1", 1, emit, executor=tools), emit=emit,
                            catalog=default_catalog())
    yield ctx, tools, events
    await db.close()


def task(action: str, **kw: Any) -> SpecialistTask:
    return SpecialistTask(specialist="maintenance", action=action, equipment_ids=["CWC04006"], **kw)


async def test_summary_fetches_listing_and_distribution_in_one_batch(ctx_and_tools: Any) -> None:
    ctx, tools, _ = ctx_and_tools
    window = TimeWindow(datetime(2018, 1, 1, tzinfo=UTC), datetime(2021, 7, 1, tzinfo=UTC), "since 2018")
    result = await MaintenanceSpecialist().run(task("wo_summary", window=window, params={"kind": "corrective"}), ctx)
    assert result.status == "ok" and "3 corrective work orders on CWC04006" in result.summary
    assert tools.batches == [["wo.get_corrective_work_orders", "wo.get_work_order_distribution"]]
    art = await ctx.store.get(result.artifact_ids[0])
    assert art is not None and art.results["corrective"] == 3 and art.asset_ids == ["Chiller 6"]


async def test_identical_calls_are_reused_not_repeated(ctx_and_tools: Any) -> None:
    ctx, tools, events = ctx_and_tools
    await MaintenanceSpecialist().run(task("bundle"), ctx)
    await MaintenanceSpecialist().run(task("bundle"), ctx)
    assert tools.batches == [["wo.get_corrective_work_orders"]]
    finished = [e for e in events if e.type == "tool_call_finished"]
    assert [e.data["reused"] for e in finished] == [False, True]


async def test_alert_to_failure_runs_every_rule_in_one_parallel_batch(ctx_and_tools: Any) -> None:
    ctx, tools, _ = ctx_and_tools
    result = await MaintenanceSpecialist().run(task("alert_to_failure"), ctx)
    assert tools.batches[-1] == ["wo.analyze_alert_to_failure", "wo.analyze_alert_to_failure"]
    art = await ctx.store.get(result.artifact_ids[0])
    verdicts = {v["rule_id"]: v["verdict"] for v in art.results["verdicts"]}
    assert verdicts == {"RUL0017": "likely spurious", "RUL0018": "meaningful"}


async def test_draft_uses_the_diagnosis_and_is_persisted(ctx_and_tools: Any) -> None:
    ctx, _, _ = ctx_and_tools
    ctx.visible_artifacts = [Artifact(id="artifact_fr_1", session_id="s1", producer="failure", kind="hypotheses",
                                      asset_ids=["Chiller 6"], results={"hypotheses": [
                                          {"failure_mode": "Condenser Water side fouling", "probability": 0.72}]})]
    result = await MaintenanceSpecialist().run(task("draft_wo"), ctx)
    assert result.status == "ok"
    art = await ctx.store.get(result.artifact_ids[0])
    draft_id = art.results["draft_id"]
    async with ctx.store.db.session() as session:
        row = (await session.execute(select(WorkOrderDraftRow).where(WorkOrderDraftRow.id == draft_id))).scalar_one()
    assert row.primary_code == "M013" and row.priority == 1 and row.equipment_id == "CWC04006"


async def test_a_commanded_draft_without_a_diagnosis_is_an_inspection_with_no_failure_code(ctx_and_tools: Any) -> None:
    """The user commanded the order: no diagnosis makes it an inspection of the requested work, not a failure."""
    ctx, tools, _ = ctx_and_tools
    result = await MaintenanceSpecialist().run(task("draft_wo", params={"work": "full condenser inspection"}), ctx)
    assert result.status == "ok" and not result.errors
    assert "full condenser inspection" in result.summary and "no diagnosis backs it" in result.summary
    assert tools.batches == [["wo.get_work_orders"]]  # the duplicate check still runs
    art = await ctx.store.get(result.artifact_ids[0])
    assert art is not None and art.results["diagnosed"] is False and art.results["primary_code"] is None
    async with ctx.store.db.session() as session:
        row = (await session.execute(select(WorkOrderDraftRow).where(
            WorkOrderDraftRow.id == art.results["draft_id"]))).scalar_one()
    assert row.primary_code is None and "full condenser inspection" in row.scope


async def test_a_draft_with_no_work_described_is_a_general_inspection(ctx_and_tools: Any) -> None:
    ctx, _, _ = ctx_and_tools
    result = await MaintenanceSpecialist().run(task("draft_wo"), ctx)
    assert result.status == "ok" and "general inspection" in result.summary and "set one on review" in result.summary


async def test_report_uses_artifacts_only(ctx_and_tools: Any) -> None:
    ctx, tools, _ = ctx_and_tools
    ctx.visible_artifacts = [Artifact(id="artifact_dc_1", session_id="s1", producer="data", kind="telemetry_window",
                                      asset_ids=["Chiller 6"], summary="Chiller 6 reviewed")]
    result = await MaintenanceSpecialist().run(task("report", asset_ids=["Chiller 6"]), ctx)
    assert tools.batches == [] and "artifact_dc_1" in result.summary


def test_tool_windows_never_reach_past_the_reference_date() -> None:
    from specialists.maintenance.specialist import date_args

    late = TimeWindow(datetime(2021, 4, 1, tzinfo=UTC), datetime(2022, 1, 1, tzinfo=UTC), "")
    assert date_args(task("wo_summary", window=late), date(2021, 7, 1)) == {"start_date": "2021-04-01",
                                                                           "end_date": "2021-07-01"}
    assert date_args(task("wo_summary"), date(2021, 7, 1)) == {"end_date": "2021-07-01"}


async def test_none_in_the_period_is_an_answer_with_the_last_order_before_it(ctx_and_tools: Any) -> None:
    """An empty listing is answered ("none since ..."), and its failed call is followed by a successful one."""
    ctx, tools, _ = ctx_and_tools
    scripted = tools.answer

    def empty_in_window(name: str, args: dict[str, Any]) -> ToolOutcome:
        if "start_date" in args:  # the window asked about holds nothing
            return ToolOutcome(name, args, "error", error=f"No corrective work orders found for equipment_id "
                                                          f"'{args['equipment_id']}' between {args['start_date']} "
                                                          f"and {args['end_date']}")
        return scripted(name, args)

    tools.answer = empty_in_window
    window = TimeWindow(datetime(2020, 6, 1, tzinfo=UTC), datetime(2021, 7, 1, tzinfo=UTC), "since June 2020")
    result = await MaintenanceSpecialist().run(task("wo_summary", window=window, params={"kind": "corrective"}), ctx)
    assert result.status == "ok" and "No corrective work orders on CWC04006" in result.summary
    art = await ctx.store.get(result.artifact_ids[0])
    assert art is not None and art.results["total"] == 0 and art.results["last_before"]["wo_id"] == "WO3"
    assert any("The last one before the period was WO3 on 2020-05-01" in line for line in art.observations)
    assert tools.batches[-1] == ["wo.get_corrective_work_orders"]


async def test_an_unfiltered_count_states_its_preventive_and_corrective_split(ctx_and_tools: Any) -> None:
    ctx, _, _ = ctx_and_tools
    window = TimeWindow(datetime(2018, 1, 1, tzinfo=UTC), datetime(2021, 7, 1, tzinfo=UTC), "since 2018")
    result = await MaintenanceSpecialist().run(task("wo_summary", window=window, params={"kind": "all"}), ctx)
    preventive = sum(1 for order in ORDERS if order.get("preventive"))
    assert f"3 work orders ({preventive} preventive, {3 - preventive} corrective) on CWC04006" in result.summary


async def test_an_alert_listing_leads_with_the_total_over_the_period(ctx_and_tools: Any) -> None:
    ctx, _, _ = ctx_and_tools
    window = TimeWindow(datetime(2021, 6, 1, tzinfo=UTC), datetime(2021, 7, 1, tzinfo=UTC), "June 2021")
    result = await MaintenanceSpecialist().run(task("alert_rules", window=window), ctx)
    assert result.summary.startswith("3 alerts from 2 rule(s) on Chiller 6, CWC04006 (June 2021): RUL0018")


def test_the_report_names_its_next_step_from_the_diagnosis_and_keeps_watching_without_one() -> None:
    from specialists.maintenance.report import management_report

    found = Artifact(id="artifact_fr_1", session_id="s1", producer="failure", kind="diagnose", asset_ids=["Chiller 4"],
                     results={"hypotheses": [{"failure_mode": "Condenser Water side fouling",
                                              "confirm_by": "the condenser approach at equal load"}]})
    text, _ = management_report([found], ["Chiller 4"], "June 2021")
    assert ("**Recommended next steps**: confirm Condenser Water side fouling on Chiller 4 (the condenser approach "
            "at equal load)") in text
    healthy = found.model_copy(update={"results": {"hypotheses": [{"failure_mode": "No fault: normal operation"}]}})
    assert "keep monitoring" in management_report([healthy], ["Chiller 4"], "June 2021")[0]


def test_the_history_keeps_the_latest_order_of_each_job_newest_first() -> None:
    from specialists.maintenance.history import summarise_work_orders

    jobs = summarise_work_orders(ORDERS).latest_per_job
    assert [(j["wo_id"], j["description"]) for j in jobs] == [("WO3", "Refrigerant Leak"), ("WO2", "Cleaning"),
                                                             ("WO1", "Condenser Plugged")]


async def test_a_period_without_alerts_says_so_in_a_whole_sentence(ctx_and_tools: Any) -> None:
    ctx, tools, _ = ctx_and_tools
    tools.answer = lambda name, args: ToolOutcome(name, args, "ok", {"equipment_id": "CWC04006", "events": []}) \
        if name == "wo.get_events" else ScriptedTools.answer(name, args)
    window = TimeWindow(datetime(2021, 6, 1, tzinfo=UTC), datetime(2021, 7, 1, tzinfo=UTC), "June 2021")
    result = await MaintenanceSpecialist().run(task("alert_rules", window=window), ctx)
    assert result.summary.startswith("No alerts on Chiller 6, CWC04006 (June 2021) from any of its rules (RUL0017, RUL0018)")
