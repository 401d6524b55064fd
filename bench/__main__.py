"""Run every benchmark module (bench/*_bench.py) in turn; each prints its own figures.

`python -m bench` runs all; `python -m bench tools fleet` runs the named ones. Benchmarks measure
and print; they never assert timings. `intents` (bench/intent_options.py, about 20 s) compares
ways of reading a message's intents.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

# Benchmarks whose module is not named *_bench.py: name -> module.
_OTHER_MODULES = {"intents": "bench.intent_options"}


def main(argv: list[str]) -> int:
    """Run the selected benchmarks; a failing one is reported and the others still run."""
    modules = {p.stem.removesuffix("_bench"): f"bench.{p.stem}" for p in Path(__file__).parent.glob("*_bench.py")}
    modules.update(_OTHER_MODULES)
    selected = [n for n in sorted(modules) if not argv or n in argv]
    failures = 0
    for name in selected:
        print(f"\n=== bench: {name} ===", flush=True)
        started = time.perf_counter()
        try:
            importlib.import_module(modules[name]).main()
        except Exception:  # a broken benchmark must not hide the others' figures
            failures += 1
            traceback.print_exc()
        print(f"--- {name}: {time.perf_counter() - started:.1f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
