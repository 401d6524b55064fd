"""Worker processes for GIL-bound tool work, so independent calls use more than one core.

Why processes: turning a telemetry window into contract JSON is pure Python per row and holds the
GIL, so threads do not overlap it; measured on the default fleet, 8 window reads in 8 threads took
longer than one after another (sqlite3 releases the GIL at every row step and the threads convoy).

The pool has slots: this process (one task at a time, taken only by a task in flight alone:
nothing to copy) and N worker processes (`tools.framework.worker_process`) with two pipeline places
each. A task waits for a free slot, runs there, and frees it. The pool's own threads (one per slot)
do the blocking waits, so it serves any event loop and sync callers alike. Workers start in the
background on first use; until one is ready, tasks take turns in this process. A worker that dies
or overruns is replaced and its task re-run here.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import functools
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from assetops.profiling import current_profile
from assetops.settings import Settings, get_settings
from tools.framework.cpu import run_cpu
from tools.framework.tasks import TaskFn, TaskOutput, task_name
from tools.framework.worker_process import WorkerGone, WorkerProcess

log = logging.getLogger(__name__)

# Imported by every worker before it reports ready, so the first task pays no import.
DEFAULT_PRELOAD = ("tools.iot_reads",)
MAX_AUTO_PROCESSES = 8
STARTUP_TIMEOUT_S = 60.0
# Requests a worker holds at once: its next task waits in its pipe while it computes one.
PIPELINE_DEPTH = 2


def auto_process_count() -> int:
    """One worker per core (at most `MAX_AUTO_PROCESSES`), none on a single core.

    One per core rather than one fewer: this process mostly waits for its workers. Measured on
    2 cores, 8 history reads took 4.6-5.3x one read with 2 workers in five runs of six (7.6x in
    the sixth) and 6.1-6.7x with 1 worker.
    """
    cores = os.cpu_count() or 1
    return 0 if cores < 2 else min(MAX_AUTO_PROCESSES, cores)


def process_count(settings: Settings) -> int:
    """Worker processes the settings ask for (`tool_worker_processes`; None = automatic)."""
    configured = settings.tool_worker_processes
    return auto_process_count() if configured is None else max(0, configured)


class TaskPool:
    """Slots for worker tasks: this process plus `processes` worker processes."""

    def __init__(
        self, processes: int, *, task_timeout_s: float = 150.0, preload: tuple[str, ...] = DEFAULT_PRELOAD,
        use_this_process: bool = True,
    ) -> None:
        self.processes = max(0, processes)
        self.task_timeout_s = task_timeout_s
        self.preload = preload
        # False: tasks wait for a worker and run here only while none runs or starts (tests use it
        # to force the worker path).
        self.use_this_process = use_this_process
        self._slots = threading.Condition()
        self._here_free = True
        self._idle: list[WorkerProcess] = []  # one entry per free pipeline place of a worker
        self._workers: set[WorkerProcess] = set()
        self._spawning = 0
        self._in_flight = 0  # tasks submitted and not finished (counted before the thread hop)
        self._started = self._closed = False
        self._executor = ThreadPoolExecutor(
            max_workers=self.processes * PIPELINE_DEPTH + 1, thread_name_prefix="assetops-task"
        )

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker processes in the background (idempotent)."""
        with self._slots:
            if self._started or self._closed:
                return
            self._started = True
        for _ in range(self.processes):
            self._spawn_later()

    def _spawn_later(self) -> None:
        with self._slots:
            if self._closed:
                return
            self._spawning += 1
        threading.Thread(target=self._spawn, name="assetops-task-spawn", daemon=True).start()

    def _spawn(self) -> None:
        worker: WorkerProcess | None = None
        try:
            worker = WorkerProcess(self.preload)
            worker.wait_ready(STARTUP_TIMEOUT_S)
        except (OSError, WorkerGone) as exc:
            log.warning("a tool worker process did not start (%s); its work runs in this process", exc)
            if worker is not None:
                worker.close()
            worker = None
        with self._slots:
            self._spawning -= 1
            if worker is not None and self._closed:
                worker.close()
            elif worker is not None:
                self._workers.add(worker)
                self._idle.extend([worker] * PIPELINE_DEPTH)
            self._slots.notify_all()

    def wait_ready(self, timeout_s: float = STARTUP_TIMEOUT_S) -> int:
        """Start the workers and wait until none is still starting; the number ready."""
        self.start()
        deadline = time.monotonic() + timeout_s
        with self._slots:
            while self._spawning and time.monotonic() < deadline:
                self._slots.wait(timeout=max(0.0, deadline - time.monotonic()))
            return len(self._workers)

    @property
    def ready_processes(self) -> int:
        """Worker processes running now."""
        with self._slots:
            return len(self._workers)

    def close(self) -> None:
        """Stop every worker; later tasks run in this process."""
        with self._slots:
            self._closed = True
            workers, self._idle, self._workers = list(self._workers), [], set()
            self._slots.notify_all()
        for worker in workers:
            worker.close()
        self._executor.shutdown(wait=False)

    # -- running tasks -----------------------------------------------------------------------------
    def _here_allowed(self) -> bool:
        """This process may run the task: it is the only one in flight, or no worker exists.

        Only when alone: a task computing here holds the GIL for milliseconds, and the threads that
        feed the workers and read their answers then wait a switch interval (5 ms) per step.
        Measured on 2 cores, 8 batched reads took 6.6-8.2x one read when this process took its
        share, 4.6-4.9x when it only fed the workers.
        """
        no_workers = not (self._workers or self._spawning)
        return no_workers or (self.use_this_process and self._in_flight <= 1)

    def _acquire(self) -> WorkerProcess | None:
        """A free slot: None for this process (preferred: nothing to copy), else a free pipeline
        place of the least busy worker. Blocks until one is free."""
        with self._slots:
            while not (self._here_free and self._here_allowed()) and not self._idle:
                self._slots.wait(timeout=1.0)  # re-check: a failed start changes what is allowed
            if self._here_free and self._here_allowed():
                self._here_free = False
                return None
            least_busy = min(range(len(self._idle)), key=lambda i: self._idle[i].outstanding)
            return self._idle.pop(least_busy)

    def _release(self, worker: WorkerProcess | None) -> None:
        with self._slots:
            if worker is None:
                self._here_free = True
            elif worker in self._workers:
                self._idle.append(worker)
            self._slots.notify()

    def _retire(self, worker: WorkerProcess, reason: WorkerGone) -> None:
        """Replace a dead or overrunning worker (once, however many of its tasks noticed)."""
        with self._slots:
            if worker not in self._workers:
                return
            self._workers.discard(worker)
            self._idle = [place for place in self._idle if place is not worker]
        log.warning("%s; its tasks run in this process and a new worker starts", reason)
        worker.close()
        self._spawn_later()

    def run_blocking(self, fn: TaskFn, kwargs: dict[str, Any]) -> TaskOutput:
        """Run the task on a free slot (blocking); its worker's queries join the current profile."""
        self.start()
        slot = self._acquire()
        if slot is None:
            try:
                return fn(**kwargs)
            finally:
                self._release(None)
        try:
            output, queries = slot.call(task_name(fn), kwargs, self.task_timeout_s)
        except WorkerGone as gone:
            self._retire(slot, gone)
            return fn(**kwargs)
        except BaseException:
            self._release(slot)
            raise
        self._release(slot)
        profile = current_profile()
        if profile is not None:
            profile.queries.extend(queries)
        return output

    async def run(self, fn: TaskFn, kwargs: dict[str, Any]) -> TaskOutput:
        """Await the task on a free slot, with the caller's context variables (profile, tool context)."""
        if self._closed:  # a pool replaced while a caller still held it: run here, off the loop
            return await run_cpu(fn, **kwargs)
        loop = asyncio.get_running_loop()
        call = functools.partial(contextvars.copy_context().run, self.run_blocking, fn, kwargs)
        with self._slots:
            self._in_flight += 1
        try:
            # Let tasks started in the same loop step (a run_many batch, gathered specialists) count
            # themselves first, so the first of a batch does not take this process's slot.
            await asyncio.sleep(0)
            return await loop.run_in_executor(self._executor, call)
        finally:
            with self._slots:
                self._in_flight -= 1


_pool: TaskPool | None = None
_pool_lock = threading.Lock()


def task_pool(settings: Settings | None = None) -> TaskPool:
    """The process-wide pool (created on first use from the settings)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            settings = settings or get_settings()
            _pool = TaskPool(process_count(settings), task_timeout_s=settings.tool_timeout_s + 30.0)
        return _pool


def configure_task_pool(processes: int, *, task_timeout_s: float = 150.0, use_this_process: bool = True) -> TaskPool:
    """Replace the process-wide pool (benchmarks and tests compare configurations)."""
    global _pool
    with _pool_lock:
        old, _pool = _pool, TaskPool(processes, task_timeout_s=task_timeout_s, use_this_process=use_this_process)
    if old is not None:
        old.close()
    return _pool


def shutdown_task_pool() -> None:
    """Stop the process-wide pool's workers (at exit; the next use builds a new pool)."""
    global _pool
    with _pool_lock:
        old, _pool = _pool, None
    if old is not None:
        old.close()


async def run_task(fn: TaskFn, kwargs: dict[str, Any], settings: Settings | None = None) -> TaskOutput:
    """Run a worker task on the process-wide pool."""
    return await task_pool(settings).run(fn, kwargs)


atexit.register(shutdown_task_pool)
