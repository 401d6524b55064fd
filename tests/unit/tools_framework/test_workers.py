"""The worker-process pool: where tasks run, what comes back, and how it survives dead workers.

Real subprocesses throughout (`python -m tools.framework.worker_main`); the `ping` task reports
the pid it ran in.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator

import pytest

from tools.framework.tasks import TaskError, ping, resolve_task, task_name
from tools.framework.worker_process import WorkerGone, WorkerProcess
from tools.framework.workers import TaskPool, auto_process_count


@pytest.fixture
def pools() -> Iterator[list[TaskPool]]:
    """Pools made by a test; every one is closed afterwards (its workers exit)."""
    made: list[TaskPool] = []
    yield made
    for pool in made:
        pool.close()


def _pool(pools: list[TaskPool], processes: int, **options: object) -> TaskPool:
    pool = TaskPool(processes, **options)  # type: ignore[arg-type]
    pools.append(pool)
    assert pool.wait_ready() == processes
    return pool


def _worker_pids(pool: TaskPool) -> set[int]:
    return {worker.pid for worker in pool._workers}


def test_a_task_runs_in_a_worker_process_when_this_process_is_reserved(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 1, use_this_process=False)
    answer = pool.run_blocking(ping, {})
    assert answer.meta["pid"] in _worker_pids(pool)
    assert answer.meta["pid"] != os.getpid()


async def test_a_lone_task_runs_in_this_process_without_copying(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 2)
    answer = await pool.run(ping, {})
    assert answer.meta["pid"] == os.getpid()


async def test_concurrent_tasks_go_to_the_worker_processes(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 2)
    answers = await asyncio.gather(*(pool.run(ping, {"delay_s": 0.3}) for _ in range(4)))
    ran_in = {answer.meta["pid"] for answer in answers}
    assert ran_in == _worker_pids(pool)  # both workers took a share; none ran here


async def test_without_worker_processes_everything_runs_here(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 0)
    answers = await asyncio.gather(*(pool.run(ping, {}) for _ in range(3)))
    assert {answer.meta["pid"] for answer in answers} == {os.getpid()}


def test_a_killed_worker_is_replaced_and_its_task_still_answers(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 1, use_this_process=False)
    (victim,) = _worker_pids(pool)
    os.kill(victim, signal.SIGKILL)
    answer = pool.run_blocking(ping, {})
    assert answer.meta["pid"] == os.getpid()  # re-run here after the worker was found dead
    assert pool.wait_ready() == 1
    (replacement,) = _worker_pids(pool)
    assert replacement != victim
    assert pool.run_blocking(ping, {}).meta["pid"] == replacement


def test_an_overrunning_worker_is_replaced_and_the_task_runs_here(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 1, use_this_process=False, task_timeout_s=0.2)
    (slow,) = _worker_pids(pool)
    answer = pool.run_blocking(ping, {"delay_s": 0.5})
    assert answer.meta["pid"] == os.getpid()
    assert pool.wait_ready() == 1
    assert _worker_pids(pool) != {slow}


def test_a_failing_task_reports_the_original_error_and_keeps_its_worker(pools: list[TaskPool]) -> None:
    pool = _pool(pools, 1, use_this_process=False)
    before = _worker_pids(pool)
    with pytest.raises(TaskError, match="TypeError"):
        pool.run_blocking(ping, {"delay_s": "soon"})
    assert _worker_pids(pool) == before
    assert pool.run_blocking(ping, {}).meta["pid"] in before


@pytest.mark.parametrize("name", ["os:system", "tools.iot:history", "tools.framework.tasks:missing", "ping"])
def test_only_marked_functions_of_the_tool_layer_resolve_as_tasks(name: str) -> None:
    with pytest.raises(ValueError):
        resolve_task(name)
    assert resolve_task(task_name(ping)) is ping


def test_a_worker_refuses_a_task_name_outside_the_tool_layer() -> None:
    worker = WorkerProcess(())
    try:
        worker.wait_ready(60)
        with pytest.raises(TaskError, match="not a worker task name"):
            worker.call("os:system", {"command": "true"}, timeout_s=30)
        output, queries = worker.call(task_name(ping), {}, timeout_s=30)
        assert output.meta["pid"] == worker.pid and queries == []
    finally:
        worker.close()
    assert worker.process.returncode is not None


def test_the_automatic_size_is_one_worker_per_core_and_none_on_one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert auto_process_count() == 0
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert auto_process_count() == 2
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert auto_process_count() == 8


def test_pipelined_requests_are_answered_in_order_and_fail_together_when_the_worker_dies() -> None:
    worker = WorkerProcess(())
    try:
        worker.wait_ready(60)
        first = worker.submit(task_name(ping), {"delay_s": 0.2})
        second = worker.submit(task_name(ping), {})
        assert worker.outstanding == 2
        assert first.result(timeout=30)[0].meta["pid"] == second.result(timeout=30)[0].meta["pid"] == worker.pid
        slow = worker.submit(task_name(ping), {"delay_s": 30})
        queued = worker.submit(task_name(ping), {})
        os.kill(worker.pid, signal.SIGKILL)
        for pending in (slow, queued):
            with pytest.raises(WorkerGone):
                pending.result(timeout=30)
        with pytest.raises(WorkerGone):  # later requests fail at once instead of waiting
            worker.submit(task_name(ping), {}).result(timeout=1)
    finally:
        worker.close()
