"""The timeseries specialist: TSFM anomaly detection, forecasting and tuning, plus pure statistics
(trends, drift, load bands, thresholds) on the telemetry windows the data specialist collected."""

from specialists.timeseries.specialist import TimeseriesSpecialist

__all__ = ["TimeseriesSpecialist"]
