"""Turns left "running" by a dead process are marked failed with the reason, at startup and when the
session's next turn starts; a session lock held by a dead process on this host does not block it."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis
from fastapi.testclient import TestClient

from app.locks import holder_is_dead
from app.main import create_app
from assetops.db.engine import Database
from assetops.db.tables import TurnRow
from tests.integration.service.conftest import Api

pytestmark = pytest.mark.integration


def _running_turn(api: Api, sid: str, index: int) -> None:
    async def add() -> None:
        db = Database(api.settings)
        try:
            async with db.session() as session:
                session.add(TurnRow(id=uuid.uuid4().hex, session_id=sid, index=index, user_message="cut short",
                                    status="running"))
        finally:
            await db.close()

    asyncio.run(add())


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_restart_marks_the_running_turn_failed_and_frees_a_dead_holders_lock(api: Api) -> None:
    sid = api.client.post("/v1/sessions", json={"reference_date": "2021-07-01"}, headers=api.alice).json()["id"]
    _running_turn(api, sid, 1)
    import socket

    dead = f"{socket.gethostname()}:{_dead_pid()}:abcd"
    assert holder_is_dead(dead) and not holder_is_dead(f"other-host:{_dead_pid()}:abcd")
    redis.Redis.from_url(api.settings.redis_url).set(f"assetops:lock:{sid}", dead, px=60_000)
    with TestClient(create_app(api.settings)) as restarted:
        turns = restarted.get(f"/v1/sessions/{sid}", headers=api.alice).json()["turns"]
        assert [(t["status"], t["error"][:12]) for t in turns] == [("failed", "interrupted:")]
        reply = restarted.post(f"/v1/sessions/{sid}/messages", json={"content": "What can you do?"}, headers=api.alice)
        assert reply.status_code == 200  # the dead holder's lock did not block the session


def test_the_next_turn_of_a_session_closes_its_interrupted_turn(api: Api) -> None:
    sid = api.client.post("/v1/sessions", json={"reference_date": "2021-07-01"}, headers=api.alice).json()["id"]
    assert api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "What can you do?"},
                           headers=api.alice).status_code == 200
    _running_turn(api, sid, 7)  # as if another process had died inside it after this app started
    assert api.client.post(f"/v1/sessions/{sid}/messages", json={"content": "What can you do?"},
                           headers=api.alice).status_code == 200
    statuses = {t["index"]: t["status"] for t in api.client.get(f"/v1/sessions/{sid}", headers=api.alice).json()["turns"]}
    assert statuses[7] == "failed" and "running" not in statuses.values()
