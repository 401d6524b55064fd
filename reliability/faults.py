"""`make faults`: infrastructure failures injected into a live service, each ending in PASS/FAIL.

    python -m reliability.faults                 # every scenario
    python -m reliability.faults --only redis    # one (names: see SCENARIOS)

Loopback only; every scenario starts its own service (and Redis) and is bounded in time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from reliability.stack import PgSchema, RedisServer, Service, create_api_key, service_env, service_settings

REF = "2021-07-01"  # the small fleet covers May-June 2021
DATA_TURN = "What data do you have on Chiller 6?"
WINDOW_TURN = "Show Chiller 6 Power Input and Tonnage for June 2021."
ANOMALY_TURN = "Any anomalies on Chiller 6 Power Input in June 2021?"
FINISHED = {"ok", "partial", "error", "failed", "rejected"}


@dataclass
class Verdict:
    """One scenario's outcome and the evidence behind it."""

    name: str
    passed: bool
    detail: str


class Run:
    """One scenario's stack: Redis, a PostgreSQL schema with the small fleet, a service, a user."""

    def __init__(self, root: Path, schema: PgSchema, redis: RedisServer, **setting_overrides: object) -> None:
        self.root, self.schema, self.redis = root, schema, redis
        self.settings = service_settings(root, schema.url, redis.url, **setting_overrides)
        self.key = ""
        self.service: Service | None = None

    def start_service(self, *, wait_ready: bool = True, **env: str) -> Service:
        self.service = Service(service_env(self.settings, **env))
        self.service.start(wait_ready=wait_ready)
        return self.service

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def new_session(self) -> str:
        assert self.service is not None
        response = httpx.post(f"{self.service.url}/v1/sessions", json={"reference_date": REF}, headers=self.headers)
        response.raise_for_status()
        return str(response.json()["id"])

    def say(self, sid: str, text: str, *, timeout: float = 240.0) -> httpx.Response:
        assert self.service is not None
        return httpx.post(f"{self.service.url}/v1/sessions/{sid}/messages", json={"content": text},
                          headers=self.headers, timeout=timeout)

    def turns(self, sid: str) -> list[dict[str, Any]]:
        assert self.service is not None
        response = httpx.get(f"{self.service.url}/v1/sessions/{sid}", headers=self.headers, timeout=30)
        response.raise_for_status()
        return list(response.json()["turns"])

    def readyz(self) -> tuple[int, dict[str, Any]]:
        assert self.service is not None
        response = httpx.get(f"{self.service.url}/readyz", timeout=10)
        return response.status_code, response.json()


def _say_in_background(run: Run, sid: str, text: str) -> tuple[threading.Thread, dict[str, Any]]:
    box: dict[str, Any] = {}

    def go() -> None:
        try:
            box["response"] = run.say(sid, text)
        except httpx.HTTPError as exc:  # the API was killed under this request
            box["error"] = f"{type(exc).__name__}: {exc}"

    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    return thread, box


def _wait_running(run: Run, sid: str, timeout_s: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(t["status"] == "running" for t in run.turns(sid)):
            return True
        time.sleep(0.05)
    return False


def redis_restart(run: Run) -> Verdict:
    """Redis stopped and restarted: turns keep succeeding, /readyz says degraded (200), the cache is used again."""
    run.start_service()
    sid = run.new_session()
    before = run.say(sid, DATA_TURN).status_code
    run.redis.stop()
    down = [run.say(sid, text).status_code for text in (WINDOW_TURN, DATA_TURN)]
    ready_code, ready = run.readyz()
    run.redis.start()
    deadline, keys = time.monotonic() + 60, 0
    while time.monotonic() < deadline and keys == 0:  # the cache retries Redis after its pause
        run.say(sid, DATA_TURN)
        keys = run.redis.key_count()
        time.sleep(1.0)
    after_code, after = run.readyz()
    ok = (before == 200 and down == [200, 200] and ready_code == 200 and ready["status"] == "degraded"
          and keys > 0 and after["status"] == "ready" and len(run.turns(sid)) >= 4
          and all(t["status"] in FINISHED for t in run.turns(sid)))
    return Verdict("redis", ok, f"turn statuses before/while down {before}/{down}; /readyz while down {ready_code} "
                                f"{ready['status']!r} ({ready.get('reason', '')[:80]}); Redis keys after restart {keys}; "
                                f"/readyz after {after_code} {after['status']!r}")


def pg_terminate(run: Run) -> Verdict:
    """pg_terminate_backend during turns: in-flight turns fail cleanly or retry, later ones succeed, none stays running."""
    run.start_service()
    sids = [run.new_session() for _ in range(3)]
    jobs = [_say_in_background(run, sid, WINDOW_TURN) for sid in sids]
    killed, deadline = 0, time.monotonic() + 8
    while time.monotonic() < deadline and any(t.is_alive() for t, _ in jobs):
        killed += run.schema.terminate_backends()
        time.sleep(0.2)
    for thread, _ in jobs:
        thread.join(timeout=240)
    codes = [box["response"].status_code if box.get("response") is not None else box.get("error") for _, box in jobs]
    later = [run.say(sid, DATA_TURN).status_code for sid in sids]
    turns = [t for sid in sids for t in run.turns(sid)]
    stuck = [t for t in turns if t["status"] not in FINISHED]
    ok = killed > 0 and all(c in (200, 503) for c in codes) and later == [200, 200, 200] and not stuck and \
        len(turns) >= len(sids)
    return Verdict("pg_terminate", ok, f"{killed} backends terminated during 3 turns; in-flight replies {codes}; "
                                       f"later turns {later}; turn statuses {[t['status'] for t in turns]}")


def worker_kill(run: Run) -> Verdict:
    """A tool worker process killed mid-turn: the turn completes or is marked failed, never stuck running."""
    service = run.start_service(ASSETOPS_TOOL_WORKER_PROCESSES="2")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not service.worker_pids():
        time.sleep(0.2)
    sid = run.new_session()
    thread, box = _say_in_background(run, sid, WINDOW_TURN)
    _wait_running(run, sid)
    import os
    import signal

    pids = service.worker_pids()
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    thread.join(timeout=240)
    reply = box.get("response")
    later = run.say(sid, DATA_TURN).status_code
    statuses = [t["status"] for t in run.turns(sid)]
    ok = bool(pids) and reply is not None and reply.status_code == 200 and later == 200 and \
        len(statuses) == 2 and all(s in FINISHED for s in statuses)
    status = reply.json().get("status") if reply is not None and reply.status_code == 200 else box.get("error")
    return Verdict("worker_kill", ok, f"killed workers {pids} mid-turn; that turn's reply "
                                      f"{reply.status_code if reply is not None else None} status {status!r}; "
                                      f"next turn {later}; statuses {statuses}")


def api_kill(run: Run) -> Verdict:
    """The API killed mid-turn and restarted: the session resumes and the turn is marked failed with a reason."""
    service = run.start_service()
    sid = run.new_session()
    first = run.say(sid, DATA_TURN).status_code
    thread, _ = _say_in_background(run, sid, ANOMALY_TURN)
    running = _wait_running(run, sid)
    service.kill()
    thread.join(timeout=30)
    service.start()
    turns = run.turns(sid)
    interrupted = [t for t in turns if t["user_message"] == ANOMALY_TURN]
    started, resumed = time.monotonic(), None
    while time.monotonic() - started < 60:  # the dead process's session lock lapses within its TTL
        resumed = run.say(sid, DATA_TURN)
        if resumed.status_code != 409:
            break
        time.sleep(2.0)
    waited = time.monotonic() - started
    final = run.turns(sid)
    ok = (first == 200 and running and len(interrupted) == 1 and interrupted[0]["status"] == "failed"
          and "interrupted" in (interrupted[0].get("error") or "") and resumed is not None
          and resumed.status_code == 200 and all(t["status"] in FINISHED for t in final))
    return Verdict("api_kill", ok, f"turn running when killed: {running}; after restart it reads "
                                   f"{interrupted[0]['status'] if interrupted else None!r} "
                                   f"({(interrupted[0].get('error') or '')[:60] if interrupted else ''}...); next turn "
                                   f"{resumed.status_code if resumed else None} after {waited:.1f} s; "
                                   f"turn indexes {[t['index'] for t in final]}")


def tool_failures(run: Run) -> Verdict:
    """Tool timeouts and tool exceptions: an honest answer that says what is missing."""
    run.start_service(ASSETOPS_TOOL_TIMEOUT_S="0.001")
    sid = run.new_session()
    timed_out = run.say(sid, WINDOW_TURN).json()
    assert run.service is not None
    run.service.stop()
    run.start_service()
    sid2 = run.new_session()
    run.schema.execute("ALTER TABLE telemetry RENAME TO telemetry_gone")  # every telemetry read now raises
    try:
        failed = run.say(sid2, WINDOW_TURN).json()
    finally:
        run.schema.execute("ALTER TABLE telemetry_gone RENAME TO telemetry")
    later = run.say(sid2, WINDOW_TURN).json()
    honest = ("timed out", "timeout", "could not", "no data", "not available", "missing", "failed", "unavailable")
    t_ok = timed_out["status"] in ("partial", "error") and any(w in timed_out["answer"].lower() for w in honest)
    e_ok = failed["status"] in ("partial", "error") and any(w in failed["answer"].lower() for w in honest)
    return Verdict("tool_failures", t_ok and e_ok and later["status"] == "ok",
                   f"timeout turn {timed_out['status']!r}: {_first_lines(timed_out['answer'])!r}; exception turn "
                   f"{failed['status']!r}: {_first_lines(failed['answer'])!r}; after the fix {later['status']!r}")


def _first_lines(text: str, limit: int = 160) -> str:
    return " / ".join(text.splitlines()[:3])[:limit]


def work_dir(run: Run) -> Verdict:
    """An unwritable work directory: a clear error, no crash (at startup: /readyz 503 naming it; mid-run: the turn says so)."""
    import shutil

    blocked = run.root / "blocked"
    blocked.write_text("a file where the work directory should be\n")
    service = run.start_service(wait_ready=False, ASSETOPS_WORK_DIR=str(blocked / "work"))
    code, body = run.readyz()
    alive = service.process is not None and service.process.poll() is None
    start_ok = code == 503 and "work directory" in body.get("reason", "") and alive
    service.stop()
    run.start_service()
    sid = run.new_session()
    shutil.rmtree(run.settings.work_dir)
    run.settings.work_dir.write_text("not a directory any more\n")  # the work dir vanishes mid-run
    try:
        reply = run.say(sid, WINDOW_TURN)
        answer = reply.json() if reply.status_code == 200 else {"status": reply.status_code, "answer": reply.text}
    finally:
        run.settings.work_dir.unlink()
        run.settings.work_dir.mkdir()
    later = run.say(sid, DATA_TURN).status_code
    mid_ok = answer.get("status") in ("partial", "error") and later == 200
    return Verdict("work_dir", start_ok and mid_ok,
                   f"startup: /readyz {code} ({body.get('reason', '')[:90]}...), process alive {alive}; mid-run turn "
                   f"{answer.get('status')!r}: {str(answer.get('answer'))[:100]!r}; next turn {later}")


SCENARIOS: dict[str, Callable[[Run], Verdict]] = {
    "redis": redis_restart, "pg_terminate": pg_terminate, "worker_kill": worker_kill, "api_kill": api_kill,
    "tool_failures": tool_failures, "work_dir": work_dir,
}


def run_scenario(name: str) -> Verdict:
    """Start a fresh stack, run one scenario, tear everything down; an exception is a FAIL with its reason."""
    root = Path(tempfile.mkdtemp(prefix=f"assetops-fault-{name}-"))
    schema, redis = PgSchema(), RedisServer()
    run = Run(root, schema, redis)
    started = time.monotonic()
    try:
        redis.start()
        schema.create(run.settings, full_fleet=False)
        run.key = create_api_key(run.settings, f"faults-{name}")
        verdict = SCENARIOS[name](run)
    except Exception as exc:  # the verdict says what broke; nothing is left running
        verdict = Verdict(name, False, f"scenario error: {type(exc).__name__}: {exc}")
    finally:
        if run.service is not None:
            run.service.stop()
        redis.stop()
        schema.drop()
    verdict.detail += f" [{time.monotonic() - started:.0f} s]"
    return verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=sorted(SCENARIOS), action="append", help="run only these scenarios")
    args = parser.parse_args(argv)
    verdicts = []
    for name in args.only or list(SCENARIOS):
        verdict = run_scenario(name)
        verdicts.append(verdict)
        print(f"{'PASS' if verdict.passed else 'FAIL'} {verdict.name}: {verdict.detail}", flush=True)
    passed = sum(v.passed for v in verdicts)
    print(f"faults: {passed}/{len(verdicts)} scenarios passed")
    return 0 if passed == len(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
