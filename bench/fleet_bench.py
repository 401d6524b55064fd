"""Fleet bench: default fleet generation time, bulk-load time (SQLite and Postgres), and the
latency of a one-month, one-chiller telemetry history query through SQLAlchemy.

    python -m bench fleet
    python bench/fleet_bench.py --runs 9

Loads go into throw-away stores (a temporary SQLite file; a temporary schema in the Postgres
database `test` when 127.0.0.1:5432 answers), never into the configured database.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import select

from assetops.db import migrate
from assetops.db.engine import Database, sync_engine
from assetops.db.tables import TelemetryRow
from assetops.settings import Settings
from fleet.loader import load_fleet
from fleet.model import FleetData
from fleet.queries import telemetry_window
from fleet.synthetic import GeneratorConfig, generate_fleet

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
ASSET = "Chiller 9"
MONTH = (datetime(2020, 6, 1, 4, tzinfo=UTC), datetime(2020, 7, 1, 4, tzinfo=UTC))


def _settings(root: Path, database_url: str) -> Settings:
    settings = Settings(data_dir=root / "data", work_dir=root / "work", models_dir=root / "models",
                        database_url=database_url, redis_url="")
    settings.ensure_dirs()
    return settings


def _postgres_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1.0):
            return True
    except OSError:
        return False


@contextmanager
def _postgres_schema(root: Path) -> Iterator[Settings]:
    import psycopg

    schema = f"bench_fleet_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield _settings(root, f"{PG_URL}?options=-csearch_path%3D{schema}")
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _p50(run: Callable[[], int], runs: int) -> tuple[float, int]:
    """Median milliseconds of `runs` calls (after one warm-up) and the rows the last call returned."""
    rows = run()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        rows = run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), rows


def _sync_query(settings: Settings) -> Callable[[], int]:
    engine = sync_engine(settings)

    def run() -> int:
        with engine.connect() as conn:
            return len(telemetry_window(conn, ASSET, *MONTH))

    return run


def _async_query_p50(settings: Settings, runs: int) -> tuple[float, int]:
    async def measure() -> tuple[float, int]:
        database = Database(settings)
        table = TelemetryRow.__table__  # Core rows, as the iot tools read them
        query = (select(table).where(table.c.asset_id == ASSET, table.c.ts >= MONTH[0], table.c.ts < MONTH[1])
                 .order_by(table.c.ts))
        samples, rows = [], 0
        try:
            for index in range(runs + 1):
                started = time.perf_counter()
                async with database.session() as session:
                    rows = len((await session.execute(query)).all())
                if index:  # the first run warms the pool
                    samples.append((time.perf_counter() - started) * 1000)
        finally:
            await database.close()
        return statistics.median(samples), rows

    return asyncio.run(measure())


def _load_and_query(name: str, settings: Settings, fleet: FleetData, runs: int) -> None:
    migrate.upgrade(settings)
    report = load_fleet(settings, fleet)
    telemetry = report.rows_of("telemetry")
    print(f"{name:<9} load: {report.seconds:6.1f} s for {report.rows:,} rows "
          f"({telemetry / report.seconds:,.0f} rows/s overall; telemetry {telemetry:,} rows)")
    sync_ms, rows = _p50(_sync_query(settings), runs)
    async_ms, async_rows = _async_query_p50(settings, runs)
    print(f"{name:<9} one-month {ASSET} history ({rows:,} rows): p50 {sync_ms:6.1f} ms sync (pandas frame), "
          f"{async_ms:6.1f} ms async Core rows ({async_rows:,} rows), {runs} runs")


def main(argv: list[str] | None = None) -> None:
    """Print generation, load and query figures for the default fleet."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="timed query runs per backend")
    args = parser.parse_args(argv or [])
    started = time.perf_counter()
    fleet = generate_fleet(GeneratorConfig())
    generation = time.perf_counter() - started
    rows = sum(len(frame) for frame in fleet.frames().values())
    telemetry = len(fleet.frames().get("telemetry", ()))
    print(f"generation: {generation:6.1f} s for the default fleet ({telemetry:,} telemetry rows, "
          f"{rows:,} rows in all)")
    with tempfile.TemporaryDirectory(prefix="fleet-bench-") as tmp:
        root = Path(tmp)
        _load_and_query("sqlite", _settings(root / "sqlite", f"sqlite:///{root / 'sqlite' / 'data' / 'fleet.db'}"),
                        fleet, args.runs)
        if not _postgres_reachable():
            print("postgres: skipped (nothing listens on 127.0.0.1:5432)")
            return
        with _postgres_schema(root / "pg") as settings:
            _load_and_query("postgres", settings, fleet, args.runs)


if __name__ == "__main__":
    main(sys.argv[1:])
