"""Load a `FleetData` into the database: replace the tables it provides, then stamp `fleet_meta`.

Everything happens in one transaction, so readers see either the old fleet or the new one, never a
half-loaded mix. Rows go through the driver connection (COPY on Postgres, executemany on SQLite);
see `fleet.bulk` for the value conversions that keep them identical to what the ORM would store.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Table, delete, insert, inspect, select, text

import assetops.db.tables  # noqa: F401  (registers every table on Base.metadata)
from assetops.db.base import Base
from assetops.db.engine import sync_engine
from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE, TIMEZONE_META_KEY
from assetops.settings import Settings
from fleet.bulk import FleetDataError, conform_frame, storage_frame, write_postgres, write_sqlite
from fleet.model import FleetData

__all__ = [
    "FleetDataError",
    "LoadProgress",
    "LoadReport",
    "TableLoad",
    "data_version",
    "is_fleet_loaded",
    "load_fleet",
    "read_fleet_meta",
]

META_TABLE = "fleet_meta"


@dataclass(frozen=True)
class LoadProgress:
    """Where a load stands: rows of the current table written so far, and tables done."""

    table: str
    rows_done: int
    rows_total: int
    tables_done: int
    tables_total: int


@dataclass(frozen=True)
class TableLoad:
    """One replaced table: rows written and seconds spent on it."""

    table: str
    rows: int
    seconds: float


@dataclass(frozen=True)
class LoadReport:
    """What `load_fleet` did."""

    data_version: str
    source: str
    dialect: str
    tables: list[TableLoad] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rows(self) -> int:
        """Rows written over all tables."""
        return sum(t.rows for t in self.tables)

    def rows_of(self, table: str) -> int:
        """Rows written into `table` (0 when the load did not touch it)."""
        return next((t.rows for t in self.tables if t.table == table), 0)


ProgressCallback = Callable[[LoadProgress], None]


def new_data_version() -> str:
    """A fresh, unique, roughly sortable data version (UTC time plus a random suffix)."""
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:8]}"


def _tables_of(data: FleetData) -> list[tuple[Table, Any]]:
    tables = Base.metadata.tables
    out = []
    for name, frame in data.frames().items():
        if name not in tables:
            raise FleetDataError(f"FleetData provides {name!r}, which is not a table of the schema")
        out.append((tables[name], frame))
    return out


def load_fleet(settings: Settings, data: FleetData, *, progress: ProgressCallback | None = None) -> LoadReport:
    """Replace the contents of every table `data` provides and write `fleet_meta`; one transaction.

    `fleet_meta` is rewritten as a whole: `data_version` (new on every call), `source`, `loaded_at`,
    `tables` (those replaced) and `data.meta`. Raises `FleetDataError` when a frame does not fit.
    """
    started = time.perf_counter()
    version = new_data_version()
    pairs = _tables_of(data)
    engine = sync_engine(settings)
    loads: list[TableLoad] = []
    try:
        with engine.begin() as conn:
            dialect = conn.dialect.name
            driver: Any = conn.connection.driver_connection  # sqlite3 or psycopg connection
            cursor = driver.cursor()
            _prepare(cursor, dialect, [t for t, _ in pairs])
            for index, (table, frame) in enumerate(pairs):
                loads.append(_load_table(cursor, dialect, table, frame, index, len(pairs), progress))
            _write_meta(conn, data, version, [t.name for t, _ in pairs])
        _after_load(engine, [t.name for t, _ in pairs])
    finally:
        engine.dispose()
    return LoadReport(data_version=version, source=data.source, dialect=dialect, tables=loads,
                      seconds=time.perf_counter() - started)


def _prepare(cursor: Any, dialect: str, tables: list[Table]) -> None:
    """Empty the tables about to be replaced (inside the load transaction)."""
    if not tables:
        return
    if dialect == "postgresql":
        # TRUNCATE is transactional on Postgres and leaves no dead tuples behind, unlike DELETE.
        cursor.execute("TRUNCATE " + ", ".join(f'"{t.name}"' for t in tables))
        return
    # The data is rebuilt from its source on failure, so durability of every page write is not
    # worth the fsyncs during the load; the commit itself still lands in the WAL.
    cursor.execute("PRAGMA synchronous=OFF")
    cursor.execute("PRAGMA cache_size=-200000")
    cursor.execute("PRAGMA temp_store=MEMORY")
    for table in tables:
        cursor.execute(f'DELETE FROM "{table.name}"')


def _load_table(cursor: Any, dialect: str, table: Table, frame: Any, index: int, total: int,
                progress: ProgressCallback | None) -> TableLoad:
    started = time.perf_counter()
    rows = storage_frame(table, conform_frame(table, frame))
    done = 0

    def chunk_done(count: int) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(LoadProgress(table.name, done, len(rows), index, total))

    if progress is not None:
        progress(LoadProgress(table.name, 0, len(rows), index, total))
    writer = write_postgres if dialect == "postgresql" else write_sqlite
    writer(cursor, table, rows, chunk_done)
    if progress is not None:
        progress(LoadProgress(table.name, len(rows), len(rows), index + 1, total))
    return TableLoad(table.name, len(rows), time.perf_counter() - started)


def _write_meta(conn: Any, data: FleetData, version: str, tables: list[str]) -> None:
    meta_table = Base.metadata.tables[META_TABLE]
    values = {str(k): str(v) for k, v in data.meta.items()}
    values.setdefault(TIMEZONE_META_KEY, DEFAULT_SITE_TIMEZONE)  # the catalog reads the site zone here
    values.update({
        "data_version": version,
        "source": data.source,
        "loaded_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "tables": ",".join(tables),
    })
    conn.execute(delete(meta_table))
    conn.execute(insert(meta_table), [{"key": k, "value": v} for k, v in values.items()])


def _after_load(engine: Engine, tables: list[str]) -> None:
    """Refresh planner statistics (Postgres) or fold the WAL back into the file (SQLite)."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            for name in [*tables, META_TABLE]:
                conn.execute(text(f'ANALYZE "{name}"'))
            conn.commit()
        else:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def read_fleet_meta(settings: Settings) -> dict[str, str]:
    """All `fleet_meta` entries; empty when nothing was loaded or the schema is missing."""
    meta_table = Base.metadata.tables[META_TABLE]
    engine = sync_engine(settings)
    try:
        with engine.connect() as conn:
            # Only a missing schema means "nothing loaded"; an unreachable database must still raise.
            if not inspect(conn).has_table(META_TABLE):
                return {}
            return {row.key: row.value for row in conn.execute(select(meta_table.c.key, meta_table.c.value))}
    finally:
        engine.dispose()


def data_version(settings: Settings) -> str | None:
    """The `data_version` of the loaded fleet (None before the first load); caches key on it."""
    return read_fleet_meta(settings).get("data_version")


def is_fleet_loaded(settings: Settings) -> bool:
    """True when the telemetry table exists and holds at least one row."""
    telemetry = Base.metadata.tables["telemetry"]
    engine = sync_engine(settings)
    try:
        with engine.connect() as conn:
            if not inspect(conn).has_table("telemetry"):
                return False
            return conn.execute(select(telemetry.c.asset_id).limit(1)).first() is not None
    finally:
        engine.dispose()
