"""One worker subprocess (`tools.framework.worker_main`) seen from this process.

Requests may be pipelined: the worker answers them in order, and a reader thread hands each answer
to the caller waiting for it. So a worker starts its next task the moment it finishes one, instead
of waiting for this process to read the answer and send another request, which can take a switch
interval (5 ms) per step when this process is busy.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import select
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import orjson

from assetops.profiling import QueryRecord
from tools.framework.tasks import TaskError, TaskOutput, query_records
from tools.framework.worker_main import REQUEST_HEAD, RESPONSE_HEAD

try:
    import fcntl
except ImportError:  # not on Windows: pipes keep their default size there
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PIPE_BYTES = 1 << 20  # the default maximum of /proc/sys/fs/pipe-max-size
_READ_CHUNK = 1 << 20

Answer = tuple[TaskOutput, list[QueryRecord]]


class WorkerGone(RuntimeError):
    """The worker process died, closed its pipe or overran its deadline."""


def _widen_pipe(fd: int) -> None:
    """Let a whole answer fit in the pipe (Linux), so the worker never waits for this process.

    With the default 64 KiB a 370 KB answer takes several reads, each waiting for the GIL; measured,
    it tripled the time a worker call took while this process was busy.
    """
    set_size = getattr(fcntl, "F_SETPIPE_SZ", 1031) if fcntl is not None else None
    if set_size is None:
        return
    try:
        fcntl.fcntl(fd, set_size, PIPE_BYTES)
    except OSError:  # above /proc/sys/fs/pipe-max-size for unprivileged users: keep the default
        log.debug("could not widen the worker pipe to %d bytes", PIPE_BYTES)


class WorkerProcess:
    """A worker subprocess: `submit` requests (any thread), `call` to wait for one's answer."""

    def __init__(self, preload: tuple[str, ...]) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT_ROOT), env.get("PYTHONPATH", "")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tools.framework.worker_main", *preload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=PROJECT_ROOT, env=env, bufsize=0,
        )
        self.pid = self.process.pid
        assert self.process.stdout is not None
        _widen_pipe(self.process.stdout.fileno())
        self._pending: deque[concurrent.futures.Future[Answer]] = deque()
        self._lock = threading.Lock()
        self._gone: WorkerGone | None = None

    # -- reading frames ----------------------------------------------------------------------------
    def _read(self, size: int, deadline: float | None) -> bytes:
        assert self.process.stdout is not None
        fd, data = self.process.stdout.fileno(), bytearray()
        while len(data) < size:
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                    raise WorkerGone(f"worker {self.pid} gave no answer in time")
            chunk = os.read(fd, min(size - len(data), _READ_CHUNK))
            if not chunk:
                raise WorkerGone(f"worker {self.pid} exited (code {self.process.poll()})")
            data += chunk
        return bytes(data)

    def _response(self, deadline: float | None) -> tuple[dict[str, Any], bytes]:
        head_size, payload_size = RESPONSE_HEAD.unpack(self._read(RESPONSE_HEAD.size, deadline))
        header = orjson.loads(self._read(head_size, deadline))
        return header, self._read(payload_size, deadline) if payload_size else b""

    def wait_ready(self, timeout_s: float) -> None:
        """Block until the worker has imported its modules, then start reading its answers."""
        header, _ = self._response(time.monotonic() + timeout_s)
        if not header.get("meta", {}).get("ready"):
            raise WorkerGone(f"worker {self.pid} sent {header} instead of its ready signal")
        threading.Thread(target=self._read_answers, name=f"assetops-worker-{self.pid}", daemon=True).start()

    def _read_answers(self) -> None:
        while True:
            try:
                header, payload = self._response(None)
            except (WorkerGone, OSError, ValueError) as exc:
                self._fail(exc if isinstance(exc, WorkerGone) else WorkerGone(f"worker {self.pid}: {exc}"))
                return
            with self._lock:
                future = self._pending.popleft() if self._pending else None
            if future is None:
                self._fail(WorkerGone(f"worker {self.pid} answered a request nobody sent"))
                return
            if header.get("ok"):
                output = TaskOutput(meta=header.get("meta") or {}, payload=payload)
                future.set_result((output, query_records(header.get("queries") or [])))
            else:
                future.set_exception(TaskError(str(header.get("error"))))

    def _fail(self, gone: WorkerGone) -> None:
        with self._lock:
            self._gone = gone
            pending, self._pending = list(self._pending), deque()
        for future in pending:
            if not future.done():
                future.set_exception(gone)

    # -- requests ----------------------------------------------------------------------------------
    @property
    def outstanding(self) -> int:
        """Requests sent and not answered yet."""
        return len(self._pending)

    def submit(self, name: str, kwargs: dict[str, Any]) -> concurrent.futures.Future[Answer]:
        """Send a request; the future resolves with its answer (TaskError / WorkerGone on failure)."""
        assert self.process.stdin is not None
        future: concurrent.futures.Future[Answer] = concurrent.futures.Future()
        request = orjson.dumps({"task": name, "kwargs": kwargs})
        with self._lock:
            if self._gone is not None:
                future.set_exception(self._gone)
                return future
            self._pending.append(future)
            try:
                self.process.stdin.write(REQUEST_HEAD.pack(len(request)) + request)
            except OSError as exc:
                self._pending.pop()
                future.set_exception(WorkerGone(f"worker {self.pid} is gone: {exc}"))
        return future

    def call(self, name: str, kwargs: dict[str, Any], timeout_s: float) -> Answer:
        """Run task `name` there and wait; its output and database queries. TaskError if it failed."""
        try:
            return self.submit(name, kwargs).result(timeout=timeout_s)
        except concurrent.futures.TimeoutError as exc:
            raise WorkerGone(f"worker {self.pid} gave no answer in {timeout_s:g} s") from exc

    def close(self) -> None:
        """Let the worker finish what it was sent (closing its stdin ends it); kill it if it lingers."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            # The reader thread sees end-of-file and fails whatever is still pending.
            self._fail(self._gone or WorkerGone(f"worker {self.pid} was stopped"))
