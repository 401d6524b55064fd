"""Run a suite through the real stack: embedded (the same graph and stores as the service) or against a
running service over REST. Every turn is scored with the bench's per-turn checks as it finishes; the
result is one `DialogRecord` per dialog (turn records, rollout lines, checks).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from assetops.domain.events import TurnEvent
from evaluation.dialog_checks import DialogSpec, known_fleet, score_turn
from evaluation.records import DialogRecord, turn_record
from evaluation.suite import Suite

ARCHS = ("supervisor", "plan-execute")
TurnFn = Callable[[str, str, Any], Awaitable[list[TurnEvent]]]


@dataclass(frozen=True)
class RunOptions:
    """How to run: architecture, chat model (None = offline), service URL and key (None = embedded)."""

    arch: str = "supervisor"
    llm: str | None = None
    url: str | None = None
    api_key: str | None = None


def export_lines(arch: str, session_id: str, events: list[TurnEvent], spec: DialogSpec) -> list[dict[str, Any]]:
    """The dialog's rollout lines in its architecture's conventions (ROLLOUT_FORMAT.md §1.4)."""
    if arch == "plan-execute":
        from baselines.plan_execute.rollout import plan_execute_lines

        return plan_execute_lines(session_id, events, reference_date=spec.reference_date)
    from app.services.rollout import rollout_lines

    return rollout_lines(session_id, events, reference_date=spec.reference_date)


async def run_dialogs(suite: Suite, arch: str, db: Any, new_session: Callable[[DialogSpec], Awaitable[str]],
                      turn: TurnFn, on_dialog_start: Callable[[], None] = lambda: None) -> list[DialogRecord]:
    """Run every dialog: a fresh session each, every turn scored against its spec."""
    fleet = await known_fleet(db)
    records: list[DialogRecord] = []
    for spec in suite.dialogs:
        on_dialog_start()
        session_id = await new_session(spec)
        all_events: list[TurnEvent] = []
        dialog = DialogRecord(dialog_id=spec.id, arch=arch, turns=[], rollout=[])
        asked = ""
        for index, turn_spec in enumerate(spec.turns, start=1):
            events = await turn(session_id, turn_spec.message, spec)
            asked += "\n" + turn_spec.text
            dialog.checks.append(await score_turn(db, spec.id, index, turn_spec, events, fleet, asked))
            dialog.turns.append(turn_record(spec.id, index, turn_spec.text, events))
            all_events += events
        dialog.rollout = export_lines(arch, session_id, all_events, spec)
        records.append(dialog)
    return records


async def run_embedded(settings: Any, suite: Suite, options: RunOptions) -> list[DialogRecord]:
    """Run the suite in this process on `settings`' database (sessions are not recorded, artifacts removed)."""
    from assetops.llm import build_chat_model
    from graph.deps import open_deps
    from graph.runner import run_turn
    from tools.framework import clear_result_cache

    overrides: dict[str, Any] = {}
    if options.arch == "plan-execute":
        from baselines.plan_execute.graph import baseline_overrides

        overrides = baseline_overrides()
    chat = build_chat_model(settings.model_copy(update={"llm_model": options.llm})) if options.llm else False
    run_id = uuid.uuid4().hex[:6]
    async with open_deps(settings, llm=chat, record=False, **overrides) as deps:
        sessions: list[str] = []

        async def new_session(spec: DialogSpec) -> str:
            sessions.append(f"eval-{options.arch}-{run_id}-{spec.id}")
            return sessions[-1]

        async def turn(session_id: str, message: str, spec: DialogSpec) -> list[TurnEvent]:
            return [e async for e in run_turn(deps, session_id, message, reference_date=spec.reference_date)]

        # One throwaway turn first loads models and warms imports, so the first measured architecture does not
        # pay the process's cold start; each dialog then starts with an empty tool result cache, so neither
        # architecture profits from the other's run.
        if suite.dialogs and suite.dialogs[0].turns:
            first = suite.dialogs[0]
            sessions.append(f"eval-warmup-{options.arch}-{run_id}")
            await turn(sessions[-1], first.turns[0].message, first)
        try:
            return await run_dialogs(suite, options.arch, deps.db, new_session, turn, clear_result_cache)
        finally:
            for session_id in sessions:
                await deps.store.delete_session(session_id)


async def run_remote(settings: Any, suite: Suite, options: RunOptions) -> list[DialogRecord]:
    """Run the suite against a running service over REST (its architecture: the supervisor).

    Numbers are still checked against this machine's configured database: point it at the service's.
    """
    import httpx

    from app.cli.client import ServiceClient
    from assetops.db.engine import Database

    client = ServiceClient.from_options(settings, options.url, options.api_key)
    db = Database(settings)
    headers = {"Authorization": f"Bearer {client.key}"} if client.key else {}
    async with httpx.AsyncClient(base_url=client.url, headers=headers, timeout=900.0) as http:
        async def new_session(spec: DialogSpec) -> str:
            reply = await http.post("/v1/sessions", json={"title": f"eval {suite.name} {spec.id}",
                                                          "reference_date": spec.reference_date.isoformat()})
            _check(reply)
            return str(reply.json()["id"])

        async def turn(session_id: str, message: str, spec: DialogSpec) -> list[TurnEvent]:
            reply = await http.post(f"/v1/sessions/{session_id}/messages", json={"content": message})
            _check(reply)
            return [TurnEvent.model_validate(e) for e in reply.json()["events"]]

        try:
            return await run_dialogs(suite, "supervisor", db, new_session, turn)
        finally:
            await db.close()


def _check(reply: Any) -> None:
    if not reply.is_success:
        raise RuntimeError(f"the service answered {reply.status_code}: {reply.text[:300]}")


async def run_suite(settings: Any, suite: Suite, options: RunOptions) -> list[DialogRecord]:
    """Embedded unless a URL is given; the baseline only runs embedded (the service runs the supervisor)."""
    if options.arch not in ARCHS:
        raise ValueError(f"unknown architecture {options.arch!r}: use {' or '.join(ARCHS)}")
    if options.url:
        if options.arch != "supervisor":
            raise ValueError("a running service answers with the supervisor; run --arch plan-execute embedded "
                             "(without --url)")
        return await run_remote(settings, suite, options)
    return await run_embedded(settings, suite, options)


