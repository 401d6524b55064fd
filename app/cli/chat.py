"""`assetops chat`: a REPL over the turn runner, in-process (default) or against a service (`--url`)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date

import typer

from assetops.domain.events import TurnEvent

QUIT_WORDS = {"exit", "quit", ":q"}


def render_event(event: TurnEvent, *, verbose: bool) -> str | None:
    """One line for an event worth showing (the answer always; the work only with --verbose)."""
    data = event.data
    if event.type == "final_answer":
        return f"\n{data.get('text', '')}\n"
    if event.type == "error":
        return f"  ! {data.get('message', '')}"
    if not verbose:
        return None
    if event.type == "specialist_started":
        return f"  [{event.specialist or data.get('specialist')}] {data.get('goal') or data.get('action')}"
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
                line = render_event(event, verbose=verbose)
                if line is not None:
                    typer.echo(line)


def chat(session: str | None = typer.Option(None, help="Session id to continue (default: a new session)."),
         reference_date: str | None = typer.Option(None, help="Date relative periods resolve against, YYYY-MM-DD."),
         verbose: bool = typer.Option(True, "--verbose/--quiet", "-v/-q",
                                      help="Show which specialist works and each tool call as it happens."),
         url: str | None = typer.Option(None, help="A running service (e.g. http://127.0.0.1:8000); default: embedded."),
         key: str | None = typer.Option(None, help="API key for --url (default: the local key file)."),
         ) -> None:
    """Chat with the assistant in this terminal: embedded (same graph and stores as the service) or, with
    --url, against a running service with its events streamed live."""
    try:
        ref = date.fromisoformat(reference_date) if reference_date else None
    except ValueError as exc:
        raise SystemExit(f"--reference-date must be YYYY-MM-DD: {exc}") from exc
    if url:
        from app.cli.chat_remote import remote_repl
        from app.cli.client import ServiceClient
        from assetops.settings import get_settings

        remote_repl(ServiceClient.from_options(get_settings(), url, key), session, ref,
                    lambda event: render_event(event, verbose=verbose))
        return
    asyncio.run(_repl(session or f"cli-{uuid.uuid4().hex[:8]}", ref, verbose))
