"""Identical concurrent calls share one execution; a cancelled leader hands the work to a follower."""

from __future__ import annotations

import asyncio

import pytest

from tools.framework import singleflight


async def test_concurrent_identical_calls_run_once_and_all_get_the_result() -> None:
    runs = 0

    async def work() -> str:
        nonlocal runs
        runs += 1
        await asyncio.sleep(0.05)
        return "window"

    results = await asyncio.gather(*(singleflight.shared("k1", work) for _ in range(5)))
    assert runs == 1
    assert [r for r, _ in results] == ["window"] * 5
    assert sorted(shared for _, shared in results) == [False, True, True, True, True]
    assert (await singleflight.shared("k1", work))[1] is False and runs == 2  # finished calls are not shared


async def test_different_keys_do_not_share() -> None:
    async def work(value: str) -> str:
        await asyncio.sleep(0.01)
        return value

    a, b = await asyncio.gather(singleflight.shared("a", lambda: work("a")), singleflight.shared("b", lambda: work("b")))
    assert (a, b) == (("a", False), ("b", False))


async def test_a_failing_leader_fails_its_followers_with_the_same_error() -> None:
    async def boom() -> str:
        await asyncio.sleep(0.02)
        raise ValueError("no data")

    outcomes = await asyncio.gather(*(singleflight.shared("k2", boom) for _ in range(3)), return_exceptions=True)
    assert [type(o) for o in outcomes] == [ValueError] * 3


async def test_a_cancelled_leader_lets_a_follower_run_the_call() -> None:
    started = asyncio.Event()
    runs = 0

    async def work() -> str:
        nonlocal runs
        runs += 1
        started.set()
        await asyncio.sleep(0.05)
        return "done"

    leader = asyncio.create_task(singleflight.shared("k3", work))
    await started.wait()
    follower = asyncio.create_task(singleflight.shared("k3", work))
    await asyncio.sleep(0)
    leader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leader
    assert await follower == ("done", False) and runs == 2
