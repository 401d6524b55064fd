"""Helpers shared by the hostile-input tests: a session with one answered turn, and its intact-check."""

from __future__ import annotations

from typing import Any

from tests.integration.service.conftest import Api

SQL_SHAPED = ["' OR '1'='1", "x'; DROP TABLE sessions; --", "1 UNION SELECT key_hash FROM users --",
              "\"; DELETE FROM turns WHERE '1'='1", "%' OR 1=1 --", "ses_x' AND pg_sleep(5) --"]


def session_with_a_turn(api: Api, headers: dict[str, str] | None = None) -> str:
    """A new session of alice (or `headers`) with one answered turn."""
    headers = headers or api.alice
    sid = api.client.post("/v1/sessions", json={"title": "t", "reference_date": "2021-07-01"}, headers=headers).json()["id"]
    reply = api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "What data do you have on Chiller 6?"},
                            headers=headers)
    assert reply.status_code == 200, reply.text
    return str(sid)


def snapshot(api: Api, sid: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The session's turns (message, status, answer), asserting the session still reads back."""
    response = api.client.get(f"/v1/sessions/{sid}", headers=headers or api.alice)
    assert response.status_code == 200, response.text
    return [{k: t[k] for k in ("index", "user_message", "status", "answer")} for t in response.json()["turns"]]
