"""Tolerant readers for the AssetOpsBench CSV files: BOM, CRLF, trailing commas, mixed date formats.

Every problem found is reported as a note (a sentence a person can act on) instead of failing the
whole import; only rows that cannot be stored (a required value missing) are dropped, and counted.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

# Tried in order; the first one that parses a value wins. AssetOpsBench mixes `m/d/y H:M`
# (work orders, alerts, anomalies) with `Y-m-d H:M:S` (events).
DATE_FORMATS: tuple[str, ...] = (
    "%m/%d/%y %H:%M", "%m/%d/%Y %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%m/%d/%y %H:%M:%S",
    "%m/%d/%Y %H:%M:%S", "%m/%d/%y", "%m/%d/%Y", "%Y-%m-%d", "ISO8601",
)
TRUE_WORDS = frozenset({"true", "t", "yes", "y", "1"})
FALSE_WORDS = frozenset({"false", "f", "no", "n", "0"})


@dataclass
class CsvTable:
    """A CSV file read as text: header names stripped, empty cells as None."""

    path: Path
    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)


def read_csv_table(path: Path) -> CsvTable:
    """Read `path` as strings, tolerating a BOM, CRLF, blank lines and trailing extra commas."""
    notes: list[str] = []
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = [name.strip() for name in next(reader, [])]
        while header and not header[-1]:
            header.pop()  # a trailing comma on the header line
        rows: list[list[str | None]] = []
        extra_lines = 0
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(row) > len(header):
                if any(cell.strip() for cell in row[len(header):]):
                    notes.append(f"{path.name} line {reader.line_num}: {len(row)} fields for "
                                 f"{len(header)} columns; the extra values were ignored")
                extra_lines += 1
                row = row[:len(header)]
            row = row + [""] * (len(header) - len(row))
            rows.append([cell.strip() or None for cell in row])
    if extra_lines:
        notes.append(f"{path.name}: {extra_lines} lines had trailing extra fields (ignored)")
    return CsvTable(path, pd.DataFrame(rows, columns=header, dtype=object), notes)


def parse_datetimes(values: pd.Series, where: str, notes: list[str]) -> pd.Series:
    """Naive datetimes from text in any of DATE_FORMATS; unparseable values become NaT with a note."""
    text = values.astype(object)
    result = pd.Series(pd.NaT, index=values.index, dtype="datetime64[us]")
    todo = text.notna()
    for fmt in DATE_FORMATS:
        if not todo.any():
            break
        parsed = pd.to_datetime(text[todo], format=fmt, errors="coerce")
        if isinstance(parsed.dtype, pd.DatetimeTZDtype):
            parsed = parsed.dt.tz_localize(None)
        ok = parsed.notna()
        result.loc[ok[ok].index] = parsed[ok].astype("datetime64[us]")
        todo = todo & result.isna()
    if todo.any():
        sample = ", ".join(repr(v) for v in text[todo].head(3))
        notes.append(f"{where}: {int(todo.sum())} values are not dates in a known format (e.g. {sample}); left empty")
    return result


def parse_bools(values: pd.Series, where: str, notes: list[str]) -> pd.Series:
    """TRUE/FALSE (any case, also yes/no, 1/0) to booleans; other values become None with a note."""
    def convert(value: object) -> bool | None:
        if value is None:
            return None
        word = str(value).strip().lower()
        return True if word in TRUE_WORDS else False if word in FALSE_WORDS else None

    converted = values.map(convert).astype(object)
    bad = converted.isna() & values.notna()
    if bad.any():
        notes.append(f"{where}: {int(bad.sum())} values are not TRUE/FALSE (e.g. {values[bad].iloc[0]!r}); left empty")
    return converted


def parse_numbers(values: pd.Series, where: str, notes: list[str]) -> pd.Series:
    """Floats from text; unparseable values become NaN with a note."""
    parsed = pd.to_numeric(values, errors="coerce")
    bad = parsed.isna() & values.notna()
    if bad.any():
        notes.append(f"{where}: {int(bad.sum())} values are not numbers (e.g. {values[bad].iloc[0]!r}); left empty")
    return parsed.astype("float64")
