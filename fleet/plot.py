"""A multi-panel PNG of one chiller's sensors with fault windows, alerts and work orders marked.

One panel per sensor on a shared site-local time axis; the raw 15-minute signal is drawn thin and
its daily mean over the running samples thick, because the daily load cycle and the off periods
otherwise hide slow degradation such as condenser fouling. Fault episodes are shaded, alerts are markers along the top of each panel and
work orders are vertical lines (corrective solid, preventive dotted).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import matplotlib

matplotlib.use("Agg")  # no display on servers; must precede pyplot
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from assetops.db.engine import sync_engine
from assetops.db.tables.telemetry import SENSOR_UNITS
from assetops.settings import Settings
from fleet import queries

FAULT_COLOURS = ("#f4a261", "#e76f51", "#9d4edd", "#2a9d8f", "#e9c46a")
CORRECTIVE_COLOUR = "#b5171f"
PREVENTIVE_COLOUR = "#457b9d"
ALERT_COLOUR = "#d00000"
LOAD_SENSOR = "Chiller % Loaded"
RUNNING_MIN_LOAD = 5.0  # % loaded; below it the chiller is off and its readings are ambient drift
# Sensors whose value is meaningful whether or not the chiller runs.
ALWAYS_AVERAGED = frozenset({"Run Status", "Schedule", "Setpoint Temperature", LOAD_SENSOR})


class PlotError(ValueError):
    """Nothing to plot (unknown sensor, no data in the window); the message says what to change."""


@dataclass
class PlotData:
    """Everything one plot shows, already read from the database (site-local naive times)."""

    asset_id: str
    equipment_id: str
    start: datetime  # site-local
    end: datetime  # site-local, exclusive
    sensors: list[str]
    telemetry: pd.DataFrame
    faults: pd.DataFrame = field(default_factory=pd.DataFrame)
    alerts: pd.DataFrame = field(default_factory=pd.DataFrame)
    work_orders: pd.DataFrame = field(default_factory=pd.DataFrame)


def read_plot_data(settings: Settings, asset_id: str, start: date, end: date,
                   sensors: list[str] | None = None) -> PlotData:
    """Read telemetry, faults, alerts and work orders of `asset_id` for the local days start..end."""
    zone = ZoneInfo(queries.SITE_TIMEZONE)
    start_local = datetime.combine(start, time())
    end_local = datetime.combine(end + timedelta(days=1), time())
    start_utc = start_local.replace(tzinfo=zone).astimezone(UTC)
    end_utc = end_local.replace(tzinfo=zone).astimezone(UTC)
    engine = sync_engine(settings)
    try:
        with engine.connect() as conn:
            available = queries.asset_sensor_names(conn, asset_id)
            chosen = _choose_sensors(sensors, available)
            read = chosen if LOAD_SENSOR in chosen or LOAD_SENSOR not in available else [*chosen, LOAD_SENSOR]
            equipment_id = queries.equipment_id_of(conn, asset_id)
            return PlotData(
                asset_id=asset_id, equipment_id=equipment_id, start=start_local, end=end_local, sensors=chosen,
                telemetry=queries.telemetry_window(conn, asset_id, start_utc, end_utc, read),
                faults=queries.fault_episodes(conn, asset_id, start_utc, end_utc),
                alerts=queries.alert_events(conn, equipment_id, start_local, end_local),
                work_orders=queries.work_orders(conn, equipment_id, start_local, end_local),
            )
    finally:
        engine.dispose()


def _choose_sensors(wanted: list[str] | None, available: list[str]) -> list[str]:
    if not wanted:
        # Sparse status signals (Run Status, Schedule) only on request: they add panels, not insight.
        return [s for s in available if s not in ("Run Status", "Schedule")] or available
    chosen = []
    for name in wanted:
        # Accept "Chiller 6 Tonnage" as well as "Tonnage", case-insensitively.
        match = next((s for s in available if name.lower().endswith(s.lower())), None)
        if match is None:
            raise PlotError(f"unknown sensor {name!r}; this asset reports: {', '.join(available)}")
        chosen.append(match)
    return chosen


def render_plot(data: PlotData, output: Path) -> Path:
    """Draw `data` into a PNG at `output`; raises PlotError when the window holds no telemetry."""
    figure = build_figure(data)
    output.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(output, dpi=110)
    plt.close(figure)
    return output


def build_figure(data: PlotData) -> Figure:
    """The figure: one panel per sensor, shared time axis, faults/alerts/work orders marked."""
    if data.telemetry.empty:
        raise PlotError(f"no telemetry for {data.asset_id} between {data.start:%Y-%m-%d} and "
                        f"{data.end - timedelta(days=1):%Y-%m-%d}; run `assetops fleet summary` for the coverage")
    height = 1.55 * len(data.sensors) + 1.4
    figure, axes = plt.subplots(len(data.sensors), 1, sharex=True, figsize=(13, height), squeeze=False)
    panels = list(axes[:, 0])
    local = data.telemetry["local"]
    running = _running(data.telemetry)
    for axis, sensor in zip(panels, data.sensors, strict=True):
        _draw_sensor(axis, local, data.telemetry[sensor], sensor, running)
        _draw_faults(axis, data.faults, data.start, data.end)
        _draw_work_orders(axis, data.work_orders)
        _draw_alerts(axis, data.alerts)
    _label_faults(panels[0], data.faults, data.start, data.end)
    panels[-1].set_xlim(data.start, data.end)
    panels[-1].xaxis.set_major_locator(mdates.AutoDateLocator(maxticks=12))
    panels[-1].xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
    panels[-1].set_xlabel(f"site-local time ({queries.SITE_TIMEZONE})")
    figure.suptitle(f"{data.asset_id} ({data.equipment_id}), {data.start:%Y-%m-%d} to "
                    f"{data.end - timedelta(days=1):%Y-%m-%d}", fontsize=13, fontweight="bold")
    figure.legend(handles=_legend_handles(data), loc="upper center", ncol=4, fontsize=8.5,
                  bbox_to_anchor=(0.5, 1 - 0.45 / height), frameon=False)
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.75 / height))
    return figure


def plot_asset(settings: Settings, asset_id: str, start: date, end: date, output: Path,
               sensors: list[str] | None = None) -> Path:
    """Read and render in one call (the CLI's `assetops fleet plot`)."""
    return render_plot(read_plot_data(settings, asset_id, start, end, sensors), output)


def _running(telemetry: pd.DataFrame) -> pd.Series:
    """True where the chiller runs (all True when the load sensor is absent)."""
    if LOAD_SENSOR not in telemetry:
        return pd.Series(True, index=telemetry.index)
    return telemetry[LOAD_SENSOR].fillna(0.0) > RUNNING_MIN_LOAD


def _draw_sensor(axis: Axes, local: pd.Series, values: pd.Series, sensor: str, running: pd.Series) -> None:
    series = pd.Series(values.to_numpy(dtype=float), index=pd.DatetimeIndex(local))
    axis.plot(series.index, series.to_numpy(), color="#9aaec4", linewidth=0.5)
    averaged = series if sensor in ALWAYS_AVERAGED else series[running.to_numpy()]
    daily = averaged.resample("1D").mean()
    axis.plot(daily.index + pd.Timedelta(hours=12), daily.to_numpy(), color="#1d3557", linewidth=1.8)
    unit = SENSOR_UNITS.get(sensor, "")
    axis.set_ylabel(unit, fontsize=8)
    axis.set_title(sensor, loc="left", fontsize=9.5, pad=3)
    axis.grid(True, alpha=0.25)
    axis.tick_params(labelsize=8)


def _fault_span(row: pd.Series, start: datetime, end: datetime) -> tuple[datetime, datetime]:
    stop = row["repair"] if pd.notna(row["repair"]) else end
    return max(row["onset"], start), min(stop, end)


def _draw_faults(axis: Axes, faults: pd.DataFrame, start: datetime, end: datetime) -> None:
    for index, row in faults.reset_index(drop=True).iterrows():
        left, right = _fault_span(row, start, end)
        axis.axvspan(mdates.date2num(left), mdates.date2num(right), color=FAULT_COLOURS[int(index) % len(FAULT_COLOURS)], alpha=0.18, linewidth=0)
        if start <= row["peak"] <= end:
            axis.axvline(row["peak"], color=FAULT_COLOURS[int(index) % len(FAULT_COLOURS)], linewidth=0.8,
                         linestyle="--", alpha=0.8)


def _label_faults(axis: Axes, faults: pd.DataFrame, start: datetime, end: datetime) -> None:
    for row in faults.itertuples():
        left, _ = _fault_span(pd.Series(row._asdict()), start, end)
        axis.annotate(f"{row.failure_mode} (severity {row.severity:.2f})", xy=(left, 1.0),
                      xycoords=("data", "axes fraction"), xytext=(3, -11), textcoords="offset points",
                      fontsize=8, color="#6a040f", fontweight="bold")


def _draw_work_orders(axis: Axes, orders: pd.DataFrame) -> None:
    for row in orders.itertuples():
        corrective = not bool(row.preventive)
        axis.axvline(row.actual_finish, color=CORRECTIVE_COLOUR if corrective else PREVENTIVE_COLOUR,
                     linestyle="-" if corrective else ":", linewidth=1.3 if corrective else 0.9, alpha=0.85)


def _draw_alerts(axis: Axes, alerts: pd.DataFrame) -> None:
    if alerts.empty:
        return
    axis.plot(alerts["start_time"], [0.96] * len(alerts), linestyle="none", marker="v", markersize=5,
              color=ALERT_COLOUR, transform=axis.get_xaxis_transform(), clip_on=False)


def _legend_handles(data: PlotData) -> list[Line2D | Patch]:
    handles: list[Line2D | Patch] = [
        Line2D([], [], color="#9aaec4", linewidth=1, label="15-min samples"),
        Line2D([], [], color="#1d3557", linewidth=2, label=f"daily mean while running (load > {RUNNING_MIN_LOAD:g}%)"),
    ]
    for index, row in enumerate(data.faults.itertuples()):
        handles.append(Patch(color=FAULT_COLOURS[index % len(FAULT_COLOURS)], alpha=0.35,
                             label=f"fault: {row.fault_type} (dashed: peak)"))
    rules = ", ".join(sorted(set(data.alerts["rule_id"]))) if not data.alerts.empty else ""
    handles.append(Line2D([], [], color=ALERT_COLOUR, marker="v", linestyle="none",
                          label=f"alerts ({len(data.alerts)}{': ' + rules if rules else ''})"))
    corrective = int((~data.work_orders["preventive"].astype(bool)).sum()) if not data.work_orders.empty else 0
    preventive = len(data.work_orders) - corrective
    handles.append(Line2D([], [], color=CORRECTIVE_COLOUR, label=f"corrective work orders ({corrective})"))
    handles.append(Line2D([], [], color=PREVENTIVE_COLOUR, linestyle=":", label=f"preventive work orders ({preventive})"))
    return handles

