"""The REST API end to end on the real PostgreSQL and Redis: sessions, turns, history, artifacts,
rollout, restarts, and every error path a client can hit."""

from __future__ import annotations

import asyncio
import json

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.integration.service.conftest import Api
from tests.support.contract_check import call_problem, load_contract

pytestmark = pytest.mark.integration

THREE_TURNS = ["What can you do?", "What data do you have on Chiller 6?", "And what sensors does Chiller 9 have?"]


def new_session(api: Api, headers: dict[str, str] | None = None) -> str:
    response = api.client.post("/v1/sessions", json={"title": "t", "reference_date": "2021-07-01"},
                               headers=headers or api.alice)
    assert response.status_code == 201, response.text
    assert response.json()["reference_date"] == "2021-07-01"
    return str(response.json()["id"])


def say(api: Api, session_id: str, text: str) -> dict:  # type: ignore[type-arg]
    response = api.client.post(f"/v1/sessions/{session_id}/messages", json={"content": text}, headers=api.alice)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_three_turn_conversation_history_artifacts_and_rollout(api: Api) -> None:
    sid = new_session(api)
    replies = [say(api, sid, text) for text in THREE_TURNS]
    for reply in replies:
        assert reply["answer"].strip()
        types = [e["type"] for e in reply["events"]]
        assert types[0] == "turn_started" and types[-1] == "done" and "final_answer" in types
        assert reply["timings"]["wall_ms"] > 0
    assert "Chiller 6" in replies[1]["answer"]
    assert "Chiller 9" in replies[2]["answer"]

    detail = api.client.get(f"/v1/sessions/{sid}", headers=api.alice).json()
    assert [t["user_message"] for t in detail["turns"]] == THREE_TURNS
    assert [t["index"] for t in detail["turns"]] == [1, 2, 3]

    artifacts = api.client.get(f"/v1/sessions/{sid}/artifacts", headers=api.alice).json()
    assert artifacts, "the data questions must leave artifacts"
    one = api.client.get(f"/v1/artifacts/{artifacts[0]['id']}", headers=api.alice)
    assert one.status_code == 200 and one.json()["session_id"] == sid

    rollout = api.client.get(f"/v1/sessions/{sid}/rollout", headers=api.alice)
    assert rollout.status_code == 200
    lines = [json.loads(line) for line in rollout.text.splitlines()]
    assert {line["turn_id"] for line in lines} == {"turn_001", "turn_002", "turn_003"}
    contract = load_contract()
    calls = [c for line in lines for c in line.get("tool_calls", [])]
    assert calls, "data turns must record tool calls"
    assert [call_problem(contract, c["tool_name"], c["args"]) for c in calls] == [None] * len(calls)
    finals = [line for line in lines if line["task_type"] == "final_response"]
    assert len(finals) == 3 and all(f["final_response"] for f in finals)


def test_session_continues_after_a_restart(loaded_pg_settings, api: Api) -> None:  # type: ignore[no-untyped-def]
    sid = new_session(api)
    first = say(api, sid, "What data do you have on Chiller 6?")
    assert "Chiller 6" in first["answer"]
    with TestClient(create_app(loaded_pg_settings)) as restarted:
        response = restarted.post(f"/v1/sessions/{sid}/messages", json={"content": "Which sensors does it have?"},
                                  headers=api.alice)
        assert response.status_code == 200, response.text
        reply = response.json()
        assert reply["turn_index"] == 2
        assert "Chiller 6" in reply["answer"]  # "it" resolved from the focus persisted before the restart
        turns = restarted.get(f"/v1/sessions/{sid}", headers=api.alice).json()["turns"]
        assert len(turns) == 2


def test_a_second_message_while_a_turn_runs_gets_409_and_the_session_stays_intact(api: Api) -> None:
    sid = new_session(api)
    resources = api.client.app.state.resources  # type: ignore[attr-defined]
    lease = api.client.portal.call(resources.locks.acquire, sid)  # a turn is "running"
    try:
        busy = api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "What can you do?"}, headers=api.alice)
        assert busy.status_code == 409
        assert "already answering" in busy.json()["detail"]
    finally:
        api.client.portal.call(resources.locks.release, lease)
    assert say(api, sid, "What can you do?")["answer"]
    assert len(api.client.get(f"/v1/sessions/{sid}", headers=api.alice).json()["turns"]) == 1


def test_another_users_session_and_artifacts_are_not_found(api: Api) -> None:
    sid = new_session(api)
    say(api, sid, "What data do you have on Chiller 6?")
    artifact_id = api.client.get(f"/v1/sessions/{sid}/artifacts", headers=api.alice).json()[0]["id"]
    assert api.client.get(f"/v1/sessions/{sid}", headers=api.bob).status_code == 404
    assert api.client.get(f"/v1/artifacts/{artifact_id}", headers=api.bob).status_code == 404
    assert api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "hi"}, headers=api.bob).status_code == 404
    assert api.client.get("/v1/sessions", headers=api.bob).json() == []
    assert api.client.get(f"/v1/sessions/{sid}", headers=api.alice).status_code == 200


def test_artifact_markdown_is_served_to_its_owner_only(api: Api) -> None:
    sid = new_session(api)
    say(api, sid, "What data do you have on Chiller 6?")
    artifact_id = api.client.get(f"/v1/sessions/{sid}/artifacts", headers=api.alice).json()[0]["id"]
    url = f"/v1/sessions/{sid}/artifacts/{artifact_id}/markdown"
    mine = api.client.get(url, headers=api.alice)
    assert mine.status_code == 200 and mine.headers["content-type"].startswith("text/markdown")
    assert mine.text.startswith("## ") and "Chiller 6" in mine.text
    assert api.client.get(url, headers=api.bob).status_code == 404
    other = new_session(api)  # an artifact is served only under its own session
    assert api.client.get(f"/v1/sessions/{other}/artifacts/{artifact_id}/markdown",
                          headers=api.alice).status_code == 404


def test_missing_or_unknown_key_is_401(api: Api) -> None:
    assert api.client.get("/v1/sessions").status_code == 401
    assert api.client.get("/v1/sessions", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_validation_errors_are_422_naming_the_field(api: Api) -> None:
    sid = new_session(api)
    missing = api.client.post(f"/v1/sessions/{sid}/messages", json={}, headers=api.alice)
    assert missing.status_code == 422 and "content" in missing.json()["message"]
    extra = api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "x", "bogus": 1}, headers=api.alice)
    assert extra.status_code == 422 and "bogus" in extra.json()["message"]
    bad_date = api.client.post("/v1/sessions", json={"reference_date": "2021-02-30"}, headers=api.alice)
    assert bad_date.status_code == 422 and "reference_date" in bad_date.json()["message"]
    malformed = api.client.post(f"/v1/sessions/{sid}/messages", content=b"{not json", headers={
        **api.alice, "Content-Type": "application/json"})
    assert malformed.status_code == 422


def test_oversized_body_is_413_and_session_intact(api: Api) -> None:
    sid = new_session(api)
    huge = {"content": "x" * (api.settings.max_request_bytes + 10)}
    response = api.client.post(f"/v1/sessions/{sid}/messages", json=huge, headers=api.alice)
    assert response.status_code == 413 and "limit" in response.json()["detail"]
    assert api.client.get(f"/v1/sessions/{sid}", headers=api.alice).json()["turns"] == []


def test_a_50kb_log_is_refused_with_a_clear_message(api: Api) -> None:
    sid = new_session(api)
    log = "\n".join(f"2021-06-0{i % 9 + 1} 12:00:00 CH9 ALARM code {i}" for i in range(1600))[:50_000]
    response = api.client.post(f"/v1/sessions/{sid}/messages", json={"content": log}, headers=api.alice)
    assert response.status_code in (413, 422)
    assert "limit" in json.dumps(response.json()) or "20000" in json.dumps(response.json())


def test_rate_limit_is_429(loaded_pg_settings) -> None:  # type: ignore[no-untyped-def]
    settings = loaded_pg_settings.model_copy(update={"rate_limit_per_minute": 3})
    with TestClient(create_app(settings)) as client:
        from app.auth import create_user
        from assetops.db.engine import Database

        async def key() -> str:
            db = Database(settings)
            try:
                return (await create_user(db, "rate-limited"))[1]
            finally:
                await db.close()

        headers = {"Authorization": f"Bearer {asyncio.run(key())}"}
        statuses = [client.get("/v1/sessions", headers=headers).status_code for _ in range(5)]
        assert statuses[:3] == [200, 200, 200] and statuses[3:] == [429, 429]


def test_unknown_ids_are_404(api: Api) -> None:
    assert api.client.get("/v1/sessions/ses_missing", headers=api.alice).status_code == 404
    assert api.client.get("/v1/artifacts/artifact_dc_missing", headers=api.alice).status_code == 404
    assert api.client.get("/v1/work-orders/drafts/WOD-missing", headers=api.alice).status_code == 404


def test_delete_removes_the_session_and_its_artifacts(api: Api) -> None:
    sid = new_session(api)
    say(api, sid, "What data do you have on Chiller 6?")
    artifact_id = api.client.get(f"/v1/sessions/{sid}/artifacts", headers=api.alice).json()[0]["id"]
    assert api.client.delete(f"/v1/sessions/{sid}", headers=api.alice).status_code == 204
    assert api.client.get(f"/v1/sessions/{sid}", headers=api.alice).status_code == 404
    assert api.client.get(f"/v1/artifacts/{artifact_id}", headers=api.alice).status_code == 404


def test_streamed_turn_delivers_server_sent_events(api: Api) -> None:
    sid = new_session(api)
    with api.client.stream("POST", f"/v1/sessions/{sid}/messages?stream=true", json={"content": "What can you do?"},
                           headers=api.alice) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        body = "".join(response.iter_text())
    kinds = [line.split(": ", 1)[1] for line in body.splitlines() if line.startswith("event: ")]
    assert kinds[0] == "turn_started" and kinds[-1] == "done" and "final_answer" in kinds
