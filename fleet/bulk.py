"""Turn a `FleetData` frame into storage-ready values and bulk-write them (COPY / executemany).

The ORM is far too slow for ~840k telemetry rows, so the loader writes through the driver
connection. That bypasses the column types of `assetops.db`, so this module reproduces exactly what
they store: `UTCDateTime` is naive UTC text on SQLite and `timestamptz` on Postgres, plain
`DateTime` is naive text in SQLAlchemy's SQLite format, JSON columns are JSON text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC
from typing import Any, Literal

import numpy as np
import pandas as pd
from psycopg.types.json import Json
from sqlalchemy import JSON, Boolean, DateTime, Float, Integer, Table

from assetops.db.base import UTCDateTime

ColumnKind = Literal["utc", "naive", "bool", "int", "float", "json", "str"]
ChunkDone = Callable[[int], None]  # called with the number of rows just written

CHUNK_ROWS = 100_000


class FleetDataError(ValueError):
    """A frame does not fit its table; the message says which table, which column and what to fix."""


def column_kind(column: Any) -> ColumnKind:
    """How values of `column` are converted for storage."""
    col_type = column.type
    if isinstance(col_type, UTCDateTime):
        return "utc"
    if isinstance(col_type, DateTime):
        return "naive"
    if isinstance(col_type, Boolean):
        return "bool"
    if isinstance(col_type, Integer):
        return "int"
    if isinstance(col_type, Float):
        return "float"
    if isinstance(col_type, JSON):
        return "json"
    return "str"


def _scalar_default(column: Any) -> Any:
    default = column.default
    if default is not None and getattr(default, "is_scalar", False):
        return default.arg
    if default is not None and getattr(default, "is_callable", False):
        value = default.arg
        # `default=list` / `default=dict` become callables taking the execution context.
        return value(None) if callable(value) else value
    return None


def conform_frame(table: Table, frame: pd.DataFrame) -> pd.DataFrame:
    """Order and complete `frame` as `table`'s columns, with `row_order` taken from the frame order.

    Missing nullable columns become NULL; missing columns, and empty cells of NOT NULL columns, with a
    default get that default. An unknown column or a missing required one is a `FleetDataError`.
    """
    names = [c.name for c in table.columns]
    unknown = sorted(set(frame.columns) - set(names))
    if unknown:
        raise FleetDataError(f"table {table.name}: unknown columns {unknown}; the table has {names}")
    out: dict[str, Any] = {}
    for column in table.columns:
        if column.name == "row_order":
            out["row_order"] = np.arange(len(frame), dtype=np.int64)
        elif column.name in frame.columns:
            # Keep the Series: to_numpy() on a tz-aware column would box every value into a Timestamp.
            values = frame[column.name].reset_index(drop=True)
            default = None if column.nullable else _scalar_default(column)
            # An empty cell in a NOT NULL column with a default (e.g. `preventive`) takes the default.
            out[column.name] = values if default is None or not values.isna().any() else \
                values.astype(object).where(values.notna(), default)
        elif column.nullable:
            out[column.name] = [None] * len(frame)
        else:
            default = _scalar_default(column)
            if default is None:
                raise FleetDataError(f"table {table.name}: required column {column.name!r} is missing from the frame")
            out[column.name] = [default] * len(frame)
    return pd.DataFrame(out, index=pd.RangeIndex(len(frame)))


def _naive_datetimes(values: pd.Series, table: str, column: str, *, aware: bool) -> pd.Series:
    """datetime64 values, converted to naive UTC when the column is a UTC column."""
    if values.isna().all():
        return pd.Series(pd.NaT, index=values.index, dtype="datetime64[us]")
    if aware:
        return _as_utc(values, table, column)
    if isinstance(values.dtype, pd.DatetimeTZDtype):
        raise FleetDataError(
            f"table {table}: column {column!r} holds naive site-local times, but the frame is tz-aware; "
            "convert to site-local time and drop the zone (tz_convert(...).tz_localize(None))")
    return pd.to_datetime(values)


def _as_utc(values: pd.Series, table: str, column: str) -> pd.Series:
    if isinstance(values.dtype, pd.DatetimeTZDtype):
        return values.dt.tz_convert("UTC").dt.tz_localize(None)
    present = values.dropna()
    if any(getattr(v, "tzinfo", None) is None for v in present):
        raise FleetDataError(
            f"table {table}: column {column!r} is a UTC column but got naive datetimes; "
            "attach the UTC offset (tz_localize('UTC') or the site zone) before loading")
    return pd.to_datetime(values, utc=True).dt.tz_localize(None)


def _json_text(values: pd.Series) -> pd.Series:
    def dump(value: Any) -> str | None:
        if value is None or (isinstance(value, float) and np.isnan(value)):
            return None
        if isinstance(value, np.ndarray):
            value = value.tolist()
        return json.dumps(value, default=str)

    return pd.Series([dump(v) for v in values], dtype=object)


def storage_frame(table: Table, frame: pd.DataFrame) -> pd.DataFrame:
    """`conform_frame` output with one storage dtype per column kind (datetimes naive, UTC ones in UTC)."""
    out: dict[str, pd.Series] = {}
    for column in table.columns:
        values = frame[column.name]
        kind = column_kind(column)
        if kind in ("utc", "naive"):
            out[column.name] = _naive_datetimes(values, table.name, column.name, aware=kind == "utc")
        elif kind == "json":
            out[column.name] = _json_text(values)
        elif kind == "int":
            out[column.name] = pd.to_numeric(values).astype("Int64")
        elif kind == "float":
            out[column.name] = pd.to_numeric(values).astype("float64")
        elif kind == "bool":
            out[column.name] = values.astype(object).where(values.notna(), None).map(
                lambda v: None if v is None else bool(v))
        else:
            text = values.astype("str").astype(object)
            text[values.isna().to_numpy()] = None
            out[column.name] = text
    return pd.DataFrame(out)


def _python_values(values: pd.Series, kind: ColumnKind, dialect: str) -> list[Any]:
    """Plain Python values (None for missing) for the driver; datetimes as the dialect stores them."""
    if kind in ("utc", "naive"):
        stamps = values.to_numpy(dtype="datetime64[us]")
        if dialect == "sqlite":
            # SQLAlchemy's SQLite DateTime format; range queries compare these strings.
            text = np.char.replace(np.datetime_as_string(stamps, unit="us"), "T", " ").astype(object)
            text[np.isnat(stamps)] = None
            return text.tolist()
        objects = stamps.astype(object).tolist()  # NaT becomes None
        return [None if v is None else v.replace(tzinfo=UTC) for v in objects] if kind == "utc" else objects
    if kind == "json" and dialect == "postgresql":
        return [None if v is None else Json(v, dumps=_already_dumped) for v in values]
    if values.dtype == "Int64":
        if not values.isna().any():
            return values.to_numpy(dtype=np.int64).tolist()
        return [None if v is pd.NA else int(v) for v in values.astype(object)]
    if values.dtype == "float64":
        return values.astype(object).where(values.notna(), None).tolist()
    return values.tolist()


def _already_dumped(value: Any) -> str:
    return str(value)


def _chunks(table: Table, data: pd.DataFrame, dialect: str) -> Iterator[list[tuple[Any, ...]]]:
    kinds = [column_kind(c) for c in table.columns]
    for start in range(0, len(data), CHUNK_ROWS):
        chunk = data.iloc[start:start + CHUNK_ROWS]
        columns = [_python_values(chunk[c.name], k, dialect) for c, k in zip(table.columns, kinds, strict=True)]
        yield list(zip(*columns, strict=True))


def write_sqlite(cursor: Any, table: Table, data: pd.DataFrame, on_chunk: ChunkDone) -> None:
    """Insert `data` (a `storage_frame`) with `executemany` in large batches."""
    columns = ", ".join(f'"{c.name}"' for c in table.columns)
    marks = ", ".join("?" for _ in table.columns)
    sql = f'INSERT INTO "{table.name}" ({columns}) VALUES ({marks})'
    for rows in _chunks(table, data, "sqlite"):
        cursor.executemany(sql, rows)
        on_chunk(len(rows))


def _postgres_type(column: Any) -> str:
    kind = column_kind(column)
    if kind == "int":
        return {"SmallInteger": "int2", "BigInteger": "int8"}.get(type(column.type).__name__, "int4")
    return {"utc": "timestamptz", "naive": "timestamp", "bool": "bool", "float": "float8",
            "json": "json", "str": "text"}[kind]


def write_postgres(cursor: Any, table: Table, data: pd.DataFrame, on_chunk: ChunkDone) -> None:
    """Stream `data` (a `storage_frame`) through a binary `COPY ... FROM STDIN`.

    Binary COPY spares the server from parsing text floats and timestamps, which made the text
    format three times slower for the telemetry table.
    """
    columns = ", ".join(f'"{c.name}"' for c in table.columns)
    with cursor.copy(f'COPY "{table.name}" ({columns}) FROM STDIN (FORMAT BINARY)') as copy:
        copy.set_types([_postgres_type(c) for c in table.columns])
        for rows in _chunks(table, data, "postgresql"):
            for row in rows:
                copy.write_row(row)
            on_chunk(len(rows))
