"""Read an AssetOpsBench data folder (CSV files + CouchDB-style telemetry JSON) into a `FleetData`.

Only the tables whose files are present are provided, so a load replaces just those. Problems
found (unknown sensors, unparseable values, dropped rows) and assumptions made (naive timestamps
are site-local) are recorded in `FleetData.meta` under `import_notes` / `assumptions`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from sqlalchemy import Table

import assetops.db.tables  # noqa: F401  (registers every table on Base.metadata)
from assetops.db.base import Base
from assetops.db.tables.telemetry import SENSOR_COLUMNS, SENSOR_UNITS
from assetops.domain.catalog import TIMEZONE_META_KEY
from fleet.bulk import column_kind
from fleet.importer.csvfiles import parse_bools, parse_datetimes, parse_numbers, read_csv_table
from fleet.importer.fmea import fmea_from_failure_modes
from fleet.importer.telemetry_json import (
    SITE_TIMEZONE,
    TelemetryImport,
    is_telemetry_document,
    read_documents,
    telemetry_from_documents,
)
from fleet.model import EQUIPMENT_IDS, SITE, FleetData


class AssetOpsBenchImportError(ValueError):
    """The folder cannot be imported (missing, or no AssetOpsBench file in it)."""


@dataclass(frozen=True)
class CsvSpec:
    """One AssetOpsBench CSV file: the FleetData field it fills and its column renames."""

    file: str
    field: str
    table: str
    renames: tuple[tuple[str, str], ...] = ()


CSV_FILES: tuple[CsvSpec, ...] = (
    CsvSpec("all_wo_with_code_component_events.csv", "work_orders", "work_orders"),
    CsvSpec("event.csv", "events", "events"),
    CsvSpec("alert_events.csv", "alert_events", "alert_events"),
    CsvSpec("alert_rule.csv", "alert_rules", "alert_rules"),
    CsvSpec("alert_rule_failure_code_mapping.csv", "alert_rule_fc_mapping", "alert_rule_fc_mapping"),
    CsvSpec("anomaly_events.csv", "anomaly_events", "anomaly_events", (("KPI", "kpi"),)),
    CsvSpec("anomaly_to_failure_code_mapping.csv", "anomaly_fc_mapping", "anomaly_fc_mapping"),
    CsvSpec("failure_codes.csv", "failure_codes", "failure_codes"),
    CsvSpec("primary_failure_codes.csv", "primary_failure_codes", "primary_failure_codes"),
)
FMEA_FILE = "failure_mode.csv"


def read_assetopsbench(folder: Path | str) -> FleetData:
    """Read every known file of `folder`; raises `AssetOpsBenchImportError` when none is there."""
    folder = Path(folder)
    if not folder.is_dir():
        raise AssetOpsBenchImportError(f"{folder} is not a directory; give the folder holding the AssetOpsBench CSV/JSON files")
    data = FleetData(source=f"assetopsbench:{folder.resolve()}")
    notes: list[str] = []
    assumptions: list[str] = []
    found: list[str] = []
    for spec in CSV_FILES:
        path = folder / spec.file
        if path.is_file():
            setattr(data, spec.field, _read_table_file(path, spec, notes))
            found.append(spec.file)
    if (folder / FMEA_FILE).is_file():
        table = read_csv_table(folder / FMEA_FILE)
        notes += table.notes
        data.fmea = fmea_from_failure_modes(table.frame, notes)
        found.append(FMEA_FILE)
    telemetry = _read_telemetry(folder, notes, found)
    if not found:
        raise AssetOpsBenchImportError(f"{folder} holds no AssetOpsBench file; expected some of "
                           + ", ".join([s.file for s in CSV_FILES] + [FMEA_FILE, "*.json / *.jsonl telemetry"]))
    if telemetry is not None:
        data.telemetry = telemetry.frame
        assumptions += telemetry.assumptions
        data.asset_sensors = _asset_sensors(telemetry)
    data.assets = _assets(data, telemetry)
    data.meta = {"files": ",".join(found), "import_notes": json.dumps(notes),
                 "assumptions": json.dumps(assumptions), TIMEZONE_META_KEY: SITE_TIMEZONE}
    return data


def _read_table_file(path: Path, spec: CsvSpec, notes: list[str]) -> pd.DataFrame:
    table = read_csv_table(path)
    notes += table.notes
    frame = table.frame.rename(columns=dict(spec.renames))
    columns = Base.metadata.tables[spec.table].columns
    unknown = [c for c in frame.columns if c not in columns]
    if unknown:
        notes.append(f"{path.name}: columns {unknown} are not part of table {spec.table}; ignored")
        frame = frame.drop(columns=unknown)
    frame = _typed(frame, Base.metadata.tables[spec.table], path.name, notes)
    return _drop_incomplete(frame, Base.metadata.tables[spec.table], path.name, notes)


def _typed(frame: pd.DataFrame, table: Table, file: str, notes: list[str]) -> pd.DataFrame:
    """Convert the text cells to each column's type (dates, TRUE/FALSE, numbers)."""
    out = frame.copy()
    for name in frame.columns:
        kind = column_kind(table.columns[name])
        where = f"{file} column {name}"
        if kind in ("naive", "utc"):
            out[name] = parse_datetimes(frame[name], where, notes)
        elif kind == "bool":
            out[name] = parse_bools(frame[name], where, notes)
        elif kind in ("int", "float"):
            out[name] = parse_numbers(frame[name], where, notes)
            if kind == "int":
                out[name] = out[name].round().astype("Int64")
    return out


def _drop_incomplete(frame: pd.DataFrame, table: Table, file: str, notes: list[str]) -> pd.DataFrame:
    """Drop rows lacking a value the table requires (a NOT NULL column without default)."""
    required = [c.name for c in table.columns
                if not c.nullable and c.default is None and c.name in frame.columns and c.name != "row_order"]
    missing = frame[required].isna().any(axis=1) if required else pd.Series(False, index=frame.index)
    if missing.any():
        notes.append(f"{file}: {int(missing.sum())} rows lack one of {required}; dropped")
    return frame[~missing].reset_index(drop=True)


def _read_telemetry(folder: Path, notes: list[str], found: list[str]) -> TelemetryImport | None:
    docs = []
    for path in sorted([*folder.glob("*.json"), *folder.glob("*.jsonl")]):
        try:
            file_docs = read_documents(path)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            notes.append(f"{path.name}: not readable as JSON or JSON lines ({exc}); skipped")
            continue
        telemetry_docs = [d for d in file_docs if is_telemetry_document(d)]
        if not telemetry_docs:
            notes.append(f"{path.name}: no telemetry documents (asset_id + timestamp); skipped")
            continue
        if len(telemetry_docs) < len(file_docs):
            notes.append(f"{path.name}: {len(file_docs) - len(telemetry_docs)} documents without asset_id/timestamp skipped")
        docs += telemetry_docs
        found.append(path.name)
    if not docs:
        return None
    telemetry = telemetry_from_documents(docs)
    notes += telemetry.notes
    return telemetry


def _asset_sensors(telemetry: TelemetryImport) -> pd.DataFrame:
    rows = [{"asset_id": asset, "sensor_name": f"{asset} {sensor}", "column_name": SENSOR_COLUMNS[sensor],
             "unit": SENSOR_UNITS.get(sensor, "")}
            for asset, sensors in sorted(telemetry.sensors.items()) for sensor in sorted(sensors)]
    return pd.DataFrame(rows, columns=["asset_id", "sensor_name", "column_name", "unit"])


def _assets(data: FleetData, telemetry: TelemetryImport | None) -> pd.DataFrame | None:
    """Assets from the (equipment_id, equipment_name) pairs of the maintenance files and the telemetry.

    Without telemetry in the folder the assets table is left as it is (None): rebuilding it would
    mark every chiller as having no telemetry while the telemetry table still holds some.
    """
    if telemetry is None:
        return None
    pairs = pd.concat([frame[["equipment_id", "equipment_name"]] for frame in
                       (data.work_orders, data.events, data.alert_events) if frame is not None]
                      or [pd.DataFrame(columns=["equipment_id", "equipment_name"])]).dropna()
    # The most frequent id per name wins, should a file disagree with another.
    counts = pairs.value_counts().reset_index(name="n").sort_values(["equipment_name", "n"], ascending=[True, False])
    best = counts.drop_duplicates("equipment_name", keep="first")
    equipment = dict(zip(best["equipment_name"], best["equipment_id"], strict=True))
    for asset in telemetry.sensors:
        equipment.setdefault(asset, EQUIPMENT_IDS.get(asset, asset))
    rows = [{"asset_id": name, "site": SITE, "equipment_id": eid, "asset_class": "chiller",
             "has_telemetry": name in telemetry.sensors} for name, eid in sorted(equipment.items(), key=_natural)]
    return pd.DataFrame(rows, columns=["asset_id", "site", "equipment_id", "asset_class", "has_telemetry"])


def _natural(item: tuple[str, str]) -> tuple[str, int]:
    """Sort "Chiller 2" before "Chiller 10"."""
    prefix, _, number = item[0].rpartition(" ")
    return (prefix, int(number)) if number.isdigit() else (item[0], 0)
