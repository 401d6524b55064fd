"""Hostile and malformed input on the real PostgreSQL + Redis service: each case gets the right status,
and the session it aimed at is intact afterwards (same turns, still answering)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.integration.service.conftest import Api
from tests.integration.service.hostile import SQL_SHAPED, session_with_a_turn, snapshot

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("reference_date", ["1900-01-01", "2016-01-01", "2030-06-01"])
def test_a_reference_date_outside_the_coverage_is_422_naming_it(api: Api, reference_date: str) -> None:
    response = api.client.post("/v1/sessions", json={"reference_date": reference_date}, headers=api.alice)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert "outside the telemetry coverage 2021-05-01 to 2021-06-30" in detail  # read from the loaded fleet
    assert api.client.post("/v1/sessions", json={"reference_date": "2021-07-01"}, headers=api.alice).status_code == 201


def test_security_headers_on_every_kind_of_response(api: Api) -> None:
    responses = [api.client.get("/healthz"), api.client.get("/v1/sessions", headers=api.alice),
                 api.client.get("/v1/sessions"), api.client.get("/v1/sessions/nope", headers=api.alice),
                 api.client.post("/v1/sessions", content=b"x" * (api.settings.max_request_bytes + 1), headers=api.alice),
                 api.client.get("/")]
    assert [r.status_code for r in responses] == [200, 200, 401, 404, 413, 200]
    for response in responses:
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["referrer-policy"] == "no-referrer"


def test_cors_is_off_by_default_and_on_for_listed_origins_only(api: Api) -> None:
    preflight = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    assert "access-control-allow-origin" not in api.client.options("/v1/sessions", headers=preflight).headers
    assert "access-control-allow-origin" not in api.client.get("/healthz", headers={"Origin": "https://evil.example"}).headers
    settings = api.settings.model_copy(update={"cors_origins": ["https://ops.example"]})
    with TestClient(create_app(settings)) as client:
        allowed = client.options("/v1/sessions", headers={**preflight, "Origin": "https://ops.example"})
        assert allowed.headers.get("access-control-allow-origin") == "https://ops.example"
        refused = client.options("/v1/sessions", headers=preflight)
        assert "access-control-allow-origin" not in refused.headers


# Invalid UTF-8, and JSON nested past the parser's recursion limit: the body cannot be parsed at all.
UNPARSEABLE: list[bytes] = [b'{"content": "\xff\xfe bad utf-8"}', b"\xc3\x28\xa0\xa1", b"[" * 5000 + b"]" * 5000]
MALFORMED: list[tuple[bytes, str]] = [
    (b"{not json", "application/json"),
    (b'["content", "x"]', "application/json"),
    (b"42", "application/json"),
    (b"null", "application/json"),
    (b'{"content": ""}', "application/json"),
    (b'{"content": 12}', "application/json"),
    (b'{"content": {"$ne": null}}', "application/json"),
    (b"content=hello", "application/x-www-form-urlencoded"),
    (b'{"content": "x"}', "text/plain"),
]


def test_malformed_bodies_are_422_and_the_session_is_intact(api: Api) -> None:
    sid = session_with_a_turn(api)
    before = snapshot(api, sid)
    for body, content_type in MALFORMED:
        response = api.client.post(f"/v1/sessions/{sid}/messages", content=body,
                                   headers={**api.alice, "Content-Type": content_type})
        assert response.status_code == 422, (body[:40], response.status_code, response.text[:200])
        assert snapshot(api, sid) == before
    for body in UNPARSEABLE:  # FastAPI's 400 "error parsing the body"
        response = api.client.post(f"/v1/sessions/{sid}/messages", content=body,
                                   headers={**api.alice, "Content-Type": "application/json"})
        assert response.status_code == 400 and "parsing the body" in response.json()["detail"]
        assert snapshot(api, sid) == before
    bad_session = api.client.post("/v1/sessions", content=b'{"title": "\xff"}',
                                  headers={**api.alice, "Content-Type": "application/json"})
    assert bad_session.status_code == 400
    assert api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "What can you do?"},
                           headers=api.alice).status_code == 200
    assert len(snapshot(api, sid)) == len(before) + 1


def test_oversized_bodies_declared_or_streamed_are_413_and_the_session_is_intact(api: Api) -> None:
    sid = session_with_a_turn(api)
    before = snapshot(api, sid)
    limit = api.settings.max_request_bytes

    def chunks():  # type: ignore[no-untyped-def]  # no Content-Length: the limit applies while streaming
        yield b'{"content": "'
        for _ in range(limit // 1000 + 2):
            yield b"y" * 1000
        yield b'"}'

    for content in (json.dumps({"content": "x" * (limit + 1)}).encode(), chunks()):
        response = api.client.post(f"/v1/sessions/{sid}/messages", content=content,
                                   headers={**api.alice, "Content-Type": "application/json"})
        assert response.status_code == 413, response.text[:200]
        assert snapshot(api, sid) == before


def test_sql_shaped_strings_in_every_parameter_are_plain_data(api: Api) -> None:
    sid = session_with_a_turn(api)
    before = snapshot(api, sid)
    sessions_before = api.client.get("/v1/sessions", headers=api.alice).json()
    for hostile in SQL_SHAPED:
        assert api.client.get(f"/v1/sessions/{hostile}", headers=api.alice).status_code == 404
        assert api.client.get(f"/v1/sessions/{hostile}/artifacts", headers=api.alice).status_code == 404
        assert api.client.get(f"/v1/sessions/{hostile}/rollout", headers=api.alice).status_code == 404
        assert api.client.delete(f"/v1/sessions/{hostile}", headers=api.alice).status_code == 404
        assert api.client.post(f"/v1/sessions/{hostile}/messages", json={"content": "hi"},
                               headers=api.alice).status_code == 404
        assert api.client.get(f"/v1/artifacts/{hostile}", headers=api.alice).status_code == 404
        assert api.client.get(f"/v1/artifacts/{hostile}/data", headers=api.alice).status_code == 404
        assert api.client.get(f"/v1/work-orders/drafts/{hostile}", headers=api.alice).status_code == 404
        assert api.client.get(f"/v1/sessions/{sid}/messages?stream={hostile}", headers=api.alice).status_code == 405
        assert api.client.post(f"/v1/sessions/{sid}/messages?stream={hostile}", json={"content": "x"},
                               headers=api.alice).status_code == 422
        assert api.client.post("/v1/sessions", json={"reference_date": hostile}, headers=api.alice).status_code == 422
        assert api.client.get("/v1/sessions", headers={"Authorization": f"Bearer {hostile}"}).status_code == 401
        titled = api.client.post("/v1/sessions", json={"title": hostile, "reference_date": "2021-07-01"},
                                 headers=api.alice)
        assert titled.status_code == 201 and titled.json()["title"] == hostile  # stored verbatim, not executed
        api.client.delete(f"/v1/sessions/{titled.json()['id']}", headers=api.alice)
    said = api.client.post(f"/v1/sessions/{sid}/messages", json={"content": SQL_SHAPED[1]}, headers=api.alice)
    assert said.status_code == 200 and said.json()["answer"]
    assert snapshot(api, sid)[:len(before)] == before
    assert [s["id"] for s in api.client.get("/v1/sessions", headers=api.alice).json()] == [s["id"] for s in sessions_before] or \
        {s["id"] for s in sessions_before} <= {s["id"] for s in api.client.get("/v1/sessions", headers=api.alice).json()}


def test_websocket_garbage_frames_get_errors_and_the_socket_keeps_working(api: Api) -> None:
    sid = session_with_a_turn(api)
    before = snapshot(api, sid)
    token = api.alice["Authorization"].split()[1]
    garbage: list[tuple[str, object, int]] = [
        ("bytes", b"\xff\xfe\x00garbage", 422), ("bytes", b"\x00" * 10, 422), ("text", "null", 422),
        ("text", "[]", 422), ("text", '{"content": ""}', 422), ("text", '{"content": "x", "extra": 1}', 422),
        ("text", "{" * 3000, 422), ("text", "x" * (api.settings.max_request_bytes + 1), 413),
    ]
    with api.client.websocket_connect(f"/v1/sessions/{sid}/ws?token={token}") as ws:
        for kind, frame, expected in garbage:
            ws.send_bytes(frame) if kind == "bytes" else ws.send_text(frame)  # type: ignore[arg-type]
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["data"]["status"] == expected, (frame, reply)
        ws.send_bytes(json.dumps({"content": "What can you do?"}).encode())  # a binary frame of UTF-8 JSON is fine
        while json.loads(ws.receive_text())["type"] != "done":
            pass
    after = snapshot(api, sid)
    assert after[:len(before)] == before and len(after) == len(before) + 1
