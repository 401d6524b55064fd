"""Tools bench: per-tool latency (p50 / p95) through the call path, and the run_many speed-up.

    python -m bench tools                 # the configured database (the loaded fleet)
    python bench/tools_bench.py --repeats 30

Every measured call runs with an empty result cache (what a first, uncached query costs on a warm
engine); the cache-hit latency is printed separately. The batch figures compare one history
query, 8 independent ones run one after another and the same 8 as one `run_many` batch, with all
work in this process and with the automatic number of worker processes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetops.settings import Settings, get_settings
from fleet.loader import is_fleet_loaded
from tools.framework import ToolCall, ToolContext, ToolResult, call_tool, clear_result_cache, run_many
from tools.framework.cache import data_version
from tools.framework.workers import auto_process_count, configure_task_pool, shutdown_task_pool, task_pool
from tools.registry import find_tool

ASSET = "Chiller 9"
MONTH = ("2020-06-01", "2020-07-01")


def cases(workdir: Path) -> list[tuple[str, dict[str, Any]]]:
    """Representative calls per tool (those whose server is registered)."""
    iot = {"site_name": "MAIN", "asset_id": ASSET}
    csv_name = f"{ASSET.replace(' ', '_')}_20200601T000000_20200701T000000_history.csv"
    (workdir / "bench.json").write_text(json.dumps({"bench": list(range(100))}))
    wanted = [
        ("iot.sites", {}),
        ("iot.assets", {"site_name": "MAIN"}),
        ("iot.sensors", iot),
        ("iot.history", {**iot, "start": "2020-06-01", "final": "2020-06-08"}),
        ("iot.history_csv", {**iot, "start": MONTH[0], "final": MONTH[1]}),
        ("utilities.csv_stats", {"csv_path": csv_name}),
        ("utilities.json_reader", {"file_name": "bench.json"}),
        ("utilities.current_date_time", {}),
        ("wo.get_work_orders", {"equipment_id": ASSET, "start_date": "2020-01-01", "end_date": "2021-01-01"}),
        ("wo.get_events", {"equipment_id": ASSET, "start_date": "2020-01-01", "end_date": "2021-01-01"}),
        ("wo.get_work_order_distribution", {"equipment_id": ASSET}),
        ("wo.predict_next_work_order", {"equipment_id": ASSET}),
        ("wo.get_alert_rules", {"equipment_id": ASSET}),
        ("fmsr.get_failure_modes", {"asset_name": ASSET}),
    ]
    return [(name, args) for name, args in wanted if find_tool(name) is not None]


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


async def tool_latencies(ctx: ToolContext, repeats: int) -> None:
    """Print p50/p95 of uncached calls, their CPU time and the latency of a cache hit, per tool.

    The CPU column (process time, all threads) is what the call costs regardless of how busy the
    machine is; wall time on a shared machine also contains the wait for a core.
    """
    print(f"{'tool':36} {'status':7} {'p50 ms':>8} {'p95 ms':>8} {'cpu p50':>8} {'hit ms':>8}  rows")
    for name, args in cases(ctx.workdir):
        await call_tool(name, args, context=ctx)  # warm-up: connections, imports, OS page cache
        samples: list[float] = []
        cpu: list[float] = []
        status, rows = "?", None
        for _ in range(repeats):
            clear_result_cache()
            cpu_started = time.process_time()
            result = await call_tool(name, args, context=ctx)
            cpu.append((time.process_time() - cpu_started) * 1000.0)
            samples.append(result.latency_ms)
            status, rows = result.status, result.rows
        hit = await call_tool(name, args, context=ctx)
        hit_ms = f"{hit.latency_ms:8.2f}" if hit.cached else f"{'-':>8}"
        print(f"{name:36} {status:7} {percentile(samples, 0.5):8.2f} {percentile(samples, 0.95):8.2f} "
              f"{percentile(cpu, 0.5):8.2f} {hit_ms}  {rows}")


def history_batch(tool: str = "iot.history") -> list[ToolCall]:
    """Eight independent reads of `tool` (different months, so no cache hits): one-week windows
    for `iot.history`, whole months for `iot.history_csv`."""
    months = range(3, 11)
    if tool == "iot.history_csv":
        windows = [(f"2020-{m:02d}-01", f"2020-{m + 1:02d}-01") for m in months]
    else:
        windows = [(f"2020-{m:02d}-01", f"2020-{m:02d}-08") for m in months]
    return [
        ToolCall(tool, {"site_name": "MAIN", "asset_id": ASSET, "start": start, "final": final})
        for start, final in windows
    ]


async def _sequential(ctx: ToolContext, calls: list[ToolCall]) -> tuple[float, list[float]]:
    """Total wall time of the calls one after another, and each call's own wall time."""
    clear_result_cache()
    await data_version(ctx)  # read once by both ways; kept out of the timing
    each: list[float] = []
    for call in calls:
        started = time.perf_counter()
        await call_tool(call.name, call.args, context=ctx)
        each.append(time.perf_counter() - started)
    return sum(each), each


async def _batched(ctx: ToolContext, calls: list[ToolCall]) -> tuple[float, list[ToolResult]]:
    clear_result_cache()
    await data_version(ctx)
    started = time.perf_counter()
    results = await run_many(calls, context=ctx)
    return time.perf_counter() - started, results


async def batch_speedup(ctx: ToolContext, rounds: int, processes: int, tool: str = "iot.history") -> None:
    """Print one query (the median single call), the 8 run one after another and as one
    `run_many` batch, and the ratios. Rounds alternate the two ways, so a busy neighbour slows both.
    """
    pool = configure_task_pool(processes)
    ready = pool.wait_ready()
    calls = history_batch(tool)
    singles: list[float] = []
    sequential, batched = [], []
    for _ in range(rounds):
        total, each = await _sequential(ctx, calls)
        sequential.append(total)
        singles.extend(each)
        elapsed, results = await _batched(ctx, calls)
        batched.append(elapsed)
    statuses = sorted({r.status for r in results})
    one, seq, bat = statistics.median(singles), statistics.median(sequential), statistics.median(batched)
    print(f"run_many, 8 {tool} ({statuses}), this process + {ready} worker process(es): "
          f"one query {one * 1000:.1f} ms, 8 sequential {seq * 1000:.1f} ms, 8 batched {bat * 1000:.1f} ms "
          f"= {bat / one:.1f}x one query, speed-up x{seq / bat:.2f} (medians of {rounds} rounds)")


async def run(settings: Settings, repeats: int, rounds: int) -> None:
    """Both measurements on one tool context."""
    ctx = ToolContext.from_settings(settings)
    try:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"database: {ctx.db.url}; {os.cpu_count()} CPUs, load average {load:.2f}")
        task_pool(settings).wait_ready()  # started workers, so their start-up does not share the cores
        await tool_latencies(ctx, repeats)
        for tool in ("iot.history", "iot.history_csv"):
            for processes in sorted({0, auto_process_count()}):
                await batch_speedup(ctx, rounds, processes, tool)
    finally:
        shutdown_task_pool()
        await ctx.db.close()


def main(argv: list[str] | None = None) -> None:
    """Entry point of `python -m bench tools`."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=20, help="uncached calls per tool")
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the batch comparison")
    args = parser.parse_args(argv if argv is not None else [])
    settings = get_settings()
    if not is_fleet_loaded(settings):
        print(f"no fleet loaded in {settings.effective_database_url}; run `assetops setup` first")
        return
    asyncio.run(run(settings, args.repeats, args.rounds))


if __name__ == "__main__":
    main(sys.argv[1:])
