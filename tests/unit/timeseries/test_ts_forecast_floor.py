"""Forecasts of quantities the data never showed below zero are floored at zero, others are left alone."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timeseries.forecasting import floor_never_negative
from timeseries.quality import QualityResult


def _quality(frame: pd.DataFrame) -> QualityResult:
    return QualityResult(frame=frame, targets=list(frame.columns), conditionals=[], frequency=pd.Timedelta("15min"),
                         naive_timestamps=False, summary={})


def test_never_negative_targets_are_floored_and_named_signed_ones_are_kept() -> None:
    frame = pd.DataFrame({"Condenser Water Flow": [0.0, 1800.0, 0.0], "Trend": [-2.0, 1.0, 3.0],
                          "Tonnage": [0.0, 400.0, 380.0]})
    predictions = np.array([[[-115.9, -3.0, 10.0], [55.4, 2.0, 12.0]]])  # (windows, horizon, targets)
    floored, names = floor_never_negative(predictions.copy(), _quality(frame))
    assert names == ["Condenser Water Flow"]  # Tonnage never went negative in the forecast either
    assert floored[0, :, 0].tolist() == [0.0, 55.4]
    assert floored[0, :, 1].tolist() == [-3.0, 2.0]  # the data had negative values: keep the sign
    assert floored[0, :, 2].tolist() == [10.0, 12.0]
