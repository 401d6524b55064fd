"""`assetops chat --url`: the CLI streams a turn's events from the running service as they happen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.cli.chat import render_event
from app.cli.chat_remote import remote_repl, sse_events
from app.cli.client import ServiceClient
from assetops.domain.events import TurnEvent
from tests.integration.service.conftest import Api

pytestmark = pytest.mark.integration


class InProcessClient(ServiceClient):
    """The CLI's client, but talking to the app through the test client instead of a socket."""

    def __init__(self, api: Api) -> None:
        super().__init__("http://testserver", api.alice["Authorization"].split()[1])
        self._client = api.client

    def http(self, timeout: float = 600.0) -> Any:
        self._client.headers.update({"Authorization": f"Bearer {self.key}"})
        return _NoClose(self._client)


class _NoClose:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    def __enter__(self) -> httpx.Client:
        return self.client

    def __exit__(self, *exc: object) -> None:
        return None


def test_sse_parser_reads_turn_events() -> None:
    lines = ["event: turn_started", 'data: {"type": "turn_started", "session_id": "s", "turn_index": 1}', "",
             "event: done", 'data: {"type": "done", "session_id": "s", "turn_index": 1}', ""]
    assert [e.type for e in sse_events(iter(lines))] == ["turn_started", "done"]


def test_remote_chat_prints_progress_and_answer(api: Api, capsys: pytest.CaptureFixture[str]) -> None:
    messages: Iterator[str] = iter(["What data do you have on Chiller 6?", "exit"])
    shown: list[TurnEvent] = []

    def render(event: TurnEvent) -> str | None:
        shown.append(event)
        return render_event(event, verbose=True)

    remote_repl(InProcessClient(api), None, None, render, read=lambda prompt: next(messages))
    out = capsys.readouterr().out
    assert shown[0].type == "turn_started" and shown[-1].type == "done"
    assert "[data]" in out and "iot.sensors" in out and "Chiller 6" in out
