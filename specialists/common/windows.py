"""Choosing the baseline and recent windows the evidence compares (pure).

Chillers sit idle for days (winter, economiser, lag machines), so windows are chosen by *running*
samples rather than by the calendar: a baseline needs a day or two of running data to be a baseline.
"""

from __future__ import annotations

import pandas as pd

MIN_RUNNING = 48  # twelve running hours at 15 minutes
Window = tuple[pd.Timestamp, pd.Timestamp]


def split_by_running(
    running_times: pd.DatetimeIndex,
    start: pd.Timestamp,
    end: pd.Timestamp,
    fraction: float = 1 / 3,
    *,
    min_running: int = MIN_RUNNING,
) -> tuple[Window, Window] | None:
    """Baseline = the first `fraction` of the running samples in [start, end), recent = the last
    `fraction`; None when there are too few running samples to split."""
    inside = running_times[(running_times >= start) & (running_times < end)]
    count = max(int(len(inside) * fraction), 1)
    if len(inside) < 2 * min_running:
        return None
    baseline = (start, inside[count - 1] + pd.Timedelta(seconds=1))
    recent = (inside[len(inside) - count], end)
    return baseline, recent


def recent_against_weeks_before(
    running_times: pd.DatetimeIndex,
    end: pd.Timestamp,
    *,
    recent_days: float = 7.0,
    gap_days: float = 42.0,
    baseline_days: float = 28.0,
    lookback_days: float = 120.0,
    min_running: int = MIN_RUNNING,
) -> tuple[Window, Window] | None:
    """Windows for a question about one day, when onset and peak are unknown (pure).

    recent = the last `recent_days` before `end`, stretched back to the chiller's last `min_running`
    running samples when it sat idle (a lag machine, winter): the fault shows where it last ran.
    baseline = the `baseline_days` ending `gap_days` before the recent window, stretched back (never
    before `end - lookback_days`) until it holds `min_running` running samples. The gap lets a slow
    fault (fouling over months) stand out against weeks well before it; a sudden one stands out
    anyway. When even the full look-back before the gap runs too little, the baseline is allowed to
    reach up to the recent window. None when the look-back holds too few running samples.
    """
    day = pd.Timedelta(days=1)
    floor = end - lookback_days * day
    inside = running_times[(running_times >= floor) & (running_times < end)].sort_values()
    if len(inside) < 2 * min_running:
        return None
    recent_start = min(end - recent_days * day, inside[-min_running])
    baseline_end = recent_start - gap_days * day
    baseline_start = max(baseline_end - baseline_days * day, floor)
    while baseline_start > floor and _count(inside, baseline_start, baseline_end) < min_running:
        baseline_start = max(baseline_start - 7 * day, floor)
    if _count(inside, baseline_start, baseline_end) < min_running:
        baseline_end = recent_start  # too little running before the gap: the weeks up to the recent window
        if _count(inside, baseline_start, baseline_end) < min_running:
            return None
    return (baseline_start, baseline_end), (recent_start, end)


def episode_windows(
    running_times: pd.DatetimeIndex,
    *,
    onset: pd.Timestamp,
    peak: pd.Timestamp,
    stop: pd.Timestamp | None,
    not_before: pd.Timestamp | None = None,
    baseline_days: float = 14.0,
    recent_days: float = 5.0,
    max_lookback_days: float = 90.0,
) -> tuple[Window, Window]:
    """Windows around a known episode: the weeks before onset vs the days around the peak.

    recent = [max(peak - 3 d, onset), min(peak + 2 d, stop)), stretched back toward the onset (then forward toward
    the stop) until it holds MIN_RUNNING running samples. baseline = [onset - baseline_days, onset),
    stretched back (up to `max_lookback_days`, never before `not_before`, e.g. the end of an earlier
    fault) and then forward (never into the recent window) when the chiller was idle then. When the
    earlier fault was repaired after this onset, the baseline starts at that repair.
    """
    recent_end = min(peak + pd.Timedelta(days=2), stop) if stop is not None else peak + pd.Timedelta(days=2)
    # Never before the onset: a step fault's recent window must not mix in pre-fault samples.
    recent_start = max(recent_end - pd.Timedelta(days=recent_days), onset)
    while recent_start > onset and _count(running_times, recent_start, recent_end) < MIN_RUNNING:
        recent_start -= pd.Timedelta(days=1)
    # A step fault (onset = peak) on an idle chiller: look forward for running data instead.
    limit = stop if stop is not None else recent_end + pd.Timedelta(days=30)
    while recent_end < limit and _count(running_times, recent_start, recent_end) < MIN_RUNNING:
        recent_end = min(recent_end + pd.Timedelta(days=1), limit)
    floor = onset - pd.Timedelta(days=max_lookback_days)
    if not_before is not None:
        floor = max(floor, not_before)
    if floor >= onset:  # an earlier fault lasted past this onset: start the baseline at its repair
        baseline_end = min(floor + pd.Timedelta(days=baseline_days), recent_start)
        return (floor, max(baseline_end, floor)), (recent_start, recent_end)
    baseline_end = min(onset, recent_start)
    baseline_start = max(baseline_end - pd.Timedelta(days=baseline_days), floor)
    while baseline_start > floor and _count(running_times, baseline_start, baseline_end) < MIN_RUNNING:
        baseline_start = max(baseline_start - pd.Timedelta(days=7), floor)
    if _count(running_times, baseline_start, baseline_end) < MIN_RUNNING:
        later = running_times[(running_times >= baseline_start) & (running_times < recent_start)]
        if len(later) >= MIN_RUNNING:
            baseline_end = later[min(len(later), 4 * MIN_RUNNING) - 1] + pd.Timedelta(seconds=1)
    return (baseline_start, baseline_end), (recent_start, recent_end)


def comparable_baseline(
    running_load: pd.Series,
    baseline: Window,
    recent: Window,
    *,
    step_days: float = 14.0,
    gap_days: float = 7.0,
) -> Window:
    """Slide a baseline forward (same length, never closer than `gap_days` to the recent window)
    until its running loads overlap the recent ones: winter part-load against summer full load is
    not like with like. Unchanged when the load ranges overlap at all or it cannot move.

    `running_load` is Chiller % Loaded of running samples, indexed by time.
    """

    def loads(window: Window) -> pd.Series:
        return running_load[(running_load.index >= window[0]) & (running_load.index < window[1])]

    recent_loads, base_loads = loads(recent), loads(baseline)
    if recent_loads.empty or base_loads.empty:
        return baseline
    if float(base_loads.quantile(0.9)) >= float(recent_loads.quantile(0.1)):
        return baseline  # the load ranges overlap: the load fit can compare like with like
    wanted = float(recent_loads.quantile(0.25))
    length, step = baseline[1] - baseline[0], pd.Timedelta(days=step_days)
    latest_end = recent[0] - pd.Timedelta(days=gap_days)
    candidate = baseline
    while True:
        current = loads(candidate)
        if len(current) >= MIN_RUNNING and float(current.quantile(0.9)) >= wanted:
            return candidate
        if candidate[1] + step > latest_end:
            return baseline
        candidate = (candidate[0] + step, candidate[0] + step + length)


def _count(times: pd.DatetimeIndex, start: pd.Timestamp, end: pd.Timestamp) -> int:
    return int(((times >= start) & (times < end)).sum())
