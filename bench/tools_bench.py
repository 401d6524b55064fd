"""Tools bench: per-tool latency (p50 / p95) through the call path, and the run_many speed-up.

    python -m bench tools                 # the configured database (the loaded fleet)
    python bench/tools_bench.py --repeats 30

Every measured call runs with an empty result cache (what a first, uncached query costs on a warm
engine); the cache-hit latency is printed separately. The speed-up compares 8 independent
history queries run sequentially with the same 8 run as one `run_many` batch.
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
from tools.framework import ToolCall, ToolContext, call_tool, clear_result_cache, run_many
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


def history_batch() -> list[ToolCall]:
    """Eight independent one-week history queries (different weeks, so no cache hits)."""
    starts = [f"2020-{m:02d}-01" for m in range(3, 11)]
    return [
        ToolCall("iot.history", {"site_name": "MAIN", "asset_id": ASSET, "start": s, "final": s[:8] + "08"})
        for s in starts
    ]


async def batch_speedup(ctx: ToolContext, rounds: int) -> None:
    """Print sequential vs batched wall time of the 8 history queries and their ratio."""
    calls = history_batch()
    sequential, batched = [], []
    for _ in range(rounds):
        clear_result_cache()
        started = time.perf_counter()
        for call in calls:
            await call_tool(call.name, call.args, context=ctx)
        sequential.append(time.perf_counter() - started)
        clear_result_cache()
        started = time.perf_counter()
        results = await run_many(calls, context=ctx)
        batched.append(time.perf_counter() - started)
    statuses = sorted({r.status for r in results})
    seq, bat = statistics.median(sequential), statistics.median(batched)
    print(f"run_many, 8 history queries ({statuses}): sequential {seq * 1000:.1f} ms, "
          f"batched {bat * 1000:.1f} ms, speed-up x{seq / bat:.2f} (median of {rounds})")


async def run(settings: Settings, repeats: int, rounds: int) -> None:
    """Both measurements on one tool context."""
    ctx = ToolContext.from_settings(settings)
    try:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"database: {ctx.db.url}; {os.cpu_count()} CPUs, load average {load:.2f}")
        await tool_latencies(ctx, repeats)
        await batch_speedup(ctx, rounds)
    finally:
        await ctx.db.close()


def main(argv: list[str] | None = None) -> None:
    """Entry point of `python -m bench tools`."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=20, help="uncached calls per tool")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the batch comparison")
    args = parser.parse_args(argv if argv is not None else [])
    settings = get_settings()
    if not is_fleet_loaded(settings):
        print(f"no fleet loaded in {settings.effective_database_url}; run `assetops setup` first")
        return
    asyncio.run(run(settings, args.repeats, args.rounds))


if __name__ == "__main__":
    main(sys.argv[1:])
