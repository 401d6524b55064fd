"""Measure how long generating a fleet takes: `python -m fleet.generator.benchmark [seed]`.

Prints the time per stage and the row count per table; asserts nothing (a benchmark, not a test).
"""

from __future__ import annotations

import resource
import sys
import time

from fleet.generator.config import DEFAULT_SEED, GeneratorConfig
from fleet.generator.fleet import generate_fleet


def main(argv: list[str] | None = None) -> int:
    """Generate the full default-window fleet for a seed and print timings and sizes."""
    args = sys.argv[1:] if argv is None else argv
    seed = int(args[0]) if args else DEFAULT_SEED
    started = time.perf_counter()

    def progress(stage: str, fraction: float) -> None:
        print(f"{time.perf_counter() - started:7.2f}s  {fraction:4.0%}  {stage}")

    fleet = generate_fleet(GeneratorConfig(seed=seed, progress=progress))
    elapsed = time.perf_counter() - started
    for table, frame in fleet.frames().items():
        print(f"{table:24s} {len(frame):>9,d} rows")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"generated {fleet.source} in {elapsed:.1f} s (peak RSS {peak_mb:.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
