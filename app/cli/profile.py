"""`assetops profile SESSION_ID`: one session's per-turn profile from the service, as a table."""

from __future__ import annotations

from typing import Any

import typer

from app.cli.client import ServiceClient, raise_for_status
from assetops.settings import get_settings

SPLIT_ORDER = ("llm", "tools", "db", "routing", "specialists", "answer", "other")


def format_profile(profile: dict[str, Any], calls: bool = False) -> list[str]:
    """The lines `assetops profile` prints: one per turn (wall, measured split), optionally its calls."""
    lines = [f"session {profile['session_id']}  {profile.get('title') or ''}".rstrip(),
             f"{'turn':>4}  {'wall ms':>9}  " + "  ".join(f"{k:>11}" for k in SPLIT_ORDER)
             + "  calls  reused  db q  message"]
    for turn in profile["turns"]:
        split = turn.get("split_ms")
        parts = ("  ".join(f"{split[k]:>11.1f}" for k in SPLIT_ORDER) if split
                 else "  ".join(f"{'-':>11}" for _ in SPLIT_ORDER))
        lines.append(f"{turn['index']:>4}  {turn['wall_ms']:>9.1f}  {parts}  {turn['tool_calls']:>5}  "
                     f"{turn['reused_calls']:>6}  {turn['db_queries']:>4}  {turn['message'][:50]}")
        if calls:
            for call in turn.get("calls", []):
                latency = "reused" if call["reused"] else f"{call['latency_ms']:.1f} ms"
                lines.append(f"        +{call['start_ms']:>8.1f} ms  {call['name']:<36} {call['status']:<7} "
                             f"{latency:>10}  db {call['db_ms']:.1f} ms / {call['db_queries']} q")
    t = profile["totals"]
    lines.append(f"{t['turns']} turns, wall {t['wall_ms'] / 1000:.2f} s; first turns {t['first_turn_ms']:.0f} ms "
                 f"vs follow-ups {t['follow_up_ms']:.0f} ms (mean); split in ms (measured): "
                 + ", ".join(f"{k} {t['split_ms'][k]:.0f}" for k in SPLIT_ORDER))
    return lines


def profile(session_id: str,
            calls: bool = typer.Option(False, "--calls", help="List every tool call under its turn."),
            url: str | None = typer.Option(None, help="Service URL (default: settings / local)."),
            key: str | None = typer.Option(None, help="API key (default: the local key).")) -> None:
    """Per-turn wall time of a session split into LLM, tools, database, routing and the rest (measured)."""
    client = ServiceClient.from_options(get_settings(), url, key)
    with client.http(timeout=30) as http:
        response = http.get(f"/v1/sessions/{session_id}/profile")
    raise_for_status(response)
    for line in format_profile(response.json(), calls):
        typer.echo(line)
