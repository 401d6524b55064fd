"""Alert rules evaluated on the generated telemetry itself (rule logic in fleet/knowledge/alert_rules.yaml)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from fleet.knowledge import AlertRule, alert_rules
from fleet.model import EQUIPMENT_IDS

MAX_GAP = pd.Timedelta(minutes=30)  # a longer data gap ends a condition run
ALERT_COLUMNS = ["equipment_id", "equipment_name", "rule_id", "start_time", "end_time"]


def local_naive(frame: pd.DataFrame) -> pd.Series:
    """Site-local wall time (naive) of each telemetry row, from ts (UTC) and utc_offset_min."""
    shifted = frame["ts"] + pd.to_timedelta(frame["utc_offset_min"].astype("int64"), unit="min")
    return shifted.dt.tz_localize(None)


def _utc_values(ts: pd.Series) -> np.ndarray:
    """datetime64 values (naive UTC) of an aware timestamp column, for fast arithmetic."""
    return ts.dt.tz_convert("UTC").dt.tz_localize(None).to_numpy()


def _col(frame: pd.DataFrame, column: str) -> np.ndarray:
    return frame[column].to_numpy(dtype=float)


def running(frame: pd.DataFrame) -> np.ndarray:
    """Running according to the sensors: Chiller % Loaded > 5 and Tonnage > 5."""
    return (np.nan_to_num(_col(frame, "pct_loaded")) > 5) & (np.nan_to_num(_col(frame, "tonnage")) > 5)


def _off(frame: pd.DataFrame) -> np.ndarray:
    load = _col(frame, "pct_loaded")
    return ~np.isnan(load) & (load <= 1.0)


def _diff(frame: pd.DataFrame, a: str, b: str) -> np.ndarray:
    return np.nan_to_num(_col(frame, a) - _col(frame, b), nan=0.0)


Check = Callable[[pd.DataFrame, dict[str, float]], np.ndarray]
CHECKS: dict[str, Check] = {
    "supply_above_setpoint": lambda f, p: running(f) & (_diff(f, "supply_temp", "setpoint_temp") > p["margin_f"]),
    "supply_below_setpoint": lambda f, p: running(f) & (_diff(f, "setpoint_temp", "supply_temp") > p["margin_f"]),
    "delta_t_low": lambda f, p: running(f) & (np.nan_to_num(_col(f, "pct_loaded")) >= p["min_load_pct"])
    & ~np.isnan(_col(f, "return_temp") - _col(f, "supply_temp"))
    & (_diff(f, "return_temp", "supply_temp") < p["max_delta_f"]),
    "flow_while_off": lambda f, p: _off(f) & (np.nan_to_num(_col(f, "condenser_water_flow")) > p["min_flow_gpm"]),
    "load_low": lambda f, p: running(f) & (_col(f, "pct_loaded") < p["max_load_pct"]),
    "evaporator_approach_high": lambda f, p: running(f) & (np.nan_to_num(_col(f, "pct_loaded")) >= p["min_load_pct"])
    & (_diff(f, "supply_temp", "refrigerant_evap_temp") > p["max_approach_f"]),
    "power_while_off": lambda f, p: _off(f) & (np.nan_to_num(_col(f, "power_input")) > p["min_power_kw"]),
}


def condition_runs(ts: pd.Series, condition: np.ndarray, min_minutes: float) -> list[tuple[int, int]]:
    """(first row, last row) of every run of `condition` lasting at least `min_minutes` (gaps end runs)."""
    if not condition.any():
        return []
    gap_ok = np.r_[False, (ts.diff() <= MAX_GAP).to_numpy()[1:]]
    previous = np.r_[False, condition[:-1]]
    starts = condition & ~(previous & gap_ok)
    segment = np.cumsum(starts)
    rows = np.flatnonzero(condition)
    first = pd.Series(rows).groupby(segment[rows]).min().to_numpy()
    last = pd.Series(rows).groupby(segment[rows]).max().to_numpy()
    seconds = _utc_values(ts)
    minutes = (seconds[last] - seconds[first]) / np.timedelta64(1, "m") + 15.0
    return [(int(a), int(b)) for a, b, m in zip(first, last, minutes, strict=True) if m >= min_minutes]


def cycling_windows(ts: pd.Series, run: np.ndarray, min_starts: int, window_minutes: float) -> list[tuple[int, int]]:
    """Windows spanning >= min_starts starts (off -> running) within window_minutes, merged when overlapping."""
    start_rows = np.flatnonzero(run & ~np.r_[False, run[:-1]])
    if start_rows.size < min_starts:
        return []
    times = _utc_values(ts)[start_rows]
    reach = np.searchsorted(times, times + np.timedelta64(int(window_minutes), "m"), side="right") - 1
    hits = np.flatnonzero(reach - np.arange(times.size) + 1 >= min_starts)
    merged: list[tuple[int, int]] = []
    for i in hits:  # loops over alert candidates (a handful), not timestamps
        first, last = int(start_rows[i]), int(start_rows[reach[i]])
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _rule_windows(rule: AlertRule, frame: pd.DataFrame) -> list[tuple[int, int]]:
    if rule.check == "cycling":
        return cycling_windows(frame["ts"], running(frame), int(rule.params["min_starts"]),
                               rule.params["window_minutes"])
    condition = CHECKS[rule.check](frame, rule.params)
    return condition_runs(frame["ts"], condition, rule.params["min_minutes"])


def evaluate_alerts(telemetry: pd.DataFrame) -> pd.DataFrame:
    """alert_events rows (naive site-local start/end) of every rule on every asset, ordered by start."""
    rows: list[dict[str, object]] = []
    for asset, frame in telemetry.groupby("asset_id", sort=True):
        frame = frame.sort_values("ts").reset_index(drop=True)
        local = local_naive(frame)
        for rule in alert_rules():
            for first, last in _rule_windows(rule, frame):
                rows.append({"equipment_id": EQUIPMENT_IDS[str(asset)], "equipment_name": str(asset),
                             "rule_id": rule.rule_id, "start_time": local.iloc[first], "end_time": local.iloc[last]})
    alerts = pd.DataFrame(rows, columns=ALERT_COLUMNS)
    return alerts.sort_values(["start_time", "equipment_id", "rule_id"], kind="stable").reset_index(drop=True)
