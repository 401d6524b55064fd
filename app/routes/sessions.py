"""Sessions, their messages (turns) and the rollout export."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import PlainTextResponse, StreamingResponse

from app.auth import ApiUser
from app.deps import ResourcesDep
from app.locks import SessionBusy
from app.responses import AUTHENTICATED, WITH_BODY
from app.schemas import MessageCreate, SessionCreate, SessionDetail, SessionPublic, TurnReply
from app.services import sessions as session_service
from app.services.rollout import rollout_lines, to_jsonl
from app.services.turns import TurnExecution, load_events, start_turn
from app.state import Resources
from assetops.db.tables import SessionRow
from assetops.domain.events import TurnEvent
from graph.answering.long_output import markdown_text

router = APIRouter(prefix="/v1/sessions", tags=["sessions"], responses=AUTHENTICATED)


async def owned_session(resources: Resources, user: Any, session_id: str) -> SessionRow:
    """The caller's session or 404 (another user's session is indistinguishable from none)."""
    row = await session_service.get_session_row(resources.db, owner=user, session_id=session_id)
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"No session '{session_id}' for this API key.")
    return row


@router.post("", status_code=status.HTTP_201_CREATED, response_model=SessionPublic, summary="Start a session",
             responses={**WITH_BODY, 422: {"description": "Invalid body, or a reference_date outside the telemetry coverage."}})
async def create_session(body: SessionCreate, user: ApiUser, resources: ResourcesDep) -> SessionPublic:
    """Create a session; `reference_date` anchors relative periods such as "past month" and must lie
    within the loaded telemetry's coverage (422 naming the coverage otherwise)."""
    if body.reference_date is not None:
        problem = (await resources.coverage.get()).problem(body.reference_date)
        if problem is not None:
            raise HTTPException(422, problem)
    return await session_service.create_session(resources.db, owner=user, title=body.title,
                                                reference_date=body.reference_date or datetime.now(UTC).date())


@router.get("", response_model=list[SessionPublic], summary="The caller's sessions")
async def list_sessions(user: ApiUser, resources: ResourcesDep) -> list[SessionPublic]:
    return await session_service.list_sessions(resources.db, owner=user)


@router.get("/{session_id}", response_model=SessionDetail, summary="A session with its turns")
async def get_session(session_id: str, user: ApiUser, resources: ResourcesDep) -> SessionDetail:
    row = await owned_session(resources, user, session_id)
    turns = await session_service.session_turns(resources.db, session_id)
    return SessionDetail(id=row.id, title=row.title, reference_date=row.reference_date, created_at=row.created_at,
                         updated_at=row.updated_at, turns=turns)


@router.delete("/{session_id}", status_code=status.HTTP_204_NO_CONTENT, summary="Delete a session and its artifacts")
async def delete_session(session_id: str, user: ApiUser, resources: ResourcesDep) -> None:
    await owned_session(resources, user, session_id)
    await resources.artifacts.delete_session(session_id)
    await session_service.delete_session(resources.db, session_id)
    checkpointer = getattr(resources.deps, "checkpointer", None)
    if checkpointer is not None and hasattr(checkpointer, "adelete_thread"):
        await checkpointer.adelete_thread(session_id)


async def _start(resources: Resources, row: SessionRow, content: str) -> TurnExecution:
    if resources.deps is None:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE,
                            f"The chat engine is not running ({resources.startup_error}); see /readyz.")
    try:
        return await start_turn(deps=resources.deps, db=resources.db, bus=resources.bus, locks=resources.locks, metrics=resources.metrics,
                                session_id=row.id, message=content, reference_date=row.reference_date)
    except SessionBusy:
        raise HTTPException(status.HTTP_409_CONFLICT,
                            f"Session '{row.id}' is already answering a message; wait for that turn to finish "
                            "(watch it on the websocket) and send this one again.") from None


def _sse(event: TurnEvent) -> str:
    return f"event: {event.type}\ndata: {event.model_dump_json()}\n\n"


@router.post("/{session_id}/messages", response_model=TurnReply, summary="Send a message (one turn)",
             responses={**WITH_BODY, 409: {"description": "Another turn of this session is running."}})
async def post_message(session_id: str, body: MessageCreate, user: ApiUser, resources: ResourcesDep,
                       stream: Annotated[bool, Query(description="Stream the events as server-sent events.")] = False,
                       ) -> Any:
    """Run one turn. The reply holds the answer, every event, the artifacts and the timings;
    with `?stream=true` the same events arrive as server-sent events while the turn runs."""
    row = await owned_session(resources, user, session_id)
    execution = await _start(resources, row, body.content)
    if stream:
        async def sse() -> Any:
            async for event in execution.events():
                yield _sse(event)
        return StreamingResponse(sse(), media_type="text/event-stream")
    events = [event async for event in execution.events()]
    return await _reply(resources, events)


async def _reply(resources: Resources, events: list[TurnEvent]) -> TurnReply:
    final = next((e for e in reversed(events) if e.type == "final_answer"), None)
    done = next((e for e in reversed(events) if e.type == "done"), None)
    artifact_ids: list[str] = []
    for e in events:
        if e.type in ("artifact_created", "artifact_reused") and e.data.get("artifact_id") not in artifact_ids:
            artifact_ids.append(str(e.data.get("artifact_id")))
    artifacts = [a.compact() for a in [await resources.artifacts.get(i) for i in artifact_ids] if a is not None]
    return TurnReply(turn_id=(done.data.get("turn_id") if done else None), turn_index=events[0].turn_index if events else 0,
                     answer=str(final.data.get("text", "")) if final else "",
                     status=str(done.data.get("status", "ok")) if done else "error",
                     events=[e.model_dump(mode="json") for e in events], artifacts=artifacts,
                     timings=(done.data.get("timings") or {}) if done else {})


@router.get("/{session_id}/artifacts", summary="The session's artifacts (every finding and result)")
async def session_artifacts(session_id: str, user: ApiUser, resources: ResourcesDep) -> list[dict[str, Any]]:
    """Each artifact's compact view with all its observations and structured results (the web
    page shows every finding and its tables), `data_ref` (whether it has a data file) and
    `data_format` (that file's extension: csv / json)."""
    await owned_session(resources, user, session_id)
    return [a.compact() | {"turn_index": a.turn_index, "observations": a.observations, "results": a.results,
                           "data_ref": bool(a.data_ref),
                           "data_format": a.data_ref.rsplit(".", 1)[-1] if a.data_ref else None}
            for a in await resources.artifacts.list_session(session_id)]


@router.get("/{session_id}/artifacts/{artifact_id}/markdown", summary="One artifact as Markdown (a report's full text)",
            responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}}}})
async def artifact_markdown(session_id: str, artifact_id: str, user: ApiUser, resources: ResourcesDep) -> PlainTextResponse:
    """The full text an answer links to instead of cutting it: the same ownership check as the session."""
    await owned_session(resources, user, session_id)
    artifact = await resources.artifacts.get(artifact_id)
    if artifact is None or artifact.session_id != session_id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"No artifact '{artifact_id}' in session '{session_id}'.")
    return PlainTextResponse(markdown_text(artifact), media_type="text/markdown; charset=utf-8")


@router.get("/{session_id}/rollout", summary="The dialog as event-stream JSONL",
            responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}})
async def rollout(session_id: str, user: ApiUser, resources: ResourcesDep) -> PlainTextResponse:
    """Event-stream JSONL (docs/ROLLOUT_FORMAT.md), one timestamped agent event per line."""
    row = await owned_session(resources, user, session_id)
    lines = rollout_lines(session_id, await load_events(resources.db, session_id), reference_date=row.reference_date)
    return PlainTextResponse(to_jsonl(lines), media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="dialog_{session_id}.jsonl"'})
