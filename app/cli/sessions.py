"""`assetops sessions` and `assetops export ID`: list sessions and export a dialog as rollout JSONL."""

from __future__ import annotations

from pathlib import Path

import typer

from app.cli.client import ServiceClient, raise_for_status
from assetops.settings import get_settings


def list_sessions(url: str | None = typer.Option(None, help="Service URL (default: settings / local)."),
                  key: str | None = typer.Option(None, help="API key (default: the local key).")) -> None:
    """The caller's sessions, most recent first."""
    client = ServiceClient.from_options(get_settings(), url, key)
    with client.http(timeout=30) as http:
        response = http.get("/v1/sessions")
    raise_for_status(response)
    sessions = response.json()
    if not sessions:
        typer.echo("no sessions yet: start one with `assetops chat`")
    for s in sessions:
        typer.echo(f"{s['id']}  ref {s['reference_date']}  updated {s['updated_at'][:19]}  {s['title']}")


def export(session_id: str, output: Path | None = typer.Option(None, "-o", "--output", help="File (default: stdout)."),
           url: str | None = typer.Option(None, help="Service URL."), key: str | None = typer.Option(None, help="API key.")) -> None:
    """Export a session as event-stream JSONL (docs/ROLLOUT_FORMAT.md)."""
    client = ServiceClient.from_options(get_settings(), url, key)
    with client.http(timeout=60) as http:
        response = http.get(f"/v1/sessions/{session_id}/rollout")
    raise_for_status(response)
    if output is None:
        typer.echo(response.text, nl=False)
    else:
        output.write_text(response.text)
        typer.echo(f"wrote {len(response.text.splitlines())} events to {output}")
