"""Websocket `/v1/sessions/{id}/ws`: send {"content": ...}, receive the turn's events as they happen.

Every client watching a session receives every event of its turns, whoever sent the message: the
events travel through the session bus (Redis pub/sub when configured, so across workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from app.auth import websocket_user
from app.locks import SessionBusy
from app.schemas import MessageCreate
from app.services import sessions as session_service
from app.services.turns import start_turn
from app.state import Resources

router = APIRouter(tags=["sessions"])


def _error(message: str, status: int) -> str:
    return json.dumps({"type": "error", "data": {"status": status, "message": message}})


@router.websocket("/v1/sessions/{session_id}/ws")
async def session_socket(websocket: WebSocket, session_id: str) -> None:
    resources: Resources = websocket.app.state.resources
    user = await websocket_user(websocket)
    if user is None:
        await websocket.close(code=4401, reason="missing or unknown API key (Bearer header or ?token=)")
        return
    row = await session_service.get_session_row(resources.db, owner=user, session_id=session_id)
    if row is None:
        await websocket.close(code=4404, reason=f"no session '{session_id}' for this API key")
        return
    await websocket.accept()
    async with resources.bus.subscribe(session_id) as messages:
        forward = asyncio.create_task(_forward(websocket, messages))
        try:
            await _receive(websocket, resources, row)
        except WebSocketDisconnect:
            pass
        finally:
            forward.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await forward


async def _forward(websocket: WebSocket, messages: Any) -> None:
    async for payload in messages:
        await websocket.send_text(payload)


def _frame_text(frame: Mapping[str, Any], max_bytes: int) -> tuple[str | None, str | None]:
    """(text, None) for a usable frame, (None, error payload) for binary garbage, bad UTF-8 or oversize."""
    raw: str | bytes | None = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
    if raw is None:
        return None, _error("empty frame: send JSON like {\"content\": \"...\"}", 422)
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > max_bytes:
        return None, _error(f"message of {size:,} bytes is over the limit of {max_bytes:,} bytes", 413)
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8"), None
        except UnicodeDecodeError:
            return None, _error("binary frame that is not UTF-8 text: send JSON like {\"content\": \"...\"}", 422)
    return raw, None


async def _receive(websocket: WebSocket, resources: Resources, row: Any) -> None:
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        raw, problem = _frame_text(frame, resources.settings.max_request_bytes)
        if problem is not None or raw is None:
            await websocket.send_text(problem or _error("empty frame", 422))
            continue
        try:
            message = MessageCreate.model_validate_json(raw)
        except ValidationError as exc:
            await websocket.send_text(_error(f"send JSON like {{\"content\": \"...\"}} ({exc.errors()[0]['msg']})", 422))
            continue
        if resources.deps is None:  # storage was down at startup: say so, as REST does with a 503
            await websocket.send_text(_error(f"the chat engine is not running ({resources.startup_error}); "
                                             "see /readyz", 503))
            continue
        try:
            await start_turn(deps=resources.deps, db=resources.db, bus=resources.bus, locks=resources.locks, metrics=resources.metrics,
                             session_id=row.id, message=message.content, reference_date=row.reference_date)
        except SessionBusy:
            await websocket.send_text(_error("this session is already answering a message; wait for 'done'", 409))
