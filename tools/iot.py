"""Server `iot`: sites, assets, sensors and telemetry history (JSON or CSV) of the MAIN-site chillers.

Metadata reads go through `ctx.db`; telemetry windows are read, shaped and (for CSV) written by one
task of `tools.iot_reads` on the same database's instrumented sync engine, in this process or in a
worker process when several reads run at once (`tools.framework.workers`); either way the profiler
sees every query. Windows are `start` inclusive, `final` exclusive; bounds without an
offset are site-local time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

import orjson
from pydantic import Field

from assetops.db.tables.telemetry import SENSOR_UNITS
from assetops.domain.catalog import DEFAULT_SITE
from tools import iot_data, iot_reads, iot_shapes
from tools.framework import ToolContext, ToolError, note_rows, tool, tool_context
from tools.framework.calls import EncodedOutput
from tools.framework.dates import check_order, parse_date_arg
from tools.framework.tasks import TaskFn, TaskOutput
from tools.framework.workers import run_task
from tools.iot_fetch import Window

HISTORY_CAP = 1000
HISTORY_CSV_CAP = 5000

SiteName = Annotated[str, Field(description="Site name. Example: MAIN")]
AssetId = Annotated[str, Field(description="Asset id (chiller name). Example: Chiller 9")]
Start = Annotated[
    str,
    Field(description="Inclusive window start, ISO date or datetime; no offset means site-local time. "
                      "Example: 2020-06-01 or 2020-06-01T00:00:00-04:00"),
]
Final = Annotated[
    str | None,
    Field(description="Exclusive window end, ISO date or datetime; omit for 'until the end of the data' "
                      "(capped). Example: 2020-07-01"),
]


def _match(name: str, known: list[str]) -> str | None:
    """The known name equal to `name` ignoring case and surrounding spaces."""
    wanted = name.strip().casefold()
    return next((k for k in known if k.casefold() == wanted), None)


async def _known_assets(ctx: ToolContext, site_name: str) -> tuple[str, dict[str, list[str]]]:
    """(canonical site name, {asset_id: bare sensor names}) or a ToolError naming the known sites."""
    catalogue = await iot_data.catalogue(ctx)
    site = _match(site_name, list(catalogue))
    if site is None:
        raise ToolError(f"unknown site {site_name}; known sites: {', '.join(sorted(catalogue) or [DEFAULT_SITE])}")
    return site, catalogue[site]


async def _asset_sensors(ctx: ToolContext, site_name: str, asset_id: str) -> tuple[str, str, list[str]]:
    """(site, canonical asset id, bare sensor names) of a known asset, or a ToolError listing the known assets."""
    site, assets_of_site = await _known_assets(ctx, site_name)
    asset = _match(asset_id, list(assets_of_site))
    if asset is None:
        raise ToolError(
            f"unknown asset_id {asset_id} at site {site}; known assets: {', '.join(sorted(assets_of_site))}"
        )
    return site, asset, assets_of_site[asset] or await iot_data.sensors_with_data(ctx, asset)


@tool("iot")
async def sites() -> dict[str, Any]:
    """List the sites that have monitored assets. Example result: {"sites": ["MAIN"]}."""
    catalogue = await iot_data.catalogue(tool_context())
    return {"sites": sorted(catalogue) or [DEFAULT_SITE]}


@tool("iot")
async def assets(site_name: SiteName) -> dict[str, Any]:
    """List the asset ids (chillers with telemetry) of a site, sorted."""
    site, assets_of_site = await _known_assets(tool_context(), site_name)
    ids = sorted(assets_of_site)
    return {
        "site_name": site,
        "total_assets": len(ids),
        "assets": ids,
        "message": f"found {len(ids)} asset ids for site_name {site}: {', '.join(ids)}.",
    }


@tool("iot")
async def sensors(site_name: SiteName, asset_id: AssetId) -> dict[str, Any]:
    """List an asset's sensors by full name ("Chiller 9 Supply Temperature"), sorted, with units."""
    site, asset, bare = await _asset_sensors(tool_context(), site_name, asset_id)
    if not bare:
        raise ToolError(f"unknown asset_id {asset_id} or no sensors found")
    names = [iot_shapes.full_sensor_name(asset, s) for s in bare]
    return {
        "site_name": site,
        "asset_id": asset,
        "total_sensors": len(names),
        "sensors": names,
        "units": {iot_shapes.full_sensor_name(asset, s): SENSOR_UNITS.get(s, "") for s in bare},
        "message": f"found {len(names)} sensors for asset_id {asset} and site_name {site}: {', '.join(names)}.",
    }


def _window(start: str, final: str | None) -> Window:
    begin = parse_date_arg("start", start)
    end = parse_date_arg("final", final)
    assert begin is not None
    check_order(begin, end, start_name="start", end_name="final")
    return Window(begin, end)


@dataclass(frozen=True)
class WindowRead:
    """A validated, read window: canonical ids, its size and columns, and whether a cap cut it."""

    site_name: str
    asset_id: str
    rows: int
    sensor_names: list[str]
    last_timestamp: str  # local ISO timestamp of the last row returned (the window is never empty here)
    truncated: bool

    @property
    def columns(self) -> list[str]:
        """timestamp, asset_id, then the sensors by full name (the contract's column order)."""
        return iot_shapes.contract_columns(self.sensor_names)


async def _read(
    site_name: str, asset_id: str, start: str, final: str | None, cap: int, task: TaskFn,
    extra: Callable[[str], dict[str, Any]] | None = None,
) -> tuple[WindowRead, TaskOutput]:
    """Validate the arguments and run a window-read task of `tools.iot_reads` (off the event loop,
    in a worker process when one is free); `extra` adds task arguments for the canonical asset id.
    Raises a ToolError with the asset's coverage when the window is empty."""
    window = _window(start, final)
    ctx = tool_context()
    site, asset, bare = await _asset_sensors(ctx, site_name, asset_id)
    database = ctx.db.settings
    kwargs = {
        "database_url": database.effective_database_url, "data_dir": str(database.data_dir),
        "asset_id": asset, "sensors": bare, "start": window.start.isoformat(),
        "final": window.final.isoformat() if window.final is not None else None, "cap": cap,
        **(extra(asset) if extra is not None else {}),
    }
    output = await run_task(task, kwargs, ctx.settings)
    meta = output.meta
    note_rows(int(meta["rows"]))
    if not meta["rows"]:
        raise ToolError(await _empty_window_message(ctx, asset, start, final))
    read = WindowRead(site, asset, int(meta["rows"]), list(meta["sensor_names"]), str(meta["last_timestamp"]),
                      bool(meta["truncated"]))
    return read, output


async def _empty_window_message(ctx: ToolContext, asset_id: str, start: str, final: str | None) -> str:
    covered = await iot_data.coverage(ctx, asset_id)
    if covered is None:
        return f"No telemetry stored for asset_id {asset_id}."
    (first, last), count = tuple(covered[0]), covered[1]
    return (
        f"No observations for asset_id {asset_id} from {start} to {final or 'now'}: its data covers "
        f"{first} to {last} ({count} observations). Choose a window inside that range."
    )


def _window_text(start: str, final: str | None) -> str:
    return f"from {start} to {final or 'now'}"


def next_start(last_timestamp: str) -> str:
    """The earliest `start` that continues after `last_timestamp` (start is inclusive)."""
    return (datetime.fromisoformat(last_timestamp) + timedelta(microseconds=1)).isoformat()


def _cap_fields(truncated: bool, cap: int, last_timestamp: str) -> tuple[dict[str, Any], str]:
    """Extra output keys and the message sentence that say a cap cut the window short."""
    if not truncated:
        return {"truncated": False, "last_timestamp": last_timestamp}, ""
    resume = next_start(last_timestamp)
    note = (
        f" The result was capped at {cap} observations, so the window is truncated: the last timestamp "
        f"returned is {last_timestamp}; call again with start={resume} to continue."
    )
    return {"truncated": True, "last_timestamp": last_timestamp, "next_start": resume}, note


@tool("iot")
async def history(
    site_name: SiteName, asset_id: AssetId, start: Start, final: Final = None
) -> dict[str, Any] | EncodedOutput:
    """Telemetry observations of one asset in [start, final), oldest first, at most 1000."""
    read, encoded = await _read(site_name, asset_id, start, final, HISTORY_CAP, iot_reads.read_observations)
    cap_fields, cap_note = _cap_fields(read.truncated, HISTORY_CAP, read.last_timestamp)
    n = read.rows
    exact = encoded.meta["encoding"] == "orjson"
    rows = encoded.value if encoded.value is not None else (orjson if exact else json).loads(encoded.payload)
    output = {
        "site_name": read.site_name,
        "asset_id": read.asset_id,
        "total_observations": n,
        "start": start,
        "final": final,
        "observations": rows,
        **cap_fields,
        "message": f"found {n} observations for asset_id {read.asset_id} {_window_text(start, final)}." + cap_note,
    }
    if not exact:  # an infinite value: the call path's json round trip writes it as Infinity
        return output
    # The observations' orjson text parses back to exactly `rows` (no NaN/inf), so it is spliced
    # into the result's text instead of encoding ~10k values again.
    text = orjson.dumps({**output, "observations": orjson.Fragment(encoded.payload)}).decode()
    return EncodedOutput(output, text)


def _stamp(text: str) -> str:
    parsed = datetime.fromisoformat(text.strip())
    return parsed.strftime("%Y%m%dT%H%M%S")


def csv_file_name(asset_id: str, start: str, final: str | None) -> str:
    """`Chiller_3_20200601T000000_20200701T000000_history.csv` (the contract's pattern)."""
    safe_asset = re.sub(r"[^A-Za-z0-9_.-]", "_", asset_id.replace(" ", "_"))
    return f"{safe_asset}_{_stamp(start)}_{_stamp(final) if final else 'now'}_history.csv"


@tool("iot")
async def history_csv(site_name: SiteName, asset_id: AssetId, start: Start, final: Final = None) -> dict[str, Any]:
    """Write one asset's telemetry in [start, final) (at most 5000 rows) to a CSV in the work directory.

    Columns: timestamp (site-local ISO with offset), asset_id, then the sensors with data in the
    window by full name. Use the returned csv_path with utilities.csv_stats or the tsfm tools.
    """
    workdir = tool_context().workdir

    def csv_path(asset: str) -> dict[str, Any]:
        return {"path": str(workdir / csv_file_name(asset, start, final))}

    read, _ = await _read(site_name, asset_id, start, final, HISTORY_CSV_CAP, iot_reads.write_history_csv,
                                csv_path)
    path = csv_path(read.asset_id)["path"]
    cap_fields, cap_note = _cap_fields(read.truncated, HISTORY_CSV_CAP, read.last_timestamp)
    n = read.rows
    return {
        "site_name": read.site_name,
        "asset_id": read.asset_id,
        "total_observations": n,
        "start": start,
        "final": final,
        "columns": read.columns,
        "csv_path": str(path),
        **cap_fields,
        "message": f"Wrote {n} observations for {read.asset_id} ({start} to {final or 'now'}) to {path}. "
                   f"Sensor columns: {', '.join(read.sensor_names)}." + cap_note,
    }
