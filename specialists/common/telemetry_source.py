"""Where analysis gets its telemetry: the session's telemetry_window artifacts (I/O edge).

Specialists look for a telemetry artifact that covers the asset, window and sensors (visible
artifacts first, then the store). When there is none (the analysis needs a wider window than the
one fetched, or nothing was fetched yet), the specialist fetches it itself through the data
specialist's history collection (the one implementation of history fetching: reuse, slicing,
chunked parallel calls, the telemetry_window artifact) with the calls made in its own name. Handing
the supervisor a follow-up instead cost a failed step (the analysis could not run), a data step and
a rerun, and a rerun that makes no tool call of its own (trend statistics) never showed the failed
step as repaired.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd

from artifacts.matching import CoverageQuery, best_cover, covers
from artifacts.model import Artifact
from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import SpecialistTask, TimeWindow
from assetops.files import atomic_to_csv
from specialists.base import SpecialistContext
from specialists.common.frames import asset_frame, full_name, read_telemetry_csv

TELEMETRY_KIND = "telemetry_window"


@dataclass
class Telemetry:
    """One asset's telemetry for a task: the artifact it came from and the analysis frame."""

    asset_id: str
    artifact: Artifact
    frame: pd.DataFrame  # short sensor names, UTC index, sliced to the task window when one is given
    window: TimeWindow


def task_assets(task: SpecialistTask, catalog: FleetCatalog) -> list[str]:
    """The task's assets, from asset ids or mapped equipment ids, in order, without duplicates."""
    assets = list(dict.fromkeys(task.asset_ids))
    for code in task.equipment_ids:
        name = catalog.asset_id_of(code)
        if name and name not in assets:
            assets.append(name)
    return assets


def _latest_for_asset(artifacts: list[Artifact], asset_id: str) -> Artifact | None:
    own = [a for a in artifacts if a.kind == TELEMETRY_KIND and asset_id in a.asset_ids and a.data_ref]
    return max(own, key=lambda a: a.created_at) if own else None


async def find_telemetry(
    ctx: SpecialistContext, asset_id: str, window: TimeWindow | None, sensors: list[str]
) -> Artifact | None:
    """The tightest telemetry artifact covering asset, window and sensors; without a window, the
    newest telemetry artifact of the asset (what the conversation has been looking at)."""
    wanted = frozenset(full_name(s, asset_id) for s in sensors)
    if window is None:
        visible = _latest_for_asset(ctx.visible_artifacts, asset_id)
        return visible or _latest_for_asset(await ctx.store.list_session(ctx.session_id), asset_id)
    query = CoverageQuery(
        session_id=ctx.session_id,
        asset_id=asset_id,
        start=window.start,
        end=window.end,
        sensors=wanted,
        kinds=frozenset({TELEMETRY_KIND}),
    )
    covering = [a for a in ctx.visible_artifacts if a.data_ref and covers(a, query)]
    found = best_cover(covering, query)
    if found is None:
        found = await ctx.store.best_covering(query)
    return found if found is not None and found.data_ref else None


async def fetch_telemetry(ctx: SpecialistContext, specialist: str, asset_ids: list[str], window: TimeWindow | None,
                          sensors: list[str], *, why: str) -> tuple[list[Telemetry], list[str]]:
    """Telemetry of `asset_ids` over `window` that the session does not hold yet, fetched now through
    the data specialist's history collection, the calls made as `specialist`'s own; the telemetry found
    and one error per asset without any. The new windows are recorded on the context
    (`fetched_artifact_ids`), so the result cites them as made by this task."""
    from specialists.data.history import collect_histories  # one implementation of history fetching
    from specialists.data.specialist import DEFAULT_LOOKBACK  # no window: the week before the reference date

    if window is None:
        end = datetime.combine(ctx.reference_date, datetime.min.time(), tzinfo=ctx.catalog.zone)
        start = end - DEFAULT_LOOKBACK
    else:
        start, end = window.start, window.end
    outside = _outside_coverage(ctx.catalog, start, end)
    if outside:  # a call known to fail is not made (a year-on-year baseline before the data begins)
        return [], [f"no telemetry of {', '.join(asset_ids)} for {why}: {outside}"]
    histories = await collect_histories(replace(ctx, llm=None), asset_ids, start, end, sensors, specialist=specialist)
    found, errors = [], []
    for history in histories:
        if history.artifact is None:
            errors.append(f"no telemetry of {history.asset_id} for {why}: {history.error}")
            continue
        if history.created:
            ctx.fetched_artifact_ids.append(history.artifact.id)
        found.append(await load_telemetry(history.artifact, history.asset_id, window))
    return found, errors


def _outside_coverage(catalog: FleetCatalog, start: datetime, end: datetime) -> str | None:
    """Why [start, end) holds no telemetry at all when it lies outside the site's coverage, else None."""
    first, after = catalog.first_day, catalog.end_day
    if first is None or after is None:
        return None
    zone = catalog.zone
    if _local_day(end, zone) <= first or _local_day(start, zone) >= after:
        return f"the site's telemetry covers {first} to {after - timedelta(days=1)}"
    return None


def _local_day(moment: datetime, zone: ZoneInfo) -> date:
    return (moment.astimezone(zone) if moment.tzinfo else moment).date()


async def obtain_telemetry(ctx: SpecialistContext, specialist: str, asset_id: str, window: TimeWindow | None,
                           sensors: list[str], *, why: str) -> tuple[Telemetry | None, str | None]:
    """One asset's telemetry over `window` (None: the newest window the session holds, else the week
    before the reference date): held by the session, else fetched now (fetch_telemetry)."""
    artifact = await find_telemetry(ctx, asset_id, window, sensors)
    if artifact is not None:
        return await load_telemetry(artifact, asset_id, window), None
    found, errors = await fetch_telemetry(ctx, specialist, [asset_id], window, sensors, why=why)
    return (found[0], None) if found else (None, errors[0] if errors else f"no telemetry of {asset_id} for {why}")


def _window_of(artifact: Artifact) -> TimeWindow:
    assert artifact.window_start is not None and artifact.window_end is not None
    return TimeWindow(artifact.window_start, artifact.window_end, "")


async def load_telemetry(artifact: Artifact, asset_id: str, window: TimeWindow | None) -> Telemetry:
    """Read the artifact's CSV off the event loop and cut it to the window."""
    raw = await asyncio.to_thread(read_telemetry_csv, Path(str(artifact.data_ref)))
    frame = asset_frame(raw, asset_id)
    if window is not None:
        start, end = pd.Timestamp(window.start).tz_convert("UTC"), pd.Timestamp(window.end).tz_convert("UTC")
        frame = frame[(frame.index >= start) & (frame.index < end)]
    return Telemetry(asset_id, artifact, frame, window or _window_of(artifact))


async def gather_telemetry(
    ctx: SpecialistContext, task: SpecialistTask, *, why: str, sensors: list[str] | None = None
) -> tuple[list[Telemetry], list[str]]:
    """Telemetry for every asset of the task (held by the session, else fetched now in one parallel
    batch), in task order, and one error per asset none could be obtained for."""
    wanted = task.sensors if sensors is None else sensors
    held: dict[str, Telemetry] = {}
    missing: list[str] = []
    assets = task_assets(task, ctx.catalog)
    for asset_id in assets:
        artifact = await find_telemetry(ctx, asset_id, task.window, wanted)
        if artifact is None:
            missing.append(asset_id)
        else:
            held[asset_id] = await load_telemetry(artifact, asset_id, task.window)
    errors: list[str] = []
    if missing:
        fetched, errors = await fetch_telemetry(ctx, task.specialist, missing, task.window, wanted, why=why)
        held.update({t.asset_id: t for t in fetched})
    return [held[a] for a in assets if a in held], errors


def _write_slice(
    source: Path, start: pd.Timestamp, end: pd.Timestamp, target: Path, tail_rows: int | None
) -> Path:
    raw = pd.read_csv(source)
    stamps = pd.to_datetime(raw["timestamp"], format="ISO8601", utc=True)
    part = raw[(stamps >= start) & (stamps < end)]
    if tail_rows is not None:
        part = part.tail(tail_rows)
    atomic_to_csv(part, target, index=False)
    return target


async def dataset_path(telemetry: Telemetry, *, tail_rows: int | None = None) -> str:
    """A CSV (same format as the data specialist's) holding exactly the task window, or only its last
    `tail_rows` rows: the artifact's own file when it already is that, else a slice written beside it
    (inside the work dir, where the TSFM tools may read)."""
    artifact = telemetry.artifact
    source = Path(str(artifact.data_ref))
    whole = artifact.window_start == telemetry.window.start and artifact.window_end == telemetry.window.end
    if whole and tail_rows is None:
        return str(source)
    start = pd.Timestamp(telemetry.window.start).tz_convert("UTC")
    end = pd.Timestamp(telemetry.window.end).tz_convert("UTC")
    suffix = f"__{start:%Y%m%dT%H%M}_{end:%Y%m%dT%H%M}" + (f"_last{tail_rows}" if tail_rows else "")
    target = source.with_name(f"{source.stem}{suffix}.csv")
    await asyncio.to_thread(_write_slice, source, start, end, target, tail_rows)
    return str(target)


MAX_FILLED_GAP = 4  # samples: an hour of missing or jittered readings is bridged, a real outage is not


def regular_tail(frame: pd.DataFrame, tail_rows: int, minutes: float = 15.0) -> pd.DataFrame:
    """The last `tail_rows` samples on a regular grid, short gaps interpolated (pure).

    The forecasting tool only forecasts after a continuous stretch as long as its context: one
    missing reading or a timestamp a few seconds off the grid near the end would make it forecast
    from hours before the end of the data instead of from the end.
    """
    if frame.empty:
        return frame
    step = pd.Timedelta(minutes=minutes)
    snapped = frame.copy()
    snapped.index = snapped.index.round(step)
    snapped = snapped[~snapped.index.duplicated(keep="last")]
    grid = pd.date_range(snapped.index[0], snapped.index[-1], freq=step)
    filled = snapped.reindex(grid).interpolate(method="time", limit=MAX_FILLED_GAP, limit_area="inside")
    filled.index.name = "timestamp"
    return filled.tail(tail_rows)


def _write_frame(frame: pd.DataFrame, asset_id: str, target: Path, tz: object) -> Path:
    out = frame.rename(columns={c: full_name(c, asset_id) for c in frame.columns})
    out.insert(0, "asset_id", asset_id)
    out.insert(0, "timestamp", frame.index.tz_convert(tz).map(lambda t: t.isoformat()))
    atomic_to_csv(out, target, index=False)
    return target


async def forecast_dataset_path(telemetry: Telemetry, *, tail_rows: int) -> str:
    """A CSV of the window's last `tail_rows` samples on a regular grid (see `regular_tail`), written
    beside the artifact's file in the data specialist's format, so a forecast starts at the data end."""
    source = Path(str(telemetry.artifact.data_ref))
    start = pd.Timestamp(telemetry.window.start).tz_convert("UTC")
    end = pd.Timestamp(telemetry.window.end).tz_convert("UTC")
    target = source.with_name(f"{source.stem}__{start:%Y%m%dT%H%M}_{end:%Y%m%dT%H%M}_regular{tail_rows}.csv")
    tail = regular_tail(telemetry.frame, tail_rows)
    tz = telemetry.window.end.tzinfo or "UTC"
    await asyncio.to_thread(_write_frame, tail, telemetry.asset_id, target, tz)
    return str(target)
