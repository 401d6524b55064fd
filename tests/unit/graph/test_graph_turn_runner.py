"""The turn runner and the supervisor loop with scripted planners and small protocol specialists.

The specialists here are minimal implementations of the `Specialist` protocol whose behaviour each
test controls (succeed, crash, ask for more evidence); the tools run through the ToolRunner's
executor hook. Everything else is real: graph, checkpointer, artifact store, recorder, database.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select

from artifacts.model import Artifact, new_artifact_id
from assetops.db.tables import SessionRow, ToolCallRow, TurnRow
from assetops.domain.events import TurnEvent
from assetops.domain.turn import Decision, Focus, SpecialistTask
from assetops.settings import Settings
from graph.config import GraphConfig
from graph.deps import open_deps
from graph.runner import run_turn, session_state
from specialists.base import SpecialistContext, SpecialistResult, ToolOutcome
from specialists.registry import SpecialistRegistry

REF = date(2021, 7, 1)


async def sites_executor(calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
    return [ToolOutcome(name, args, "ok", {"sites": ["MAIN"]}, latency_ms=1.0) for name, args in calls]


class Inventory:
    """Calls one tool and writes one artifact."""

    id = "data"

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        outcome = await ctx.tools.run_one("iot.sites", {}, specialist="data")
        artifact = Artifact(id=new_artifact_id("data"), producer="data", kind="inventory",
                            observations=[f"sites: {outcome.output['sites']}"], tool_calls=[outcome.as_artifact_call()],
                            summary="Site MAIN is monitored.", **ctx.new_artifact_fields())
        await ctx.store.put(artifact)
        return SpecialistResult("data", task.action, "ok", artifact.summary, artifact_ids=[artifact.id])


class Crashing:
    id = "failure"

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        raise RuntimeError("boom in the failure specialist")


class NeedsData:
    """Fails until a data artifact is visible, naming the missing evidence as a follow-up."""

    id = "timeseries"

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult:
        if any(a.producer == "data" for a in ctx.visible_artifacts):
            return SpecialistResult("timeseries", task.action, "ok", "Trend computed on the data.")
        return SpecialistResult("timeseries", task.action, "failed", "No telemetry yet.", errors=["no telemetry"],
                                follow_ups=[SpecialistTask("data", "inventory", goal="fetch the data first")])


def fixed_planner(*tasks: SpecialistTask, kind: str = "run", message: str = "") -> Any:
    def plan(message_: str, focus: Focus, reference_date: date, artifacts: list[Artifact]) -> Decision:
        return Decision(kind, tasks=list(tasks), message=message, focus=Focus(asset_ids=["Chiller 9"]),
                        intent="test")
    return plan


async def collect(deps: Any, session: str, message: str) -> list[TurnEvent]:
    return [e async for e in run_turn(deps, session, message, reference_date=REF)]


def of_type(events: list[TurnEvent], kind: str) -> list[TurnEvent]:
    return [e for e in events if e.type == kind]


async def test_a_turn_streams_typed_events_from_start_to_done(settings: Settings) -> None:
    registry = SpecialistRegistry({"data": Inventory()})
    async with open_deps(settings, llm=False, planner=fixed_planner(SpecialistTask("data", "inventory")),
                         specialists=registry, tool_executor=sites_executor) as deps:
        events = await collect(deps, "s-events", "what sites are there?")
    types = [e.type for e in events]
    assert types[0] == "turn_started" and types[-1] == "done"
    assert types.index("supervisor_decision") < types.index("specialist_started") < types.index("tool_call_started")
    assert types.index("tool_call_finished") < types.index("artifact_created") < types.index("specialist_finished")
    assert types.index("specialist_finished") < types.index("final_answer")
    answer = of_type(events, "final_answer")[0].data["text"]
    assert "Site MAIN is monitored." in answer
    assert of_type(events, "artifact_created")[0].data["artifact_id"] in answer


async def test_a_specialist_missing_from_the_registry_degrades_to_an_honest_answer(settings: Settings) -> None:
    registry = SpecialistRegistry({"data": Inventory()})
    planner = fixed_planner(SpecialistTask("data", "inventory"),
                            SpecialistTask("maintenance", "draft_wo", goal="draft a work order", depends_on=[0]))
    async with open_deps(settings, llm=False, planner=planner, specialists=registry,
                         tool_executor=sites_executor) as deps:
        events = await collect(deps, "s-missing", "draft a work order")
    answer = of_type(events, "final_answer")[0].data["text"]
    assert "no maintenance specialist is registered" in answer.lower()
    assert "draft a work order" in answer
    assert of_type(events, "done")[0].data["status"] == "partial"


async def test_a_crashing_specialist_becomes_a_failed_result_not_an_exception(settings: Settings) -> None:
    registry = SpecialistRegistry({"data": Inventory(), "failure": Crashing()})
    planner = fixed_planner(SpecialistTask("data", "inventory"), SpecialistTask("failure", "diagnose", goal="diagnose"))
    async with open_deps(settings, llm=False, planner=planner, specialists=registry, tool_executor=sites_executor,
                         config=GraphConfig(max_task_retries=1)) as deps:
        events = await collect(deps, "s-crash", "why?")
    finished = [e for e in of_type(events, "specialist_finished") if e.specialist == "failure"]
    assert len(finished) == 2  # first attempt and one retry
    assert all("boom" in e.data["errors"][0] for e in finished)
    assert "boom" in of_type(events, "final_answer")[0].data["text"]


async def test_missing_evidence_triggers_another_specialist_then_the_retry(settings: Settings) -> None:
    registry = SpecialistRegistry({"data": Inventory(), "timeseries": NeedsData()})
    planner = fixed_planner(SpecialistTask("timeseries", "trend_stats", goal="trend"))
    async with open_deps(settings, llm=False, planner=planner, specialists=registry,
                         tool_executor=sites_executor) as deps:
        events = await collect(deps, "s-followup", "trend?")
    order = [(e.specialist, e.data["status"]) for e in of_type(events, "specialist_finished")]
    assert order == [("timeseries", "failed"), ("data", "ok"), ("timeseries", "ok")]
    assert "Trend computed on the data." in of_type(events, "final_answer")[0].data["text"]


async def test_the_step_limit_ends_a_runaway_loop_with_a_partial_answer(settings: Settings) -> None:
    registry = SpecialistRegistry({"failure": Crashing()})
    planner = fixed_planner(SpecialistTask("failure", "diagnose", goal="diagnose"))
    config = GraphConfig(max_steps=2, max_task_retries=10)
    async with open_deps(settings, llm=False, planner=planner, specialists=registry, config=config) as deps:
        events = await collect(deps, "s-limit", "why?")
    assert len(of_type(events, "specialist_finished")) == config.max_steps  # one dispatch per step
    assert "Stopped after 2 supervisor steps" in of_type(events, "final_answer")[0].data["text"]


async def test_a_planner_failure_becomes_an_error_event_and_an_honest_answer(settings: Settings) -> None:
    def broken(*_: Any) -> Decision:
        raise ValueError("planner exploded")

    async with open_deps(settings, llm=False, planner=broken) as deps:
        events = await collect(deps, "s-broken", "hello")
        follow = await collect(deps, "s-broken", "hello again")
    assert "planner exploded" in of_type(events, "error")[0].data["message"]
    assert "internal problem" in of_type(events, "final_answer")[0].data["text"]
    assert of_type(events, "done")[0].data["status"] == "error"
    assert follow[0].turn_index == 2  # the session goes on


async def test_clarifying_questions_run_no_specialist(settings: Settings) -> None:
    planner = fixed_planner(kind="clarify", message="Which chiller: 3, 4, 6 or 9?")
    async with open_deps(settings, llm=False, planner=planner) as deps:
        events = await collect(deps, "s-clarify", "check the chiller")
    assert not of_type(events, "specialist_started")
    assert of_type(events, "final_answer")[0].data["text"].startswith("Which chiller")


async def test_an_oversized_message_is_refused_with_a_clear_message(settings: Settings) -> None:
    async with open_deps(settings, llm=False, planner=fixed_planner(kind="answer", message="ok")) as deps:
        events = await collect(deps, "s-long", "log line\n" * 6000)
    answer = of_type(events, "final_answer")[0].data["text"]
    assert "characters long" in answer and "20,000" in answer


async def test_turns_and_tool_calls_are_persisted(settings: Settings) -> None:
    registry = SpecialistRegistry({"data": Inventory()})
    async with open_deps(settings, llm=False, planner=fixed_planner(SpecialistTask("data", "inventory")),
                         specialists=registry, tool_executor=sites_executor) as deps:
        await collect(deps, "s-rec", "sites?")
        await collect(deps, "s-rec", "sites again?")
        async with deps.db.session() as session:
            turns = (await session.execute(select(TurnRow).order_by(TurnRow.index))).scalars().all()
            calls = (await session.execute(select(ToolCallRow))).scalars().all()
            owner = await session.get(SessionRow, "s-rec")
    assert owner is not None and owner.reference_date == REF
    assert [(t.index, t.status) for t in turns] == [(1, "ok"), (2, "ok")]
    assert "Site MAIN" in turns[0].answer and turns[0].timings["wall_ms"] > 0
    assert sorted((c.server, c.tool, c.reused) for c in calls) == [("iot", "sites", False), ("iot", "sites", True)]


async def test_a_session_continues_after_a_restart(settings: Settings) -> None:
    registry = SpecialistRegistry({"data": Inventory()})
    planner = fixed_planner(SpecialistTask("data", "inventory"))
    async with open_deps(settings, llm=False, planner=planner, specialists=registry,
                         tool_executor=sites_executor) as deps:
        await collect(deps, "s-restart", "first")
        before = await session_state(deps, "s-restart")

    seen: list[Focus] = []

    def remembering(message: str, focus: Focus, reference_date: date, artifacts: list[Any]) -> Decision:
        seen.append(focus)
        return Decision("answer", message=f"{len(artifacts)} artifacts known", focus=focus)

    async with open_deps(settings, llm=False, planner=remembering, specialists=registry) as deps:
        events = await collect(deps, "s-restart", "second")
        after = await session_state(deps, "s-restart")
    assert events[0].turn_index == 2
    assert seen[0].asset_ids == ["Chiller 9"]
    assert of_type(events, "final_answer")[0].data["text"] == "1 artifacts known"
    assert after["artifact_ids"] == before["artifact_ids"]
    assert [m.type for m in after["messages"]] == ["human", "ai", "human", "ai"]


async def test_identical_calls_from_concurrent_specialists_run_once() -> None:
    import asyncio

    from specialists.base import ToolRunner

    executed: list[str] = []

    async def slow(calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
        executed.extend(name for name, _ in calls)
        await asyncio.sleep(0.01)
        return [ToolOutcome(name, args, "ok", {"n": 1}) for name, args in calls]

    events: list[TurnEvent] = []

    async def emit(event: TurnEvent) -> None:
        events.append(event)

    runner = ToolRunner("s", 1, emit, executor=slow)
    first, second = await asyncio.gather(runner.run_one("wo.get_alert_rules", {"equipment_id": "CWC04703"}),
                                         runner.run_one("wo.get_alert_rules", {"equipment_id": "CWC04703"}))
    assert executed == ["wo.get_alert_rules"]
    assert (first.reused, second.reused) == (False, True) and second.output == {"n": 1}
    assert [e.data["reused"] for e in events if e.type == "tool_call_finished"] == [False, True]


async def test_nothing_found_is_kept_for_the_session_but_other_errors_are_tried_again() -> None:
    """'No ... found' is an answer the records will not change within a session: asked again it is
    reused like a success; a timeout or any other error runs again."""
    from specialists.base import ToolRunner

    executed: list[str] = []

    async def answers(calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
        executed.extend(args["equipment_id"] for _, args in calls)
        return [ToolOutcome(name, args, "error", error=(f"No corrective work orders found for equipment_id "
                                                        f"'{args['equipment_id']}'") if args["equipment_id"] == "A"
                            else "database is locked") for name, args in calls]

    async def emit(event: TurnEvent) -> None:
        return None

    memo: dict[str, ToolOutcome] = {}
    for turn in (1, 2):
        runner = ToolRunner("s", turn, emit, memo=memo, executor=answers)
        empty, locked = await runner.run([("wo.get_corrective_work_orders", {"equipment_id": "A"}),
                                          ("wo.get_corrective_work_orders", {"equipment_id": "B"})])
        assert empty.reused == (turn == 2) and not locked.reused
        assert empty.error is not None and empty.error.startswith("No corrective work orders found")
    assert executed == ["A", "B", "B"]
