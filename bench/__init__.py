"""Benchmarks: `make bench` runs every bench/*_bench.py module's `main()` and prints figures."""
