"""Blocking telemetry window reads on a synchronous engine, meant to run in a worker thread.

Why not the async session: every await of aiosqlite/asyncpg-style drivers is a hop between the
event loop and a driver thread, and each hop waits for a core on a busy machine; SQLAlchemy's
per-row result processing and the row-by-row frame building are pure GIL-bound Python. One worker
thread doing query + column conversion in a single go costs a fraction of that, and sqlite3 and
psycopg release the GIL while the database works, so several windows overlap. The engine comes
from `assetops.db.engine.sync_engine`, so the profiler still records every statement.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from sqlalchemy import BigInteger, String, cast, extract, func, select, type_coerce
from sqlalchemy.engine import Engine
from sqlalchemy.sql import ColumnElement, Select

from assetops.db.engine import sync_engine
from assetops.db.tables import SENSOR_COLUMNS, TelemetryRow
from assetops.settings import Settings

# Naive bounds are site-local; real UTC offsets lie within +-14 h, so a query widened by this
# margin always contains the window, and the exact cut happens on local time afterwards.
LOCAL_MARGIN = timedelta(hours=14)
# Widened windows can hold up to 2 x 14 h of extra 15-minute samples (x4 for denser data).
_MARGIN_ROWS = 2 * 14 * 4 * 4

_CHUNK_ROWS = 512

_MAX_ENGINES = 4
_engines: OrderedDict[str, Engine] = OrderedDict()
_engines_lock = threading.Lock()


@dataclass(frozen=True)
class Window:
    """A requested window: `start` inclusive, `final` exclusive (None = open end)."""

    start: datetime
    final: datetime | None


@dataclass(frozen=True)
class WindowData:
    """A fetched window as columns: UTC instants, site offsets, one float column per sensor.

    `values[:, j]` belongs to `sensors[j]`; NaN marks a missing value. `truncated` says the cap cut
    the window short.
    """

    utc: np.ndarray  # datetime64[us], naive UTC
    offsets: np.ndarray  # int64 minutes east of UTC
    values: np.ndarray  # float64, shape (rows, len(sensors))
    sensors: list[str]
    truncated: bool

    def __len__(self) -> int:
        return len(self.utc)

    def sensors_with_values(self) -> list[str]:
        """The sensors with at least one value in the window (the contract's column rule)."""
        present = ~np.isnan(self.values).all(axis=0) if len(self) else np.zeros(len(self.sensors), bool)
        return [s for s, keep in zip(self.sensors, present.tolist(), strict=True) if keep]

    def only(self, sensors: list[str]) -> np.ndarray:
        """The value columns of `sensors` (a subset of `self.sensors`), in that order."""
        index = [self.sensors.index(s) for s in sensors]
        return self.values[:, index]


def engine_for(settings: Settings) -> Engine:
    """The process-wide instrumented sync engine of the settings' database (created once per URL).

    A file or server database only: an in-memory SQLite URL would get a second, empty database.
    The few most recently used engines are kept; older ones are disposed (test runs switch
    between many temporary databases).
    """
    url = settings.sync_database_url
    with _engines_lock:
        engine = _engines.get(url)
        if engine is None:
            is_sqlite = url.startswith("sqlite")
            options: dict[str, Any] = {"connect_args": {"timeout": 30}} if is_sqlite else {"pool_pre_ping": True}
            engine = _engines[url] = sync_engine(settings, **options)
            while len(_engines) > _MAX_ENGINES:
                _engines.popitem(last=False)[1].dispose()
        _engines.move_to_end(url)
        return engine


def _query_bounds(window: Window) -> tuple[datetime, datetime | None]:
    """UTC-comparable bounds for the indexed query (widened for naive, site-local bounds)."""
    start, final = window.start, window.final
    lo = start if start.tzinfo is not None else (start - LOCAL_MARGIN).replace(tzinfo=UTC)
    if final is None:
        return lo, None
    return lo, final if final.tzinfo is not None else (final + LOCAL_MARGIN).replace(tzinfo=UTC)


def _is_naive(window: Window) -> bool:
    return window.start.tzinfo is None or (window.final is not None and window.final.tzinfo is None)


def _window_statement(dialect: str, asset_id: str, sensors: list[str], window: Window, limit: int) -> Select[Any]:
    """One range query on the (asset_id, ts) primary key; the instant comes back as a plain scalar."""
    table = TelemetryRow.__table__
    # SQLite keeps UTC as ISO text (numpy parses the whole column at once); elsewhere integer
    # epoch microseconds (exact: Postgres computes numeric) avoid a datetime object per row.
    instant: ColumnElement[Any]
    if dialect == "sqlite":
        instant = type_coerce(table.c.ts, String)
    else:
        instant = cast(func.round(extract("epoch", table.c.ts) * 1_000_000), BigInteger)
    lo, hi = _query_bounds(window)
    stmt = select(instant, table.c.utc_offset_min, *(table.c[SENSOR_COLUMNS[s]] for s in sensors))
    stmt = stmt.where(table.c.asset_id == asset_id, table.c.ts >= lo)
    if hi is not None:
        stmt = stmt.where(table.c.ts < hi)
    return stmt.order_by(table.c.ts).limit(limit)


def _columns(rows: Sequence[Any], dialect: str, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(UTC datetime64[us], offsets, float values) from the fetched rows in a few numpy calls."""
    columns: list[tuple[Any, ...]] = list(zip(*rows, strict=True)) if rows else [() for _ in range(width)]
    if dialect == "sqlite":
        utc = np.array(columns[0], dtype="datetime64[us]")
    else:
        utc = np.array(columns[0], dtype=np.int64).view("datetime64[us]")
    # None becomes NaN in the float64 conversion.
    values = np.array(columns[2:], dtype=np.float64).reshape(width - 2, len(rows)).T
    return utc, np.array(columns[1], dtype=np.int64), values


def _concat(
    chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray]], dialect: str, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not chunks:
        return _columns([], dialect, width)
    utc, offsets, values = zip(*chunks, strict=True)
    return np.concatenate(utc), np.concatenate(offsets), np.concatenate(values)


def _bound(moment: datetime) -> np.datetime64:
    """A window bound as naive datetime64: local wall time when naive, UTC when aware."""
    plain = moment if moment.tzinfo is None else moment.astimezone(UTC).replace(tzinfo=None)
    return np.datetime64(plain, "us")


def _inside(utc: np.ndarray, offsets: np.ndarray, window: Window) -> np.ndarray:
    """Vectorised window test: naive bounds compare with local time, aware ones with UTC."""
    local = utc + offsets.astype("timedelta64[m]")
    mask = (local if window.start.tzinfo is None else utc) >= _bound(window.start)
    if window.final is not None:
        mask &= (local if window.final.tzinfo is None else utc) < _bound(window.final)
    return mask


def fetch_window(engine: Engine, asset_id: str, sensors: list[str], window: Window, cap: int) -> WindowData:
    """Rows of `asset_id` inside `window`, oldest first, at most `cap` (blocking; run it in a thread)."""
    limit = cap + 1 + (_MARGIN_ROWS if _is_naive(window) else 0)
    dialect = engine.dialect.name
    stmt = _window_statement(dialect, asset_id, sensors, window, limit)
    width = 2 + len(sensors)
    # Converting in chunks keeps few row objects alive at once: fewer survive into the older
    # garbage-collector generations, which would make the next full collection (slow in a big
    # process) come sooner.
    with engine.connect() as conn:
        chunks = [_columns(rows, dialect, width) for rows in conn.execute(stmt).partitions(_CHUNK_ROWS)]
    utc, offsets, values = _concat(chunks, dialect, width)
    inside = _inside(utc, offsets, window)
    # Hitting the SQL limit with the last fetched row still inside the window means more may follow.
    truncated = int(inside.sum()) > cap or (len(utc) == limit and bool(inside[-1]))
    keep = np.flatnonzero(inside)[:cap]
    return WindowData(utc[keep], offsets[keep], values[keep], list(sensors), truncated)
