"""`assetops chat --url ...`: the same REPL against a running service, events streamed over SSE."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import date

import httpx
import typer

from app.cli.client import ServiceClient, raise_for_status
from assetops.domain.events import TurnEvent

QUIT_WORDS = {"exit", "quit", ":q"}


def sse_events(lines: Iterator[str]) -> Iterator[TurnEvent]:
    """Parse a server-sent event stream of TurnEvents (one `data:` line per event)."""
    for line in lines:
        if line.startswith("data: "):
            yield TurnEvent.model_validate(json.loads(line[6:]))


def open_session(http: httpx.Client, session_id: str | None, reference_date: date | None) -> str:
    """Continue `session_id` (checked to exist) or create a new session."""
    if session_id:
        raise_for_status(http.get(f"/v1/sessions/{session_id}"))
        return session_id
    body = {"title": "CLI chat", "reference_date": reference_date.isoformat() if reference_date else None}
    response = http.post("/v1/sessions", json=body)
    raise_for_status(response)
    return str(response.json()["id"])


def remote_repl(client: ServiceClient, session_id: str | None, reference_date: date | None,
                render: Callable[[TurnEvent], str | None], read: Callable[[str], str] = input) -> None:
    """Read messages, stream each turn's events from the service and print them as they arrive."""
    with client.http() as http:
        sid = open_session(http, session_id, reference_date)
        typer.echo(f"session {sid} on {client.url}; type 'exit' to leave.")
        while True:
            try:
                message = read("you> ")
            except EOFError:
                break
            if message.strip().lower() in QUIT_WORDS:
                break
            if not message.strip():
                continue
            with http.stream("POST", f"/v1/sessions/{sid}/messages", params={"stream": "true"},
                             json={"content": message}) as response:
                if not response.is_success:
                    response.read()
                    raise_for_status(response)
                for event in sse_events(response.iter_lines()):
                    line = render(event)
                    if line is not None:
                        typer.echo(line)
