"""`assetops chat`: a minimal in-process REPL over the turn runner (no service needed)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date

import typer

from graph.events import TurnEvent

QUIT_WORDS = {"exit", "quit", ":q"}


def _render(event: TurnEvent, *, verbose: bool) -> str | None:
    """One line for an event worth showing (the answer always; the work only with --verbose)."""
    data = event.data
    if event.type == "final_answer":
        return f"\n{data.get('text', '')}\n"
    if event.type == "error":
        return f"  ! {data.get('message', '')}"
    if not verbose:
        return None
    if event.type == "supervisor_decision" and data.get("tasks"):
        return "  > " + ", ".join(f"{t['specialist']}.{t['action']}" for t in data["tasks"])
    if event.type == "tool_call_finished":
        reused = " (reused)" if data.get("reused") else ""
        return f"    {data.get('name')} {data.get('status')} {data.get('latency_ms') or 0:.0f} ms{reused}"
    if event.type in ("artifact_created", "artifact_reused"):
        return f"    {event.type.split('_')[1]} {data.get('artifact_id')}"
    if event.type == "done":
        timings = data.get("timings", {})
        return f"  ({timings.get('wall_ms', 0):.0f} ms, {timings.get('tool_calls', 0)} tool calls)"
    return None


async def _repl(session_id: str, reference_date: date | None, verbose: bool) -> None:
    from assetops.settings import get_settings
    from graph.deps import open_deps
    from graph.runner import run_turn

    async with open_deps(get_settings()) as deps:
        mode = "LLM" if deps.llm is not None else "offline"
        typer.echo(f"session {session_id} ({mode} mode); type 'exit' to leave.")
        while True:
            try:
                message = await asyncio.to_thread(input, "you> ")
            except EOFError:
                break
            if message.strip().lower() in QUIT_WORDS:
                break
            if not message.strip():
                continue
            async for event in run_turn(deps, session_id, message, reference_date=reference_date):
                line = _render(event, verbose=verbose)
                if line is not None:
                    typer.echo(line)


def chat(session: str | None = typer.Option(None, help="Session id to continue (default: a new session)."),
         reference_date: str | None = typer.Option(None, help="Date relative periods resolve against, YYYY-MM-DD."),
         verbose: bool = typer.Option(False, "--verbose", "-v", help="Show decisions, tool calls and artifacts.")
         ) -> None:
    """Chat with the assistant in this terminal (in-process, same graph and stores as the service)."""
    ref = date.fromisoformat(reference_date) if reference_date else None
    asyncio.run(_repl(session or f"cli-{uuid.uuid4().hex[:8]}", ref, verbose))
