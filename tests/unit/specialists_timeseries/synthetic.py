"""Hand-made chiller telemetry with known answers, and a specialist context over a real SQLite store.

The synthetic chiller follows simple, explicit physics (load cycles daily, temperatures and power follow
load) so a test can inject one change and know exactly what the analysis should find. Shared by the
timeseries and failure specialist tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from artifacts.model import Artifact
from artifacts.store import ArtifactStore
from assetops.cache import build_cache
from assetops.db import migrate
from assetops.db.engine import Database
from assetops.domain.events import TurnEvent
from specialists.base import SpecialistContext, ToolOutcome, ToolRunner
from tests.conftest import make_settings
from tests.support.catalog import default_catalog

ASSET = "Chiller 9"
START = pd.Timestamp("2021-06-01", tz="UTC")


def chiller_frame(days: int = 21, *, seed: int = 0, start: pd.Timestamp = START) -> pd.DataFrame:
    """A healthy chiller at 15 minutes: load cycles 30-90 % daily, everything else follows it."""
    rng = np.random.default_rng(seed)
    index = pd.date_range(start, periods=days * 96, freq="15min")
    hours = (index.hour + index.minute / 60).to_numpy()
    load = 60 + 30 * np.sin((hours - 9) / 24 * 2 * np.pi) + rng.normal(0, 2, len(index))
    plr = load / 100
    supply = 44.0 + rng.normal(0, 0.1, len(index))
    tons = plr * 1100
    refrigerant = supply - (0.4 + 2.1 * plr) + rng.normal(0, 0.1, len(index))
    condenser_in = 75 + 6 * plr + rng.normal(0, 0.1, len(index))
    kw_per_ton = 0.56 * (0.9 + 0.1 * (plr - 0.7) ** 2 / 0.1) * (1 + rng.normal(0, 0.005, len(index)))
    return pd.DataFrame(
        {
            "Chiller % Loaded": load,
            "Tonnage": tons,
            "Power Input": tons * kw_per_ton,
            "Chiller Efficiency": kw_per_ton,
            "Condenser Water Flow": 3300 + rng.normal(0, 15, len(index)),
            "Condenser Water Supply To Chiller Temperature": condenser_in,
            "Liquid Refrigerant Evaporator Temperature": refrigerant,
            "Return Temperature": supply + 24 * tons / 2640,
            "Setpoint Temperature": np.full(len(index), 44.0),
            "Supply Temperature": supply,
        },
        index=pd.DatetimeIndex(index, name="timestamp"),
    )


def ramp(frame: pd.DataFrame, start_fraction: float = 0.5) -> np.ndarray:
    """0 before `start_fraction` of the frame, rising linearly to 1 at its end."""
    position = np.arange(len(frame)) / (len(frame) - 1)
    return np.clip((position - start_fraction) / (1 - start_fraction), 0, 1)


def write_csv(frame: pd.DataFrame, path: Path, asset_id: str = ASSET) -> Path:
    """The frame in the data specialist's CSV format: timestamp (local ISO), asset_id, full sensor names."""
    out = frame.rename(columns={c: f"{asset_id} {c}" for c in frame.columns})
    out.insert(0, "asset_id", asset_id)
    out.insert(0, "timestamp", frame.index.tz_convert("America/New_York").map(lambda t: t.isoformat()))
    path.parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(path, index=False)
    return path


def telemetry_artifact(
    path: Path,
    frame: pd.DataFrame,
    *,
    session_id: str = "s1",
    asset_id: str = ASSET,
    artifact_id: str = "artifact_dc_test",
) -> Artifact:
    """A telemetry_window artifact as the data specialist writes it."""
    return Artifact(
        id=artifact_id,
        session_id=session_id,
        producer="data",
        kind="telemetry_window",
        asset_ids=[asset_id],
        window_start=frame.index[0].to_pydatetime(),
        window_end=(frame.index[-1] + pd.Timedelta(minutes=15)).to_pydatetime(),
        sensors=[f"{asset_id} {c}" for c in frame.columns],
        data_ref=str(path),
        summary="telemetry",
    )


Answer = Callable[[str, dict[str, Any]], ToolOutcome]


@dataclass
class ScriptedTools:
    """Answers tool calls with a function; records every batch so parallelism can be checked."""

    answer: Answer
    batches: list[list[tuple[str, dict[str, Any]]]] = field(default_factory=list)
    callers: list[str | None] = field(default_factory=list)  # the specialist each batch ran for

    async def __call__(
        self, calls: list[tuple[str, dict[str, Any]]], specialist: str | None
    ) -> list[ToolOutcome]:
        self.batches.append(list(calls))
        self.callers.append(specialist)
        return [self.answer(name, args) for name, args in calls]

    def names(self) -> list[list[str]]:
        """Tool names per batch."""
        return [[name for name, _ in batch] for batch in self.batches]


async def make_context(
    tmp_path: Path, answer: Answer, *, visible: list[Artifact] | None = None
) -> tuple[SpecialistContext, ScriptedTools, Path]:
    """A context over a migrated temporary SQLite store, scripted tools, and the work dir."""
    settings = make_settings(tmp_path)
    migrate.upgrade(settings)
    store = ArtifactStore(Database(settings), build_cache(""))
    tools = ScriptedTools(answer)
    events: list[TurnEvent] = []

    async def emit(event: TurnEvent) -> None:
        events.append(event)

    ctx = SpecialistContext(
        session_id="s1",
        turn_index=1,
        reference_date=date(2021, 7, 1),
        store=store,
        tools=ToolRunner("s1", 1, emit, executor=tools),
        emit=emit,
        catalog=default_catalog(),
    )
    for artifact in visible or []:
        await store.put(artifact)
        ctx.visible_artifacts.append(artifact)
    return ctx, tools, settings.work_dir


def no_tools(name: str, args: dict[str, Any]) -> ToolOutcome:
    """A tool layer that must not be called."""
    raise AssertionError(f"unexpected tool call {name} {args}")


@dataclass
class HistoryStore:
    """The history tools over a frame: `iot.history_csv` writes the asked slice in the data
    specialist's format (an error when the slice is empty), `utilities.csv_stats` answers with no
    stats; every other call goes to `other`."""

    frame: pd.DataFrame
    work: Path
    other: Answer = no_tools
    asked: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        if name == "utilities.csv_stats":
            return ToolOutcome(name, args, "ok", {"csv_path": args["csv_path"], "stats": {}})
        if name != "iot.history_csv":
            return self.other(name, args)
        self.asked.append(args)
        # The tool reads bounds as wall time; the tests' windows are in the frame's zone.
        start = pd.Timestamp(args["start"]).tz_localize(self.frame.index.tz)
        end = pd.Timestamp(args["final"]).tz_localize(self.frame.index.tz)
        part = self.frame[(self.frame.index >= start) & (self.frame.index < end)]
        if part.empty:
            return ToolOutcome(name, args, "error", error=f"no observations for {args['asset_id']} in that window")
        path = write_csv(part, self.work / f"history_{len(self.asked)}.csv")
        return ToolOutcome(name, args, "ok", {"csv_path": str(path), "total_observations": len(part)})
