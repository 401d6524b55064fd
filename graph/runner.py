"""The one turn runner: `run_turn(deps, session_id, message)` -> an async iterator of typed events.

REST collects the events, the websocket streams them, the rollout exporter and the profiler read
them. The graph runs in a background task and talks to the caller through a queue, so events
arrive while the turn is still running. Whatever goes wrong inside the graph becomes an `error`
event and an honest final answer: nothing raises out of `run_turn`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from assetops.domain.events import EventType, TurnEvent
from assetops.domain.turn import SpecialistTask
from assetops.profile_split import turn_profile
from assetops.profiling import Profile, profiling
from assetops.redact import redact
from graph.context import TurnContext
from graph.deps import Deps
from graph.recorder import TurnRecorder
from graph.state import parse_reference_date
from specialists.base import ToolRunner

log = logging.getLogger(__name__)

_END = object()


def thread_config(session_id: str, deps: Deps) -> dict[str, Any]:
    """The LangGraph config of a session's thread (its checkpoint key and the recursion bound)."""
    return {"configurable": {"thread_id": session_id}, "recursion_limit": 4 * deps.config.max_steps + 16}


async def session_state(deps: Deps, session_id: str) -> dict[str, Any]:
    """The session's checkpointed state (empty for a new session)."""
    snapshot = await deps.graph.aget_state(thread_config(session_id, deps))
    return dict(snapshot.values or {})


def _event(type_: EventType, session_id: str, turn_index: int, **data: Any) -> TurnEvent:
    return TurnEvent(type=type_, session_id=session_id, turn_index=turn_index, data=data)


def _too_long_answer(message: str, limit: int) -> str:
    return (f"Your message is {len(message):,} characters long; I read at most {limit:,}. "
            "Paste the relevant part of the log (or tell me the asset and the time window) and I will analyse it.")


async def run_turn(deps: Deps, session_id: str, message: str, *, reference_date: date | None = None,
                   profile: Profile | None = None) -> AsyncIterator[TurnEvent]:
    """Run one user turn of a session and yield its events, ending with `final_answer` and `done`.

    `reference_date` is the date relative phrases ("past month") resolve against; it is kept in the
    session, so later turns may omit it (default: the session's, else today's date). `profile`
    receives every LLM call, tool call and query of the turn (a fresh one when omitted).
    """
    started = time.perf_counter()
    previous = await session_state(deps, session_id)
    turn_index = int(previous.get("turn_index", 0)) + 1
    ref = reference_date or parse_reference_date(previous.get("reference_date"), datetime.now(UTC).date())
    recorder = TurnRecorder(deps.db, session_id, turn_index, message, ref, enabled=deps.record)
    await recorder.start()
    yield _event("turn_started", session_id, turn_index, message=message[:2000], reference_date=ref.isoformat(),
                 message_chars=len(message))
    profile = profile if profile is not None else Profile()
    if len(message) > deps.settings.max_message_chars:
        answer, status, error = _too_long_answer(message, deps.settings.max_message_chars), "rejected", None
        yield _event("final_answer", session_id, turn_index, text=answer, kind="reject", artifact_ids=[])
    else:
        outcome: dict[str, Any] = {}
        async for event in _drive_graph(deps, session_id, turn_index, message, ref, profile, outcome):
            recorder.observe(event)
            yield event
        answer, status, error = outcome["answer"], outcome["status"], outcome.get("error")
    finished = time.perf_counter()
    measured = turn_profile(profile, started, finished)
    timings = {**profile.summary(), "wall_ms": round((finished - started) * 1000.0, 3),
               "split_ms": measured["split_ms"]}
    # The stored turn keeps the per-call list too (the dashboard's drill-down); the event stays small.
    await recorder.finish(answer=answer, status=status, error=error, timings={**timings, "calls": measured["calls"]})
    yield _event("done", session_id, turn_index, status=status, timings=timings, turn_id=recorder.turn_id)


async def _drive_graph(deps: Deps, session_id: str, turn_index: int, message: str, ref: date, profile: Profile,
                       outcome: dict[str, Any]) -> AsyncIterator[TurnEvent]:
    """Run the graph in a task, relay its events, and turn a failure into an error + honest answer."""
    queue: asyncio.Queue[Any] = asyncio.Queue()

    async def emit(event: TurnEvent) -> None:
        await queue.put(event)

    tools = ToolRunner(session_id, turn_index, emit, memo=deps.session_memo(session_id), executor=deps.tool_executor)
    ctx = TurnContext(deps=deps, session_id=session_id, turn_index=turn_index, reference_date=ref, emit=emit,
                      tools=tools)
    turn_input = {"messages": [HumanMessage(content=message)], "reference_date": ref.isoformat(),
                  "turn_index": turn_index, "plan": [], "results": [], "step": 0, "notes": [], "decision": None,
                  "answer": ""}
    task = asyncio.create_task(_invoke(deps, ctx, session_id, turn_input, profile, queue))
    saw_answer = False
    try:
        while (event := await queue.get()) is not _END:
            saw_answer = saw_answer or event.type == "final_answer"
            yield event
        state, failure = await task
    finally:
        if not task.done():  # the caller stopped listening: do not leave the turn running
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if failure is None and saw_answer:
        outcome.update(answer=str(state.get("answer") or ""), status=_status(state))
        return
    reason = redact(f"{type(failure).__name__}: {failure}") if failure is not None else "the turn ended without an answer"
    answer = ("I could not finish this turn because of an internal problem "
              f"({reason}). Nothing was changed; please try again or rephrase the question.")
    yield _event("error", session_id, turn_index, stage="graph", message=reason)
    yield _event("final_answer", session_id, turn_index, text=answer, kind="error", artifact_ids=[])
    await _record_failed_answer(deps, session_id, answer)
    outcome.update(answer=answer, status="error", error=reason)


async def _invoke(deps: Deps, ctx: TurnContext, session_id: str, turn_input: dict[str, Any], profile: Profile,
                  queue: asyncio.Queue[Any]) -> tuple[dict[str, Any], BaseException | None]:
    from tools.framework.context import ToolContext, use_tool_context

    try:
        with use_tool_context(ToolContext(settings=deps.settings, db=deps.db, llm=deps.llm)), profiling(profile):
            state = await deps.graph.ainvoke(turn_input, thread_config(session_id, deps), context=ctx)
        return dict(state or {}), None
    except Exception as exc:  # the graph's own failure is reported as an event, never raised
        log.exception("turn of session %s failed", session_id)
        return {}, exc
    finally:
        await queue.put(_END)


def _status(state: dict[str, Any]) -> str:
    plan: list[SpecialistTask] = state.get("plan") or []
    if any(t.status in ("failed", "skipped") for t in plan):
        return "partial"
    return "ok"


async def _record_failed_answer(deps: Deps, session_id: str, answer: str) -> None:
    """Put the honest answer into the thread so the dialog history stays complete."""
    try:
        await deps.graph.aupdate_state(thread_config(session_id, deps),
                                       {"messages": [AIMessage(content=answer)], "answer": answer},
                                       as_node="respond")
    except Exception as exc:  # the answer was already delivered; only the history entry is missing
        log.warning("could not store the failure answer of session %s: %s", session_id, exc)
