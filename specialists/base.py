"""What every specialist shares: its context, its result (`SpecialistResult`, defined on the floor in
`assetops.domain.turn` and re-exported here), and the session-aware tool runner.

A specialist receives one narrow `SpecialistTask`, asks the artifact store what is already known,
runs only the missing tool calls (independent ones in one parallel batch), writes artifacts and
returns a short summary with artifact ids, never raw tool output.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, Protocol

from artifacts.model import Artifact, ArtifactToolCall
from artifacts.store import ArtifactStore
from assetops.domain.catalog import FleetCatalog
from assetops.domain.events import TurnEvent, tool_call_payload
from assetops.domain.specialists import SpecialistId
from assetops.domain.turn import SpecialistResult, SpecialistTask

__all__ = ["Emit", "Specialist", "SpecialistContext", "SpecialistResult", "ToolOutcome", "ToolRunner", "call_key",
           "found_nothing"]

Emit = Callable[[TurnEvent], Awaitable[None]]


def found_nothing(error: str | None) -> bool:
    """True when a tool's error only says the query matches nothing ("No corrective work orders found
    for equipment_id ... between ...", "No observations for asset_id ... from ... to ..."): an answer
    that holds for the whole session (the stored records do not change under it), not a failure."""
    text = str(error or "")
    return text.startswith("No ") and (" found " in text or text.startswith(("No observations for",
                                                                              "No telemetry stored for")))


def call_key(name: str, args: dict[str, Any]) -> str:
    """Identity of a tool call: the tool and its arguments, order-insensitive."""
    canonical = json.dumps({"name": name, "args": args}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass
class ToolOutcome:
    """A tool call as a specialist sees it: output or error, and whether it was reused."""

    name: str
    args: dict[str, Any]
    status: str  # ok | error | timeout
    output: Any = None
    error: str | None = None
    latency_ms: float = 0.0
    reused: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def settled(self) -> bool:
        """An answer the session keeps: a success, or an error that only says nothing matches."""
        return self.ok or (self.status == "error" and found_nothing(self.error))

    def as_artifact_call(self) -> ArtifactToolCall:
        return ArtifactToolCall(name=self.name, args=self.args, status=self.status, latency_ms=self.latency_ms,
                                error=self.error)


class ToolRunner:
    """Runs tool calls for one session: never the same call twice, independent calls in parallel.

    Identical calls (same tool, same arguments) made earlier in the session are answered from the
    session memo and reported as reused, when the earlier answer is settled: a success, or "nothing
    matches" (the records do not change within a session, so asking again would only repeat it);
    everything else goes through the tool framework's single call path (validation, result cache,
    timeout, profiling) as one concurrent batch.
    """

    def __init__(self, session_id: str, turn_index: int, emit: Emit, memo: dict[str, ToolOutcome] | None = None,
                 executor: Callable[[list[tuple[str, dict[str, Any]]], str | None], Awaitable[list[ToolOutcome]]]
                 | None = None) -> None:
        self.session_id = session_id
        self.turn_index = turn_index
        self.emit = emit
        self.memo: dict[str, ToolOutcome] = memo if memo is not None else {}
        self._executor = executor or _framework_executor
        self.calls: list[ToolOutcome] = []  # every outcome of this runner, in request order
        # Calls running right now: a concurrent specialist asking for the same call waits for it.
        self._inflight: dict[str, asyncio.Future[ToolOutcome]] = {}

    async def run(self, calls: list[tuple[str, dict[str, Any]]], *, specialist: str | None = None) -> list[ToolOutcome]:
        """Run a batch of (qualified tool name, args); results come back in request order."""
        outcomes: list[ToolOutcome | None] = [None] * len(calls)
        pending: list[tuple[int, str, dict[str, Any], str]] = []
        waiting: list[tuple[int, str, dict[str, Any], asyncio.Future[ToolOutcome]]] = []
        for i, (name, args) in enumerate(calls):
            key = call_key(name, args)
            previous = self.memo.get(key)
            if previous is not None and previous.settled:
                reused = ToolOutcome(name, args, previous.status, previous.output, previous.error, 0.0, reused=True)
                outcomes[i] = reused
                await self._announce(specialist, reused, started=False)
            elif key in self._inflight:
                waiting.append((i, name, args, self._inflight[key]))
            else:
                pending.append((i, name, args, key))
                self._inflight[key] = asyncio.get_running_loop().create_future()
        for _, name, args, _ in pending:
            await self._announce(specialist, ToolOutcome(name, args, "running"), started=True)
        if pending:
            try:
                results = await self._executor([(name, args) for _, name, args, _ in pending], specialist)
            except BaseException as exc:  # waiters must not hang on a batch that never finished
                for _, _, _, key in pending:
                    future = self._inflight.pop(key)
                    if isinstance(exc, asyncio.CancelledError):
                        future.cancel()
                    else:
                        future.set_exception(exc)
                raise
            for (i, _, _, key), outcome in zip(pending, results, strict=True):
                outcomes[i] = outcome
                self._inflight.pop(key).set_result(outcome)
                if outcome.settled:
                    self.memo[key] = outcome
                await self._announce(specialist, outcome, started=False)
        for i, name, args, future in waiting:
            first = await future
            shared = ToolOutcome(name, args, first.status, first.output, first.error, 0.0, reused=True)
            outcomes[i] = shared
            await self._announce(specialist, shared, started=False)
        done = [o for o in outcomes if o is not None]
        self.calls.extend(done)
        return done

    async def run_one(self, name: str, args: dict[str, Any], *, specialist: str | None = None) -> ToolOutcome:
        """Run a single call (same rules as `run`)."""
        return (await self.run([(name, args)], specialist=specialist))[0]

    async def _announce(self, specialist: str | None, outcome: ToolOutcome, *, started: bool) -> None:
        call_id = call_key(outcome.name, outcome.args)[:12]
        if started:
            payload = tool_call_payload(call_id=call_id, name=outcome.name, args=outcome.args)
            event_type: Literal["tool_call_started", "tool_call_finished"] = "tool_call_started"
        else:
            preview = None if outcome.output is None else json.dumps(outcome.output, default=str)[:400]
            payload = tool_call_payload(call_id=call_id, name=outcome.name, args=outcome.args, status=outcome.status,
                                        latency_ms=round(outcome.latency_ms, 3), error=outcome.error,
                                        reused=outcome.reused, result_preview=preview)
            event_type = "tool_call_finished"
        await self.emit(TurnEvent(type=event_type, session_id=self.session_id, turn_index=self.turn_index,
                                  specialist=specialist, data=payload))


async def _framework_executor(calls: list[tuple[str, dict[str, Any]]], specialist: str | None) -> list[ToolOutcome]:
    """Execute through the tool framework (imported lazily: tools are a lower layer, loaded once)."""
    from tools.framework import ToolCall, run_many

    results = await run_many([ToolCall(name, args) for name, args in calls], specialist=specialist)
    return [
        ToolOutcome(name=r.name, args=r.args, status=r.status, output=r.output, error=r.error, latency_ms=r.latency_ms)
        for r in results
    ]


@dataclass
class SpecialistContext:
    """Everything a specialist may use for one task; I/O arrives here, injected."""

    session_id: str
    turn_index: int
    reference_date: date
    store: ArtifactStore
    tools: ToolRunner
    emit: Emit
    catalog: FleetCatalog  # the loaded fleet: assets, equipment ids, sensors, site zone
    visible_artifacts: list[Artifact] = field(default_factory=list)
    llm: Any = None  # a LangChain BaseChatModel when configured
    # Telemetry windows this task fetched for itself (specialists.common.telemetry_source): the result
    # cites them as made by this task, not as reused.
    fetched_artifact_ids: list[str] = field(default_factory=list)

    def new_artifact_fields(self) -> dict[str, Any]:
        """Fields every artifact of this task shares."""
        return {"session_id": self.session_id, "turn_index": self.turn_index}


class Specialist(Protocol):
    """A specialist: one id, one entry point."""

    id: SpecialistId

    async def run(self, task: SpecialistTask, ctx: SpecialistContext) -> SpecialistResult: ...
