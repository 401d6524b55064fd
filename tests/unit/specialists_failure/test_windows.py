"""Baseline / recent window choice by running samples."""

from __future__ import annotations

import pandas as pd

from specialists.common.windows import MIN_RUNNING, comparable_baseline, episode_windows, split_by_running


def _times(start: str, days: int) -> pd.DatetimeIndex:
    return pd.date_range(start, periods=days * 96, freq="15min", tz="UTC")


def test_split_by_running_takes_thirds_of_the_running_samples_not_of_the_calendar() -> None:
    # Running only in the last ten of thirty days: the baseline must still hold running samples.
    running = _times("2021-06-21", 10)
    start, end = pd.Timestamp("2021-06-01", tz="UTC"), pd.Timestamp("2021-07-01", tz="UTC")
    windows = split_by_running(running, start, end)
    assert windows is not None
    (b0, b1), (r0, r1) = windows
    in_baseline = ((running >= b0) & (running < b1)).sum()
    in_recent = ((running >= r0) & (running < r1)).sum()
    assert in_baseline == in_recent == len(running) // 3
    assert b1 <= r0 and r1 == end


def test_split_by_running_refuses_too_little_data() -> None:
    running = _times("2021-06-01", 1)[:MIN_RUNNING]
    assert split_by_running(running, running[0], running[-1]) is None


def test_episode_windows_stretch_an_idle_baseline_back_but_not_before_the_previous_repair() -> None:
    running = _times("2021-03-01", 20).append(_times("2021-05-01", 40))  # idle in April
    onset, peak = pd.Timestamp("2021-05-10", tz="UTC"), pd.Timestamp("2021-06-01", tz="UTC")
    (b0, b1), (r0, r1) = episode_windows(running, onset=onset, peak=peak, stop=None)
    assert b1 == onset and ((running >= b0) & (running < b1)).sum() >= MIN_RUNNING
    (c0, _), _ = episode_windows(
        running, onset=onset, peak=peak, stop=None, not_before=pd.Timestamp("2021-05-02", tz="UTC")
    )
    assert c0 >= pd.Timestamp("2021-05-02", tz="UTC")
    assert r0 == peak - pd.Timedelta(days=3) and r1 == peak + pd.Timedelta(days=2)


def test_a_step_fault_keeps_its_recent_window_after_the_onset() -> None:
    running = _times("2021-05-01", 60)
    onset = pd.Timestamp("2021-06-01 12:00", tz="UTC")
    _, (r0, _) = episode_windows(running, onset=onset, peak=onset, stop=None)
    assert r0 == onset


def test_a_part_load_winter_baseline_slides_to_the_first_comparable_loads() -> None:
    times = pd.date_range("2021-01-01", "2021-07-01", freq="15min", tz="UTC", inclusive="left")
    load = pd.Series(20.0, index=times)
    load[times >= pd.Timestamp("2021-04-01", tz="UTC")] = 70.0
    baseline = (pd.Timestamp("2021-01-01", tz="UTC"), pd.Timestamp("2021-01-15", tz="UTC"))
    recent = (pd.Timestamp("2021-06-25", tz="UTC"), pd.Timestamp("2021-07-01", tz="UTC"))
    moved = comparable_baseline(load, baseline, recent)
    assert (
        moved[0] >= pd.Timestamp("2021-03-18", tz="UTC") and moved[1] - moved[0] == baseline[1] - baseline[0]
    )
    assert moved[1] <= recent[0] - pd.Timedelta(days=7)
    overlapping = load.copy()
    overlapping[:] = 70.0
    assert comparable_baseline(overlapping, baseline, recent) == baseline
