"""Scenario diagnosis over several fleet seeds: the supervisor's top-1 / top-2 on generated dialogs.

For each seed the bench generates that fleet into its own data dir (var/eval/seeds/seedN, reused when
already there), writes one diagnosis dialog per fault episode plus fault-free controls
(`assetops generate-scenarios`), runs them through the real stack offline (`assetops eval`) and reads
the diagnosis figures from report.json. It prints top-1 / top-2 per seed and pooled over all
episodes, with the strict figure (only the dialog's own episode counts, no concurrent fault) beside.

    python -m bench scenario_seeds                          # seeds 7 11 12
    python -m bench.scenario_seeds_bench --seeds 7 11 12 --controls 4

Each step is a subprocess: ASSETOPS_DATA_DIR picks the fleet, and settings are read once per process.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEEDS_DIR = ROOT / "var" / "eval" / "seeds"
FIGURES = ("top1", "top2", "top1_strict", "top2_strict")


def _assetops(args: list[str], data_dir: Path) -> None:
    """Run one `assetops` command against the fleet in `data_dir`; its output goes to a log there."""
    env = {**os.environ, "ASSETOPS_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    with (data_dir / "bench.log").open("a") as log:
        subprocess.run([sys.executable, "-m", "app.cli.main", *args], cwd=ROOT, env=env, check=True,
                       stdout=log, stderr=subprocess.STDOUT)


def seed_figures(seed: int, controls: int) -> dict[str, Any]:
    """Generate (once) seed's fleet, its scenarios, run them and return report.json's diagnosis figures."""
    data_dir = SEEDS_DIR / f"seed{seed}"
    data_dir.mkdir(parents=True, exist_ok=True)
    marker = data_dir / "fleet_seed"
    if not marker.is_file() or marker.read_text().strip() != str(seed):
        _assetops(["setup"], data_dir)  # schema (and the default fleet, replaced next)
        _assetops(["fleet", "generate", "--seed", str(seed)], data_dir)
        marker.write_text(str(seed))
    suite, out = data_dir / "scenarios.yaml", data_dir / "eval"
    _assetops(["generate-scenarios", "--controls", str(controls), "-o", str(suite)], data_dir)
    _assetops(["eval", str(suite), "--arch", "supervisor", "--out", str(out)], data_dir)
    return json.loads((out / "report.json").read_text())["runs"]["supervisor"]["diagnosis"]


def pooled(per_seed: dict[int, dict[str, Any]]) -> dict[str, float]:
    """Figures over all episodes of all seeds (each seed weighted by its episode count)."""
    episodes = sum(f["episodes"] for f in per_seed.values())
    out: dict[str, float] = {"episodes": episodes}
    for key in FIGURES:
        out[key] = sum((f.get(key) or 0.0) * f["episodes"] for f in per_seed.values()) / episodes if episodes else 0.0
    return out


def main(argv: list[str] | None = None) -> None:
    """Print top-1 / top-2 per seed and pooled; misses name what the answer put first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 11, 12])
    parser.add_argument("--controls", type=int, default=4)
    args = parser.parse_args(argv or [])
    per_seed: dict[int, dict[str, Any]] = {}
    for seed in args.seeds:
        started = time.perf_counter()
        figures = per_seed[seed] = seed_figures(seed, args.controls)
        for miss in figures.get("misses", []):
            print(f"  seed {seed} MISS {miss['dialog']}: expected {miss['expected']}, named {miss['named']}")
        print(f"  seed {seed:3d}: {figures['episodes']:3d} episodes  top-1 {figures['top1']:.3f}  top-2 "
              f"{figures['top2']:.3f}  (own episode only {figures.get('top1_strict', 0):.3f} / "
              f"{figures.get('top2_strict', 0):.3f})  controls naming a fault "
              f"{figures['control_false_alarm'] or 0:.2f} of {figures['controls']}  "
              f"[{time.perf_counter() - started:.0f} s]", flush=True)
    total = pooled(per_seed)
    print(f"  all seeds: {int(total['episodes'])} episodes  top-1 {total['top1']:.3f}  top-2 {total['top2']:.3f}  "
          f"(own episode only {total['top1_strict']:.3f} / {total['top2_strict']:.3f})")
    print(f"  reports: {SEEDS_DIR}/seedN/eval/report.md")


if __name__ == "__main__":
    main(sys.argv[1:])
