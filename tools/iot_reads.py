"""Telemetry window reads as worker tasks: query, contract shape and encoding in one go.

They run in this process or in a worker process (`tools.framework.workers`) and produce the same
bytes either way. Arguments are plain JSON values: the database (URL and data directory), the
asset, its bare sensor names, the window bounds as ISO text (no offset = site-local) and the cap.
The meta every read returns: `rows`, `sensor_names` (full names with data), `last_timestamp`
(None when empty) and `truncated` (the cap cut the window).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy.engine import Engine

from assetops.settings import Settings
from tools import iot_fetch, iot_shapes
from tools.framework.tasks import TaskOutput, worker_task
from tools.iot_fetch import Window
from tools.iot_shapes import ContractWindow


@lru_cache(maxsize=8)
def _settings(database_url: str, data_dir: str) -> Settings:
    return Settings(database_url=database_url, data_dir=Path(data_dir))


def _engine(database_url: str, data_dir: str) -> Engine:
    return iot_fetch.engine_for(_settings(database_url, data_dir))


def _read(
    database_url: str, data_dir: str, asset_id: str, sensors: list[str], start: str, final: str | None, cap: int
) -> tuple[ContractWindow, bool]:
    window = Window(datetime.fromisoformat(start), datetime.fromisoformat(final) if final else None)
    data = iot_fetch.fetch_window(_engine(database_url, data_dir), asset_id, sensors, window, cap)
    return iot_shapes.contract_window(data, asset_id), data.truncated


def _meta(window: ContractWindow, truncated: bool) -> dict[str, Any]:
    return {
        "rows": len(window),
        "sensor_names": window.sensor_names,
        "last_timestamp": window.timestamps[-1] if len(window) else None,
        "truncated": truncated,
    }


@worker_task
def read_observations(
    *, database_url: str, data_dir: str, asset_id: str, sensors: list[str], start: str, final: str | None, cap: int
) -> TaskOutput:
    """The window's contract `observations` as JSON text (meta `encoding`: orjson, or json when a
    value is infinite, which only Python's json writes, as `Infinity`)."""
    window, truncated = _read(database_url, data_dir, asset_id, sensors, start, final, cap)
    rows = iot_shapes.observations(window)
    finite = window.finite
    payload = orjson.dumps(rows) if finite else json.dumps(rows).encode()
    return TaskOutput(meta={**_meta(window, truncated), "encoding": "orjson" if finite else "json"},
                      payload=payload, value=rows)


@worker_task
def write_history_csv(
    *, database_url: str, data_dir: str, asset_id: str, sensors: list[str], start: str, final: str | None, cap: int,
    path: str,
) -> TaskOutput:
    """Write the window's CSV to `path` (already confined to the work directory by the caller)."""
    window, truncated = _read(database_url, data_dir, asset_id, sensors, start, final, cap)
    if len(window):
        iot_shapes.write_csv(window, Path(path))
    return TaskOutput(meta=_meta(window, truncated))
