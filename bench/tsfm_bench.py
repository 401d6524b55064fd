"""Time-series foundation model benchmark: forecast accuracy, anomaly detection on the fault catalogue,
latencies. Prints figures; asserts nothing.

Data: the loaded fleet (telemetry and fault_episodes tables) or, when none is loaded, the default
generated fleet in memory. Checkpoints: settings.models_dir (trained first when missing).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy import select

from assetops.db.engine import sync_engine
from assetops.db.tables import SENSOR_COLUMNS, FaultEpisodeRow, TelemetryRow
from assetops.settings import Settings, get_settings
from bench.tsfm_faults import run as fault_recall
from fleet.loader import data_version, is_fleet_loaded

SEASON = 96  # one day at 15 minutes
FALSE_ALARM = 0.05
COLUMN_SENSOR = {column: sensor for sensor, column in SENSOR_COLUMNS.items()}
FORECAST_COLUMNS = ("supply_temp", "return_temp", "condenser_supply_temp", "refrigerant_evap_temp",
                    "power_input", "tonnage", "efficiency", "pct_loaded", "condenser_water_flow")


def _fleet(settings: Settings) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """(telemetry, fault episodes, data version) from the database, else a freshly generated default fleet."""
    if is_fleet_loaded(settings):
        engine = sync_engine(settings)
        try:
            with engine.connect() as conn:
                telemetry = pd.DataFrame(conn.execute(select(TelemetryRow.__table__)).mappings().all())
                episodes = pd.DataFrame(conn.execute(select(FaultEpisodeRow.__table__)).mappings().all())
        finally:
            engine.dispose()
        telemetry["ts"] = pd.to_datetime(telemetry["ts"], utc=True)
        for column in ("onset", "peak", "repair"):
            episodes[column] = pd.to_datetime(episodes[column], utc=True)
        return telemetry, episodes, data_version(settings) or "unknown"
    from fleet.synthetic import GeneratorConfig, generate_fleet

    print("no fleet loaded: generating the default fleet in memory")
    fleet = generate_fleet(GeneratorConfig())
    assert fleet.telemetry is not None and fleet.fault_episodes is not None
    return fleet.telemetry, fleet.fault_episodes, fleet.source


def forecast_accuracy(telemetry: pd.DataFrame, version: str, models_dir: Path) -> None:
    """MAE and MASE (vs seasonal naive, one day) on the held-out weeks, per checkpoint and sensor."""
    from timeseries.fleet_series import series_from_telemetry
    from timeseries.forecast import predict_batch
    from timeseries.models import load_model
    from timeseries.windows import cut_windows, seasonal_naive

    recent = telemetry[telemetry["ts"] >= telemetry["ts"].max() - pd.Timedelta(days=365)]
    fleet = series_from_telemetry(recent, version, "bench")
    print(f"\nforecast accuracy on {len(fleet.held_out_blocks) // max(len(fleet.names), 1)} held-out weeks per "
          "series (every 6th week of the last year; windows forecast inside those weeks only)")
    print(f"{'checkpoint':<11} {'sensor':<46} {'windows':>7} {'MAE':>9} {'naive MAE':>10} {'MASE':>6}")
    for name in ("ttm_96_28", "ttm_512_96"):
        loaded = load_model(str(models_dir / name))
        for column in FORECAST_COLUMNS:
            blocks = [b for b, n in zip(fleet.held_out(loaded.context_length), fleet.block_names, strict=True)
                      if n.split(" @ ")[0].endswith(" " + column)]
            windows = cut_windows(blocks, loaded.context_length, loaded.prediction_length, limit=None,
                                  rng=np.random.default_rng(0), stride=loaded.prediction_length)
            if not len(windows):
                continue
            predicted = predict_batch(loaded, windows.past)
            naive = seasonal_naive(windows.past, loaded.prediction_length, SEASON)
            mae = float(np.mean(np.abs(predicted - windows.future)))
            naive_mae = float(np.mean(np.abs(naive - windows.future)))
            print(f"{name:<11} {COLUMN_SENSOR[column]:<46} {len(windows):>7} {mae:>9.3f} {naive_mae:>10.3f} "
                  f"{mae / naive_mae:>6.3f}")


def _residual_inputs(loaded: Any, values: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(actual, one-step forecast, times) for every gap-free context window of `values`."""
    from timeseries.forecast import predict_batch
    from timeseries.windows import valid_starts

    array = values.to_numpy(dtype=np.float32)
    length = loaded.context_length
    starts = valid_starts(array, length + 1)
    contexts = np.stack([array[s:s + length] for s in starts])
    predicted = predict_batch(loaded, contexts)[:, 0]
    return array[starts + length], predicted, values.index[starts + length].tz_convert(None).to_numpy()


def _labels(actual: np.ndarray, predicted: np.ndarray, calibration: int, kind: str) -> np.ndarray:
    from timeseries.conformal import fit_and_detect

    _, detection = fit_and_detect(actual, predicted, false_alarm=FALSE_ALARM,
                                  n_calibration=min(calibration, len(actual) - 1), ad_model_type=kind)
    return detection.anomaly_label


def _asset_grid(telemetry: pd.DataFrame, asset: str, start: pd.Timestamp, end: pd.Timestamp) -> pd.DataFrame:
    rows = telemetry[(telemetry["asset_id"] == asset) & (telemetry["ts"] >= start) & (telemetry["ts"] < end)]
    grid = rows.set_index("ts").sort_index()
    return grid.reindex(pd.date_range(start, end, freq="15min", inclusive="left"))


def _score_pair(loaded: Any, values: pd.Series, start: pd.Timestamp, onset: pd.Timestamp) -> dict[str, Any]:
    """Both detector modes on one sensor: 7 days calibrate, the rest before `onset` is fault-free."""
    actual, predicted, times = _residual_inputs(loaded, values)
    before = (times >= _utc64(start + pd.Timedelta(days=7))) & (times < _utc64(onset))
    during = times >= _utc64(onset)
    row: dict[str, Any] = {}
    for mode, kind in (("adaptive", "timeseries_conformal_adaptive"), ("split", "timeseries_conformal")):
        labels = _labels(actual, predicted, 7 * 96 - loaded.context_length, kind)
        flags = times[during & labels]
        rate = float(labels[during].mean()) if during.any() else np.nan
        row |= {f"{mode}_clean_rate": float(labels[before].mean()) if before.any() else np.nan,
                f"{mode}_any": bool(len(flags)), f"{mode}_rate": rate,
                f"{mode}_above_chance": bool(rate >= 2 * FALSE_ALARM),
                f"{mode}_delay_h": _hours(flags[0] - _utc64(onset)) if len(flags) else None}
    return row


def _pairs(telemetry: pd.DataFrame, windows: list[tuple[str, str, pd.Timestamp, pd.Timestamp, list[str]]],
           loaded: Any) -> pd.DataFrame:
    """Score (label, asset, onset, stop, sensors) windows; each starts 10 days before its onset."""
    rows = []
    for label, asset, onset, stop, sensors in windows:
        start = onset - pd.Timedelta(days=10)
        grid = _asset_grid(telemetry, asset, start, stop)
        for sensor in sensors:
            column = SENSOR_COLUMNS.get(sensor)
            if column is None or column not in grid or grid[column].notna().sum() < 2000:
                continue
            rows.append({"fault": label, "asset": asset, "sensor": sensor,
                         **_score_pair(loaded, grid[column], start, onset)})
    return pd.DataFrame(rows)


def _control_windows(
    telemetry: pd.DataFrame, episodes: pd.DataFrame, sensors: list[str]
) -> list[tuple[str, str, pd.Timestamp, pd.Timestamp, list[str]]]:
    """Fault-free pseudo-episodes: month starts of the last two years where the asset has no episode."""
    windows = []
    end = telemetry["ts"].max()
    for asset in sorted(telemetry["asset_id"].unique()):
        busy = episodes[episodes["asset_id"] == asset]
        repaired = busy["repair"].fillna(busy["peak"]) + pd.Timedelta(days=14)
        for month_start in pd.date_range(end - pd.Timedelta(days=730), end - pd.Timedelta(days=45), freq="MS"):
            onset, stop = month_start + pd.Timedelta(days=10), month_start + pd.Timedelta(days=40)
            if ((busy["onset"] < stop) & (repaired > month_start)).any():
                continue
            windows.append(("no fault (control)", asset, onset, stop, sensors))
    return windows[::3]  # every third month keeps the run short


def anomaly_detection(telemetry: pd.DataFrame, episodes: pd.DataFrame, models_dir: Path) -> None:
    """Per fault episode and affected sensor: recall and delay, against fault-free control windows."""
    from timeseries.models import load_model

    loaded = load_model(str(models_dir / "ttm_96_28"))
    print(f"\nanomaly detection (ttm_96_28 one-step residuals, conformal, false_alarm {FALSE_ALARM}; 7 days "
          "before onset calibrate, 3 more fault-free days measure the false-alarm rate, then up to 30 days "
          "of the episode are scored; controls: the same protocol on fault-free months)")
    faults = [
        (e.fault_type, e.asset_id, e.onset,
         min(e.repair if pd.notna(e.repair) else e.peak, e.onset + pd.Timedelta(days=30)), list(e.affected_sensors))
        for e in episodes.itertuples()
    ]
    sensors = sorted({s for listed in episodes["affected_sensors"] for s in listed if s in SENSOR_COLUMNS})
    results = _pairs(telemetry, faults, loaded)
    controls = _pairs(telemetry, _control_windows(telemetry, episodes, sensors), loaded)
    _print_detection(results, controls)


def _utc64(moment: pd.Timestamp) -> np.datetime64:
    return pd.Timestamp(moment).tz_convert("UTC").tz_localize(None).to_datetime64()


def _hours(delta: np.timedelta64) -> float:
    return round(float(delta / np.timedelta64(1, "h")), 1)


def _print_detection(results: pd.DataFrame, controls: pd.DataFrame) -> None:
    if results.empty:
        print("no fault episode with enough telemetry on an affected sensor")
        return
    print(f"{'fault':<22} {'pairs':>5}  | adaptive: {'any':>4} {'delay h':>7} {'rate':>6} {'>=2x':>5} "
          f"| split: {'any':>4} {'delay h':>7} {'rate':>6} {'>=2x':>5}")
    for fault, rows in pd.concat([results, controls]).groupby("fault", sort=False):
        cells = []
        for mode in ("adaptive", "split"):
            delays = rows[f"{mode}_delay_h"].dropna()
            cells.append(f"{rows[f'{mode}_any'].mean():>4.2f} "
                         f"{(statistics.median(delays) if len(delays) else float('nan')):>7.1f} "
                         f"{rows[f'{mode}_rate'].mean():>6.3f} {rows[f'{mode}_above_chance'].mean():>5.2f}")
        print(f"{fault:<22} {len(rows):>5}  | adaptive: {cells[0]} | split: {cells[1]}")
    for mode in ("adaptive", "split"):
        clean = pd.concat([results, controls])[f"{mode}_clean_rate"].dropna()
        control_hits = controls[f"{mode}_above_chance"].mean() if not controls.empty else float("nan")
        print(f"overall {mode}: {len(results)} episode-sensor pairs; recall {results[f'{mode}_any'].mean():.2f} "
              f"(any flag in the episode), {results[f'{mode}_above_chance'].mean():.2f} (episode flag rate >= "
              f"2 x false_alarm) vs {control_hits:.2f} on {len(controls)} fault-free control pairs; flag rate in "
              f"the 3 fault-free days after calibration {clean.mean():.3f} vs false_alarm {FALSE_ALARM}")
    print("'any' recall is near certain by chance over multi-day episodes at false_alarm 0.05; the '>=2x' recall "
          "set against the same figure on fault-free control months is the honest one.")


async def _latencies(telemetry: pd.DataFrame) -> None:
    """Cold and warm latency of the tool call path for the two interactive workloads."""
    from tools.framework import ToolContext, call_tool, use_tool_context

    with tempfile.TemporaryDirectory() as tmp:
        settings = get_settings().model_copy(update={"work_dir": Path(tmp)})
        asset = "Chiller 9"
        summer = telemetry[(telemetry["asset_id"] == asset)]
        end = summer["ts"].max()
        month = _asset_grid(telemetry, asset, end - pd.Timedelta(days=30), end).dropna(axis=1, how="all")
        month.index.name = "timestamp"
        frame = month.drop(columns=["asset_id", "utc_offset_min"], errors="ignore").rename(columns=COLUMN_SENSOR)
        frame = frame.drop(columns=[c for c in ("Run Status", "Schedule") if c in frame], errors="ignore")
        frame.reset_index().assign(timestamp=lambda f: f["timestamp"].map(pd.Timestamp.isoformat)).to_csv(
            Path(tmp) / "month.csv", index=False)
        sensors = [c for c in frame.columns if frame[c].notna().any()][:10]
        tsad = {"dataset_path": "month.csv", "timestamp_column": "timestamp", "target_columns": ["Supply Temperature"]}
        week = {"dataset_path": "month.csv", "timestamp_column": "timestamp", "target_columns": sensors,
                "forecast_horizon": 672}
        with use_tool_context(ToolContext.from_settings(settings)):
            print(f"\nlatency (tool call path; {len(frame)} rows = one month of {asset}, 15 min)")
            for label, name, args in (("integrated TSAD, 1 sensor", "tsfm.run_integrated_tsad", tsad),
                                      (f"week-ahead forecast, {len(sensors)} sensors", "tsfm.run_tsfm_forecasting",
                                       week)):
                timings = []
                for _ in range(6):
                    started = time.perf_counter()
                    result = await call_tool(name, args)
                    timings.append(time.perf_counter() - started)
                    if result.status != "ok":
                        print(f"  {label}: {result.error}")
                        break
                if len(timings) == 6:
                    print(f"  {label}: first call {timings[0]:.2f} s (includes model load), warm median "
                          f"{statistics.median(timings[1:]):.3f} s, min {min(timings[1:]):.3f} s")
            await _finetune_year(telemetry, asset, Path(tmp))


async def _finetune_year(telemetry: pd.DataFrame, asset: str, workdir: Path) -> None:
    """Fine-tune ttm_96_28 on one year of one sensor with the tool's defaults; time and metrics."""
    from tools.framework import call_tool

    end = telemetry.loc[telemetry["asset_id"] == asset, "ts"].max()
    year = _asset_grid(telemetry, asset, end - pd.Timedelta(days=365), end)[["supply_temp"]]
    year = year.rename(columns={"supply_temp": "Supply Temperature"})
    year.index = year.index.map(pd.Timestamp.isoformat)
    year.rename_axis("timestamp").reset_index().to_csv(workdir / "year.csv", index=False)
    started = time.perf_counter()
    result = await call_tool("tsfm.run_tsfm_finetuning", {
        "dataset_path": "year.csv", "timestamp_column": "timestamp", "target_columns": ["Supply Temperature"]})
    elapsed = time.perf_counter() - started
    if result.status != "ok" or not isinstance(result.output, dict):
        print(f"  fine-tuning one year of {asset} Supply Temperature: {result.error}")
        return
    out = result.output
    print(f"  fine-tuning one year of {asset} Supply Temperature (n_finetune 0.05, n_test 0.05): {elapsed:.1f} s, "
          f"{out['steps']} steps; test MAE {out['metrics_before']['mae']:.3f} -> {out['metrics_after']['mae']:.3f}, "
          f"MASE {out['metrics_before']['mase']:.3f} -> {out['metrics_after']['mase']:.3f}")


def main() -> None:
    """Run all three parts and print their figures."""
    started = time.perf_counter()
    from timeseries.ensure import ensure_checkpoints

    settings = get_settings()
    ensure_checkpoints(settings, progress=print)
    cold_import = time.perf_counter() - started
    print(f"torch/granite-tsfm import + checkpoint check: {cold_import:.1f} s")
    telemetry, episodes, version = _fleet(settings)
    asyncio.run(_latencies(telemetry))
    forecast_accuracy(telemetry, version, settings.models_dir)
    anomaly_detection(telemetry, episodes, settings.models_dir)
    fault_recall(telemetry, episodes)


if __name__ == "__main__":
    main()
