"""Repeatable reliability runs: `python -m reliability.faults` and `python -m reliability.load`.

Each starts what it needs on loopback (its own Redis server, PostgreSQL schema and uvicorn service
processes), bounded in time and count, and prints figures and PASS/FAIL verdicts.
"""
