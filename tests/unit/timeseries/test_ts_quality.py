"""The data-quality pipeline: timestamps, frequency, NaNs, segments and the summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.unit.timeseries.fixtures import sine_frame
from timeseries.errors import TsfmError
from timeseries.quality import ColumnSpec, assess, drop_nans_greedy

SPEC = ColumnSpec("timestamp", ["value"])


def test_mixed_offsets_parse_to_utc_and_segments_keep_the_original_offset() -> None:
    # Across the autumn DST change the site offset goes from -04:00 to -05:00.
    frame = sine_frame(4, start="2021-11-05T00:00:00-04:00")
    ts = pd.date_range("2021-11-05T04:00:00Z", periods=len(frame), freq="15min").tz_convert("America/New_York")
    frame["timestamp"] = [t.isoformat() for t in ts]
    result = assess(frame, SPEC, frequency_sampling="oov", min_length=10)
    assert len(result.segments()) == 1
    segment = result.summary["filtered_data_ts_segments"][0]
    assert segment["start"] == "2021-11-05T00:00:00-04:00"
    assert segment["end"].endswith("-05:00")


def test_frequency_is_the_median_step_unless_named() -> None:
    frame = sine_frame(2)
    estimated = assess(frame, SPEC, frequency_sampling="", min_length=10)
    assert estimated.frequency == pd.Timedelta(minutes=15)
    named = assess(frame.iloc[::2], SPEC, frequency_sampling="half_hourly", min_length=2)
    assert named.frequency == pd.Timedelta(minutes=30)


def test_a_named_frequency_the_data_does_not_have_leaves_no_segment() -> None:
    with pytest.raises(TsfmError, match="longest has 1 rows"):
        assess(sine_frame(1), SPEC, frequency_sampling="hourly", min_length=2)


def test_unknown_frequency_name_lists_the_valid_ones() -> None:
    with pytest.raises(TsfmError, match="15_minutes"):
        assess(sine_frame(2), SPEC, frequency_sampling="weekly", min_length=10)


def test_gaps_split_segments_and_short_segments_are_dropped() -> None:
    frame = sine_frame(3).drop(index=range(100, 110))  # a 2.75 h hole after row 99
    result = assess(frame, SPEC, frequency_sampling="oov", min_length=150)
    rows = result.summary["filtered_data_ts_segments"]
    assert [r["samples"] for r in rows] == [100, len(frame) - 100]
    assert [r["kept"] for r in rows] == [False, True]
    assert result.frame["segment_id"].nunique() == 1


def test_nothing_long_enough_is_an_error_that_names_the_requirement() -> None:
    with pytest.raises(TsfmError, match="context length requirement"):
        assess(sine_frame(1), SPEC, frequency_sampling="oov", min_length=500)


def test_missing_columns_are_named() -> None:
    with pytest.raises(TsfmError, match=r"\['nope'\] not in index"):
        assess(sine_frame(1), ColumnSpec("timestamp", ["nope"]), frequency_sampling="oov", min_length=10)


def test_nan_values_drop_rows_and_a_mostly_empty_column_goes_instead() -> None:
    values = pd.DataFrame({
        "a": [1.0, np.nan, 3.0, 4.0, 5.0], "b": [np.nan, np.nan, np.nan, np.nan, 1.0], "c": [1.0, 2, 3, 4, 5],
    })
    kept, removed = drop_nans_greedy(values)
    # Row 1 costs one observed cell (tie with column b: rows win), then b (1 cell) beats rows (2 each).
    assert removed == ["b"]
    assert kept.index.tolist() == [0, 2, 3, 4]


def test_summary_counts_nans_and_unparsable_timestamps() -> None:
    frame = sine_frame(2)
    frame.loc[5, "value"] = np.nan
    frame.loc[7, "timestamp"] = "not a time"
    result = assess(frame, SPEC, frequency_sampling="oov", min_length=10)
    original = result.summary["original_data"]
    assert original["nans_summary"]["columns"]["value"]["nans"] == 1
    assert original["sampling_summary"]["unparsed_timestamps"] == 1
    assert result.summary["frequency_sampling_min"] == 15.0


def test_off_grid_extra_samples_do_not_cut_the_series_into_segments() -> None:
    # A week at 15 minutes with one extra sample a day three seconds after a grid point, as BMS data has.
    grid = pd.date_range("2021-06-01T00:00:00-04:00", periods=7 * 96, freq="15min")
    extras = [grid[i] + pd.Timedelta(seconds=3) for i in range(50, len(grid), 96)]
    stamps = sorted([*grid, *extras])
    frame = pd.DataFrame({"timestamp": [t.isoformat() for t in stamps], "value": range(len(stamps))})
    result = assess(frame, SPEC, frequency_sampling="oov", min_length=600)
    assert result.frame["segment_id"].nunique() == 1
    assert len(result.frame) == len(grid)
    assert result.summary["original_data"]["sampling_summary"]["off_grid_samples_removed"] == len(extras)
