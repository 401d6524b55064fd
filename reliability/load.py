"""`make load`: N concurrent 5-turn dialogs against a live PostgreSQL + Redis service, from this process.

    python -m reliability.load                    # 50 sessions x 5 turns, default fleet
    python -m reliability.load --sessions 10      # fewer
    python -m reliability.load --small-fleet      # May-June 2021 only (faster setup)

Starts its own Redis, PostgreSQL schema (fleet loaded) and uvicorn service with its tool worker
processes on loopback; drives the dialogs with httpx (even sessions) and websockets (odd ones);
prints turns/s, latency by turn position, errors and the time split; then verifies that every turn
of every session is stored, in order, with its artifacts. Bounded by --deadline-s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from reliability.load_report import TurnSample, report, verify_sessions
from reliability.stack import PgSchema, RedisServer, Service, create_api_key, service_env, service_settings

CHILLERS = ("Chiller 4", "Chiller 6", "Chiller 9", "Chiller 3")
DIALOG = (
    "Show {c} Power Input and Tonnage for June 2021.",                      # telemetry
    "Any anomalies on {c} Power Input in June 2021?",                       # anomaly detection (TTM)
    "Which failure modes could explain that?",                              # failure reasoning
    "Were there corrective work orders on {c} since 2020?",                 # work orders
    "Draft a work order for the most likely one.",                          # work-order draft
)
REFERENCE_DATE = "2021-07-01"


def dialog_of(index: int) -> list[str]:
    """Session `index`'s five messages (chillers rotate so sessions do not all ask the same)."""
    return [text.format(c=CHILLERS[index % len(CHILLERS)]) for text in DIALOG]


async def _rest_turn(client: httpx.AsyncClient, sid: str, text: str) -> dict:  # type: ignore[type-arg]
    response = await client.post(f"/v1/sessions/{sid}/messages", json={"content": text})
    if response.status_code != 200:
        return {"status": f"http {response.status_code}", "events": [], "timings": {}, "artifacts": []}
    return response.json()  # type: ignore[no-any-return]


async def _ws_turn(ws: websockets.ClientConnection, text: str) -> dict:  # type: ignore[type-arg]
    await ws.send(json.dumps({"content": text}))
    events: list[dict] = []  # type: ignore[type-arg]
    while True:
        event = json.loads(await ws.recv())
        if event.get("type") == "error" and "status" in event.get("data", {}) and not events:
            return {"status": f"ws {event['data']['status']}", "events": [], "timings": {}, "artifacts": []}
        events.append(event)
        if event["type"] == "done":
            break
    done = events[-1]["data"]
    ids = {e["data"].get("artifact_id") for e in events if e["type"] in ("artifact_created", "artifact_reused")}
    return {"status": done.get("status"), "events": events, "timings": done.get("timings") or {},
            "artifacts": [{"id": i} for i in ids if i]}


async def run_session(index: int, url: str, key: str, samples: list[TurnSample], sids: dict[str, list[str]]) -> None:
    """One session: create it, then its five turns one after another, recording each turn."""
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=900.0) as client:
        created = await client.post("/v1/sessions", json={"title": f"load {index}", "reference_date": REFERENCE_DATE})
        created.raise_for_status()
        sid = str(created.json()["id"])
        sids[sid] = dialog_of(index)
        ws = None
        if index % 2:
            ws = await websockets.connect(f"{url.replace('http', 'ws')}/v1/sessions/{sid}/ws?token={key}",
                                          max_size=None, open_timeout=60)
        try:
            for position, text in enumerate(dialog_of(index), start=1):
                started = time.perf_counter()
                try:
                    reply = await (_ws_turn(ws, text) if ws is not None else _rest_turn(client, sid, text))
                except (httpx.HTTPError, websockets.WebSocketException, OSError) as exc:
                    reply = {"status": f"client error {type(exc).__name__}", "events": [], "timings": {}, "artifacts": []}
                samples.append(TurnSample.of(sid, position, time.perf_counter() - started, reply))
        finally:
            if ws is not None:
                await ws.close()


async def drive(url: str, key: str, sessions: int, deadline_s: float) -> tuple[list[TurnSample], dict[str, list[str]], float]:
    """All sessions at once, bounded by `deadline_s`; (samples, session id -> its messages, seconds)."""
    samples: list[TurnSample] = []
    sids: dict[str, list[str]] = {}
    started = time.perf_counter()
    tasks = [asyncio.create_task(run_session(i, url, key, samples, sids)) for i in range(sessions)]
    done, pending = await asyncio.wait(tasks, timeout=deadline_s)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            print(f"session failed: {task.exception()!r}", file=sys.stderr)
    return samples, sids, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=50, help="concurrent sessions (default 50)")
    parser.add_argument("--deadline-s", type=float, default=1500.0, help="stop the dialogs after this long")
    parser.add_argument("--small-fleet", action="store_true", help="load May-June 2021 only (faster setup)")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="assetops-load-"))
    schema, redis = PgSchema(), RedisServer()
    settings = service_settings(root, schema.url, redis.url)
    service = Service(service_env(settings))
    try:
        redis.start()
        setup = time.perf_counter()
        schema.create(settings, full_fleet=not args.small_fleet)
        key = create_api_key(settings, "load")
        service.start()
        print(f"stack ready in {time.perf_counter() - setup:.0f} s: PostgreSQL schema {schema.name}, Redis :{redis.port}, "
              f"service {service.url} with {len(service.worker_pids())} tool worker processes", flush=True)
        samples, sids, seconds = asyncio.run(drive(service.url, key, args.sessions, args.deadline_s))
        print(report(samples, seconds, args.sessions, len(DIALOG)))
        if service.process is None or service.process.poll() is not None:
            code = service.process.returncode if service.process is not None else None
            print(f"FAIL load: the service process exited during the run (code {code}; log {service.log_path})")
            return 1
        problems = verify_sessions(service.url, key, sids, samples)
        for problem in problems[:20]:
            print(f"  stored-turn problem: {problem}")
        errors = [s for s in samples if not s.ok]
        complete = len(samples) == args.sessions * len(DIALOG)
        verdict = complete and not errors and not problems
        print(f"{'PASS' if verdict else 'FAIL'} load: {len(samples)}/{args.sessions * len(DIALOG)} turns answered, "
              f"{len(errors)} errors, {len(problems)} storage problems (every turn stored in order with its artifacts)")
        return 0 if verdict else 1
    finally:
        service.stop()
        redis.stop()
        schema.drop()


if __name__ == "__main__":
    sys.exit(main())
