"""Windows for a question about one day ("around DATE"): the last running week against the weeks
well before it, reaching back over idle weeks (winter, a lag machine)."""

from __future__ import annotations

import pandas as pd

from specialists.common.windows import MIN_RUNNING, recent_against_weeks_before

END = pd.Timestamp("2021-07-02", tz="UTC")
DAY = pd.Timedelta(days=1)


def _times(start: pd.Timestamp, days: float) -> pd.DatetimeIndex:
    return pd.date_range(start, periods=int(days * 96), freq="15min")


def _count(times: pd.DatetimeIndex, window: tuple[pd.Timestamp, pd.Timestamp]) -> int:
    return int(((times >= window[0]) & (times < window[1])).sum())


def test_a_running_chiller_compares_its_last_week_with_four_weeks_ending_six_weeks_earlier() -> None:
    running = _times(END - 120 * DAY, 120)
    windows = recent_against_weeks_before(running, END)
    assert windows is not None
    baseline, recent = windows
    assert recent == (END - 7 * DAY, END)
    assert baseline == (END - (7 + 42 + 28) * DAY, END - (7 + 42) * DAY)


def test_an_idle_chiller_is_judged_where_it_last_ran() -> None:
    # It ran until three weeks before the asked day, then sat idle: the last week holds nothing.
    running = _times(END - 120 * DAY, 99)
    windows = recent_against_weeks_before(running, END)
    assert windows is not None
    baseline, recent = windows
    assert _count(running, recent) == MIN_RUNNING  # its last running half-day
    assert recent[1] == END and recent[0] == running[-MIN_RUNNING]
    assert baseline[1] == recent[0] - 42 * DAY and _count(running, baseline) >= MIN_RUNNING


def test_an_idle_baseline_is_stretched_back_and_never_past_the_look_back() -> None:
    # Running in the last ten days and in a week long before; nothing in the four weeks after the gap.
    running = _times(END - 10 * DAY, 10).append(_times(END - 110 * DAY, 7))
    windows = recent_against_weeks_before(running, END, lookback_days=120)
    assert windows is not None
    baseline, _ = windows
    assert END - 120 * DAY <= baseline[0] < END - (7 + 42 + 28) * DAY  # stretched, within the look-back
    assert baseline[1] == END - (7 + 42) * DAY
    assert _count(running, baseline) >= MIN_RUNNING


def test_too_little_running_before_the_gap_takes_the_weeks_up_to_the_recent_window() -> None:
    # A chiller that only started running three weeks ago: no baseline six weeks back exists.
    running = _times(END - 21 * DAY, 21)
    windows = recent_against_weeks_before(running, END)
    assert windows is not None
    baseline, recent = windows
    assert baseline[1] == recent[0] == END - 7 * DAY
    assert _count(running, baseline) == 14 * 96


def test_too_little_running_in_the_whole_look_back_gives_no_windows() -> None:
    running = _times(END - 30 * DAY, 1)[: MIN_RUNNING + 10]
    assert recent_against_weeks_before(running, END) is None
    assert recent_against_weeks_before(_times(END - 200 * DAY, 20), END) is None  # before the look-back
