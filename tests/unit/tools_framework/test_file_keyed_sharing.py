"""Tools reading input files (TTM, csv_stats): identical calls in flight at once on the same,
unchanged file run once, across callers; a changed file or other arguments run again."""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tools import registry
from tools.framework import ToolContext, call_tool, singleflight
from tools.framework.spec import build_spec

runs: list[str] = []
gate: asyncio.Event | None = None


async def read_file(dataset_path: str, model: str = "ttm_96_28") -> dict[str, Any]:
    """Waits on the test's gate, so concurrent calls are certainly in flight together."""
    runs.append(dataset_path)
    assert gate is not None
    await gate.wait()
    text = Path(dataset_path).read_text()
    return {"path": dataset_path, "model": model, "text": text}


@pytest.fixture(autouse=True)
def file_tool() -> Iterator[None]:
    global gate
    spec = build_spec(read_file, "filekit", cacheable=False, input_files=("dataset_path", "model"))
    registry.register(spec)
    runs.clear()
    gate = asyncio.Event()
    yield
    registry.unregister(spec.full_name)


async def _until(condition: Any) -> None:
    """Yield to the loop until `condition()` holds (the calls read the data version first)."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the calls never got there")


async def _together(ctx: ToolContext, *args_list: dict[str, Any], runs_expected: int) -> list[Any]:
    """Start the calls, wait until `runs_expected` executions started and the other calls joined
    one of them, then let them finish."""
    followers = singleflight.stats()["followers"]
    tasks = [asyncio.create_task(call_tool("filekit.read_file", args, context=ctx)) for args in args_list]
    await _until(lambda: len(runs) == runs_expected
                 and singleflight.stats()["followers"] - followers == len(args_list) - runs_expected)
    assert gate is not None
    gate.set()
    return list(await asyncio.gather(*tasks))


async def test_identical_in_flight_calls_on_the_same_file_run_once(ctx: ToolContext) -> None:
    data = ctx.settings.work_dir / "w.csv"
    data.write_text("a,b\n1,2\n")
    results = await _together(ctx, *({"dataset_path": str(data)} for _ in range(4)), runs_expected=1)
    assert runs == [str(data)]
    assert [r.status for r in results] == ["ok"] * 4
    assert sorted(r.cached for r in results) == [False, True, True, True]
    assert all(r.output == results[0].output for r in results)
    results[1].output["text"] = "changed"  # every caller holds its own copy
    assert results[2].output["text"] == "a,b\n1,2\n"


async def test_other_files_or_arguments_run_separately(ctx: ToolContext) -> None:
    one, two = ctx.settings.work_dir / "one.csv", ctx.settings.work_dir / "two.csv"
    one.write_text("x\n1\n")
    two.write_text("x\n1\n")  # same bytes, another file
    await _together(ctx, {"dataset_path": str(one)}, {"dataset_path": str(two)},
                    {"dataset_path": str(one), "model": "ttm_512_96"}, runs_expected=3)
    assert sorted(runs) == sorted([str(one), str(two), str(one)])


async def test_a_rewritten_file_is_not_answered_from_the_earlier_run(ctx: ToolContext) -> None:
    data = ctx.settings.work_dir / "w.csv"
    data.write_text("a\n1\n")
    first = asyncio.create_task(call_tool("filekit.read_file", {"dataset_path": str(data)}, context=ctx))
    await _until(lambda: len(runs) == 1)
    data.write_text("a\n1\n2\n")  # a new version while the first call is still running
    os.utime(data, ns=(data.stat().st_atime_ns, data.stat().st_mtime_ns + 1_000_000))
    second = asyncio.create_task(call_tool("filekit.read_file", {"dataset_path": str(data)}, context=ctx))
    await _until(lambda: len(runs) == 2)  # a second execution: the first one's answer is not shared
    assert gate is not None
    gate.set()
    a, b = await asyncio.gather(first, second)
    assert runs == [str(data), str(data)]
    assert not a.cached and not b.cached


async def test_finished_calls_are_not_reused_when_the_tool_is_not_cacheable(ctx: ToolContext) -> None:
    data = ctx.settings.work_dir / "w.csv"
    data.write_text("a\n1\n")
    assert gate is not None
    gate.set()
    await call_tool("filekit.read_file", {"dataset_path": str(data)}, context=ctx)
    again = await call_tool("filekit.read_file", {"dataset_path": str(data)}, context=ctx)
    assert len(runs) == 2 and not again.cached


def test_the_ttm_tools_and_csv_stats_declare_their_input_files() -> None:
    for module in ("tools.tsfm", "tools.utilities"):
        importlib.import_module(module)  # registers the tools

    for name in ("tsfm.run_tsfm_forecasting", "tsfm.run_integrated_tsad", "tsfm.run_tsad", "utilities.csv_stats"):
        spec = registry.find_tool(name)
        assert spec is not None and spec.input_files, name
        assert set(spec.input_files) <= set(spec.input_schema["properties"]), name
