"""Two websocket clients on one session receive the same events, in the same order."""

from __future__ import annotations

import json

import pytest

from tests.integration.service.conftest import Api

pytestmark = pytest.mark.integration


def _until_done(ws) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    events = []
    while True:
        event = json.loads(ws.receive_text())
        events.append(event)
        if event["type"] == "done":
            return events


def test_two_watchers_receive_the_same_events_in_order(api: Api) -> None:
    sid = api.client.post("/v1/sessions", json={"reference_date": "2021-07-01"}, headers=api.alice).json()["id"]
    token = api.alice["Authorization"].split()[1]
    with api.client.websocket_connect(f"/v1/sessions/{sid}/ws?token={token}") as sender, \
            api.client.websocket_connect(f"/v1/sessions/{sid}/ws?token={token}") as watcher:
        sender.send_text(json.dumps({"content": "What data do you have on Chiller 6?"}))
        seen_by_sender = _until_done(sender)
        seen_by_watcher = _until_done(watcher)
    assert seen_by_sender[0]["type"] == "turn_started"
    assert seen_by_sender == seen_by_watcher
    assert any(e["type"] == "final_answer" and "Chiller 6" in e["data"]["text"] for e in seen_by_sender)


def test_bad_messages_and_bad_keys_get_clear_errors(api: Api) -> None:
    sid = api.client.post("/v1/sessions", json={"reference_date": "2021-07-01"}, headers=api.alice).json()["id"]
    token = api.alice["Authorization"].split()[1]
    with api.client.websocket_connect(f"/v1/sessions/{sid}/ws?token={token}") as ws:
        ws.send_text("not json")
        error = json.loads(ws.receive_text())
        assert error["type"] == "error" and error["data"]["status"] == 422
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed, \
            api.client.websocket_connect(f"/v1/sessions/{sid}/ws?token=wrong") as ws:
        ws.receive_text()
    assert closed.value.code == 4401
