"""KPI anomaly events derived from the telemetry: hourly KPIs against a per-chiller residual model.

For each chiller and KPI, the hourly KPI (running hours only) is regressed on operating conditions
seen in the same telemetry (load, condenser water temperature, time of day). The bounds are the
prediction +/- K_SIGMA robust residual standard deviations; an hour outside them is anomalous, and
each local day reports its most anomalous hour per KPI (as a monitoring system raises one event a day).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fleet.generator.alerts import local_naive, running

K_SIGMA = 4.0
MIN_SAMPLES_PER_HOUR = 3
ANOMALY_COLUMNS = ["timestamp", "kpi", "asset_name", "value", "upper_bound", "lower_bound", "anomaly_score"]
# KPI -> (model features, floor of the residual sigma in KPI units)
KPI_MODELS: dict[str, tuple[tuple[str, ...], float]] = {
    "Cooling Load": (("hour_sin", "hour_cos", "weekend", "cond", "cond2"), 0.0),
    "Flow Efficiency": (("plr", "plr2", "cond", "cond_plr"), 0.0015),
    "Delta Setpoint": (("plr", "plr2"), 0.08),
    "Delta Temperature": (("plr",), 0.1),
}


def hourly_kpis(frame: pd.DataFrame) -> pd.DataFrame:
    """Hourly means of the four KPIs and model features over the running samples of one chiller."""
    on = running(frame)
    cond = frame["condenser_supply_temp"].fillna(frame["condenser_return_temp"])
    flow = frame["condenser_water_flow"].where(frame["condenser_water_flow"] > 1.0)
    samples = pd.DataFrame({
        "hour": local_naive(frame).dt.floor("h"),
        "Cooling Load": frame["tonnage"] * 12000.0,
        "Flow Efficiency": frame["power_input"] / flow,
        "Delta Setpoint": frame["supply_temp"] - frame["setpoint_temp"],
        "Delta Temperature": frame["return_temp"] - frame["supply_temp"],
        "plr": frame["pct_loaded"] / 100.0,
        "cond": cond,
    })[on]
    grouped = samples.groupby("hour")
    hourly = grouped.mean()
    hourly = hourly[grouped.size() >= MIN_SAMPLES_PER_HOUR]
    hour_of_day = hourly.index.hour.to_numpy() * 2 * np.pi / 24
    return hourly.assign(
        plr2=hourly["plr"] ** 2, cond2=hourly["cond"] ** 2, cond_plr=hourly["cond"] * hourly["plr"],
        hour_sin=np.sin(hour_of_day), hour_cos=np.cos(hour_of_day),
        weekend=(hourly.index.weekday >= 5).astype(float),
    )


def _robust_fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Least squares, refitted without points beyond 3 robust sigmas; returns (coefficients, sigma)."""
    keep = np.ones(y.size, dtype=bool)
    coef = np.zeros(x.shape[1])
    sigma = 0.0
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(x[keep], y[keep], rcond=None)
        residual = y - x @ coef
        sigma = 1.4826 * float(np.median(np.abs(residual[keep] - np.median(residual[keep]))))
        keep = np.abs(residual) <= 3 * max(sigma, 1e-9)
    return coef, sigma


def kpi_anomalies(asset: str, hourly: pd.DataFrame, kpi: str) -> pd.DataFrame:
    """Anomalous hours of one KPI of one chiller."""
    features, floor = KPI_MODELS[kpi]
    data = hourly[[kpi, *features]].dropna()
    if len(data) < 48:  # two days of running hours at least, or the model is meaningless
        return pd.DataFrame(columns=ANOMALY_COLUMNS)
    x = np.column_stack([np.ones(len(data)), data[list(features)].to_numpy()])
    y = data[kpi].to_numpy()
    coef, sigma = _robust_fit(x, y)
    sigma = max(sigma, floor, 1e-3 * abs(float(np.median(y))))
    expected = x @ coef
    z = (y - expected) / sigma
    scored = pd.DataFrame({"z": z, "day": data.index.normalize()})[np.abs(z) > K_SIGMA]
    worst = scored.assign(size=scored["z"].abs()).groupby("day")["size"].idxmax().to_numpy()
    hit = np.sort(worst.astype(np.int64))
    return pd.DataFrame({
        "timestamp": data.index[hit], "kpi": kpi, "asset_name": asset, "value": y[hit],
        "upper_bound": expected[hit] + K_SIGMA * sigma, "lower_bound": expected[hit] - K_SIGMA * sigma,
        "anomaly_score": 1.0 - np.exp(-0.5 * z[hit] ** 2),
    }, columns=ANOMALY_COLUMNS)


def evaluate_anomalies(telemetry: pd.DataFrame) -> pd.DataFrame:
    """anomaly_events rows for every chiller and KPI, ordered by time."""
    parts: list[pd.DataFrame] = []
    for asset, frame in telemetry.groupby("asset_id", sort=True):
        hourly = hourly_kpis(frame.sort_values("ts").reset_index(drop=True))
        parts.extend(kpi_anomalies(str(asset), hourly, kpi) for kpi in KPI_MODELS)
    parts = [p for p in parts if not p.empty]
    if not parts:
        return pd.DataFrame(columns=ANOMALY_COLUMNS)
    events = pd.concat(parts, ignore_index=True)
    return events.sort_values(["timestamp", "asset_name", "kpi"], kind="stable").reset_index(drop=True)
