"""Episode recall of the conditional detector on the fault catalogue (issue 5 quality target).

For each injected episode and each affected sensor with a driver model: a window from CALIBRATION_DAYS
plus PRE_ONSET_DAYS before onset to the peak (at least MIN_EPISODE_DAYS after onset, never past repair);
the first CALIBRATION_DAYS calibrate. An episode-sensor pair is detected when a sustained shift is flagged
after onset. Fault-free windows of the same length on the same assets measure the false alarms: the point
flag fraction against false_alarm, and spurious sustained shifts per window and per 30 scored days.

Run alone: `.venv/bin/python -m bench.tsfm_faults` (also part of `python -m bench tsfm`).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np
import pandas as pd

from assetops.db.tables import SENSOR_COLUMNS
from timeseries.conditional_tsad import detect_conditional
from timeseries.errors import TsfmError
from timeseries.sustained import MIN_DAY_SAMPLES

FALSE_ALARM = 0.05
CALIBRATION_DAYS = 28
PRE_ONSET_DAYS = 7  # scored fault-free days inside each episode window (an alarm there is a false one)
MIN_EPISODE_DAYS = 14  # steps and trips have peak == onset: still score two weeks
MAX_EPISODE_DAYS = 60  # long ramps: two months is enough to see them and keeps the run short
AD_MODEL_TYPE = "timeseries_conformal"
MIN_RUNNING_DAYS = 3  # an episode the chiller sat out (off all winter) cannot be seen in running data

# What the timeseries specialist should pass as conditional_columns per target sensor (asset prefix added).
CONDENSER_IN = "Condenser Water Supply To Chiller Temperature"
CONDITIONAL_COLUMNS: dict[str, list[str]] = {
    "Power Input": ["Chiller % Loaded", "Tonnage", CONDENSER_IN, "Setpoint Temperature"],
    "Chiller Efficiency": ["Chiller % Loaded", "Tonnage", CONDENSER_IN, "Setpoint Temperature"],
    "Liquid Refrigerant Evaporator Temperature": ["Supply Temperature", "Chiller % Loaded"],
    "Supply Temperature": ["Setpoint Temperature", "Chiller % Loaded"],
    "Return Temperature": ["Supply Temperature", "Tonnage"],
    "Condenser Water Return To Tower Temperature": [CONDENSER_IN, "Tonnage"],
    "Condenser Water Flow": ["Chiller % Loaded"],
}
# Where a driver is not reported (Chiller 6 has no condenser-entering sensor), the next best stand-in.
SUBSTITUTES = {CONDENSER_IN: "Condenser Water Return To Tower Temperature"}


def reported(telemetry: pd.DataFrame, asset: str, sensor: str) -> bool:
    """Does the asset report this sensor at all?"""
    column = SENSOR_COLUMNS.get(sensor)
    return column in telemetry and bool(telemetry.loc[telemetry["asset_id"] == asset, column].notna().any())


def drivers_for(telemetry: pd.DataFrame, asset: str, sensor: str) -> list[str] | None:
    """The driver columns for `sensor` on `asset` (substituted where needed); None when one is missing."""
    drivers = []
    for driver in CONDITIONAL_COLUMNS[sensor]:
        if not reported(telemetry, asset, driver):
            driver = SUBSTITUTES.get(driver, "")
        if driver == sensor or not reported(telemetry, asset, driver):
            return None
        drivers.append(driver)
    return drivers


def _window(telemetry: pd.DataFrame, asset: str, start: pd.Timestamp, stop: pd.Timestamp,
            sensors: list[str]) -> pd.DataFrame:
    """Rows of one asset in [start, stop) with sensor-named columns, NaN rows of those sensors dropped."""
    rows = telemetry[(telemetry["asset_id"] == asset) & (telemetry["ts"] >= start) & (telemetry["ts"] < stop)]
    frame = rows.sort_values("ts").rename(columns={SENSOR_COLUMNS[s]: s for s in sensors})
    return frame[["ts", *sensors]].dropna().reset_index(drop=True)


def _score(telemetry: pd.DataFrame, asset: str, sensor: str, start: pd.Timestamp, onset: pd.Timestamp,
           stop: pd.Timestamp) -> dict[str, Any] | None:
    """Run the detector on one window; None when the sensor or its drivers are not reported there."""
    drivers = drivers_for(telemetry, asset, sensor)
    if drivers is None or not reported(telemetry, asset, sensor):
        return None
    needed = [sensor, *drivers]
    frame = _window(telemetry, asset, start, stop, needed)
    calibration_end = start + pd.Timedelta(days=CALIBRATION_DAYS)
    n_cal = int((frame["ts"] < calibration_end).sum())
    if n_cal < 500 or n_cal >= len(frame):
        return None
    try:
        found = detect_conditional(frame, sensor, drivers, n_calibration=n_cal, false_alarm=FALSE_ALARM,
                                   ad_model_type=AD_MODEL_TYPE)
    except TsfmError as exc:
        return {"error": str(exc)}
    times = pd.DatetimeIndex(frame["ts"].iloc[found.rows])
    labels = found.detection.anomaly_label
    clean = (times >= calibration_end) & (times < onset)
    after = [s for s in found.shifts if s.flagged_from >= onset.floor("D")]
    before = [s for s in found.shifts if s.flagged_from < onset.floor("D")]
    scored_days = (stop - calibration_end) / pd.Timedelta(days=1)
    first = after[0] if after else None
    running_days = pd.Series(1, index=times[times >= onset].floor("D")).groupby(level=0).size()
    return {"observable": int((running_days >= MIN_DAY_SAMPLES).sum()) >= MIN_RUNNING_DAYS, "detected": bool(after), "spurious": len(before),
            "delay_d": (first.flagged_from - onset).total_seconds() / 86400 if first else None,
            "shift_pct": first.relative_shift_pct if first else None,
            "clean_flag_rate": float(labels[clean].mean()) if clean.any() else np.nan,
            "flag_rate_after": float(labels[times >= onset].mean()) if (times >= onset).any() else np.nan, "scored_days": scored_days,
            "r2": found.model.r_squared}


def episode_windows(
    episodes: pd.DataFrame,
) -> list[tuple[int, str, str, str, pd.Timestamp, pd.Timestamp, pd.Timestamp, bool]]:
    """(episode, fault, asset, sensor, start, onset, stop, overlapped) per episode and affected sensor with a
    driver model; `overlapped` when another episode of the asset is active before this onset in the window
    (its calibration or fault-free days are then not fault-free)."""
    windows = []
    for number, e in enumerate(episodes.itertuples()):
        stop = max(e.peak, e.onset + pd.Timedelta(days=MIN_EPISODE_DAYS))
        stop = min(stop, e.onset + pd.Timedelta(days=MAX_EPISODE_DAYS))
        if pd.notna(e.repair):
            stop = min(stop, e.repair)
        start = e.onset - pd.Timedelta(days=CALIBRATION_DAYS + PRE_ONSET_DAYS)
        others = episodes[(episodes["asset_id"] == e.asset_id) & (episodes["onset"] < e.onset)]
        overlapped = bool((others["repair"].fillna(e.onset) > start).any())
        for sensor in e.affected_sensors:
            if sensor in CONDITIONAL_COLUMNS:
                windows.append((number, e.fault_type, e.asset_id, sensor, start, e.onset, stop, overlapped))
    return windows


def control_windows(telemetry: pd.DataFrame, episodes: pd.DataFrame, days: int) -> list[tuple[str, pd.Timestamp]]:
    """(asset, start) of fault-free windows of `days` days: every 61 days, no episode within 14 days."""
    windows = []
    for asset in sorted(telemetry["asset_id"].unique()):
        busy = episodes[episodes["asset_id"] == asset]
        ends = busy["repair"].fillna(busy["peak"]) + pd.Timedelta(days=14)
        span = telemetry.loc[telemetry["asset_id"] == asset, "ts"]
        for start in pd.date_range(span.min().ceil("D"), span.max() - pd.Timedelta(days=days), freq="61D"):
            stop = start + pd.Timedelta(days=days)
            if not ((busy["onset"] - pd.Timedelta(days=14) < stop) & (ends > start)).any():
                windows.append((asset, start))
    return windows


def run(telemetry: pd.DataFrame, episodes: pd.DataFrame) -> pd.DataFrame:
    """Score every episode-sensor pair and the matching control windows; print the figures."""
    started = time.perf_counter()
    results = []
    for number, fault, asset, sensor, start, onset, stop, overlapped in episode_windows(episodes):
        row = _score(telemetry, asset, sensor, start, onset, stop)
        if row is not None:
            results.append({"episode": number, "fault": fault, "asset": asset, "sensor": sensor, "onset": onset,
                            "overlapped": overlapped, **row})
    episode_table = pd.DataFrame(results)
    length = CALIBRATION_DAYS + PRE_ONSET_DAYS + 45
    controls = []
    for asset, start in control_windows(telemetry, episodes, length)[::2]:
        for sensor in CONDITIONAL_COLUMNS:
            onset = start + pd.Timedelta(days=length)  # never reached: every scored day is fault-free
            row = _score(telemetry, asset, sensor, start, onset, onset)
            if row is not None and "error" not in row:
                controls.append({"asset": asset, "sensor": sensor, **row})
    _print(episode_table, pd.DataFrame(controls), time.perf_counter() - started)
    return episode_table


def _print(results: pd.DataFrame, controls: pd.DataFrame, seconds: float) -> None:
    print(f"\nconditional anomaly detection on the fault catalogue (driver model + split conformal, false_alarm "
          f"{FALSE_ALARM}; {CALIBRATION_DAYS} days calibrate, {PRE_ONSET_DAYS} fault-free days, then onset to "
          f"peak, {MIN_EPISODE_DAYS}-{MAX_EPISODE_DAYS} days; detected = sustained shift flagged after onset)")
    errors = results[results["error"].notna()] if "error" in results else results[:0]
    scored = results.drop(errors.index)
    unseen = scored[~scored["observable"].astype(bool)]
    scored = scored.drop(unseen.index)
    print(f"{'fault':<24} {'pairs':>5} {'recall':>6} {'episodes':>8} {'recall':>6} {'median delay d':>14} "
          f"{'shift %':>8} {'pre-onset alarms':>16}")
    for fault, rows in scored.groupby("fault", sort=True):
        _print_row(fault, rows)
    slow = scored[scored["fault"] != "trip"]
    _print_row("all but trips", slow)
    _print_row("  without overlaps", slow[~slow["overlapped"]])
    print("pairs = episode x affected sensor; an episode counts as detected when any of its sensors detects it. "
          "Trips stop the chiller (off rows are not scored): they are left to the forecast-residual detector. "
          "'without overlaps' drops episodes whose window holds another episode of the asset before onset.")
    for row in errors.itertuples():
        print(f"  not scored: {row.fault} {row.asset} {row.sensor}: {row.error}")
    for row in unseen.itertuples():
        print(f"  not observable (fewer than {MIN_RUNNING_DAYS} running days after onset in the window): "
              f"{row.fault} {row.asset} {row.sensor} from {row.onset.date()}")
    _print_controls(controls)
    print(f"(scored in {seconds:.1f} s)")


def _print_row(label: str, rows: pd.DataFrame) -> None:
    episodes = rows.groupby("episode")["detected"].any()
    delays, shifts = rows["delay_d"].dropna(), rows["shift_pct"].dropna()
    print(f"{label:<24} {len(rows):>5} {rows['detected'].mean():>6.2f} {len(episodes):>8} {episodes.mean():>6.2f} "
          f"{(statistics.median(delays) if len(delays) else float('nan')):>14.1f} "
          f"{(statistics.median(shifts) if len(shifts) else float('nan')):>8.1f} {int(rows['spurious'].sum()):>16}")


def _print_controls(controls: pd.DataFrame) -> None:
    if controls.empty:
        print("no fault-free control window")
        return
    scored_days = controls["scored_days"].sum()
    print(f"fault-free controls: {len(controls)} window-sensor pairs of {CALIBRATION_DAYS + PRE_ONSET_DAYS + 45} "
          f"days; point flag fraction {controls['clean_flag_rate'].mean():.3f} vs false_alarm {FALSE_ALARM}; "
          f"spurious sustained shifts: {int(controls['spurious'].sum())} in {scored_days:.0f} scored days "
          f"({30 * controls['spurious'].sum() / scored_days:.3f} per 30 days, "
          f"{(controls['spurious'] > 0).mean():.2f} of windows)")
    for sensor, rows in controls.groupby("sensor"):
        print(f"  {sensor:<44} windows {len(rows):>3} flag fraction {rows['clean_flag_rate'].mean():.3f} "
              f"spurious {int(rows['spurious'].sum())}  calibration R2 median {rows['r2'].median():.3f}")


def main() -> None:
    """Load the fleet (database or generated) and print the figures."""
    from assetops.settings import get_settings
    from bench.tsfm_bench import _fleet

    telemetry, episodes, _ = _fleet(get_settings())
    run(telemetry, episodes)


if __name__ == "__main__":
    main()
