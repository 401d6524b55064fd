"""How much telemetry a model-based analysis looks at (pure).

Anomaly detection runs a forecaster over every sample: a year for two chillers took close to a
minute, far beyond a conversational turn, while the recent two months at 15 minutes already hold
several thousand samples (plenty for calibration and for the periods people ask about). A single
day, on the other hand, holds fewer continuous samples than the model needs as context (a trip
day with a dead sensor falls apart into segments shorter than one context window), so short
windows (under three days) are widened back to a week ending where the asked window ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from assetops.domain.turn import TimeWindow

MAX_ANALYSIS_DAYS = 60  # ~5,800 samples at 15 minutes per sensor: seconds, not a minute
SHORT_WINDOW_DAYS = 3  # below this a window rarely holds a continuous stretch of model context + calibration
WIDENED_DAYS = 7  # what a short window is widened to, ending where it ends


@dataclass(frozen=True)
class AnalysisWindow:
    """The window actually analysed and, when it differs from the one asked for, why."""

    window: TimeWindow
    note: str | None = None

    @property
    def changed(self) -> bool:
        """True when the analysed window is not the asked one."""
        return self.note is not None


def _dates(window: TimeWindow) -> str:
    return f"{window.start:%Y-%m-%d} to {window.end:%Y-%m-%d}"


def anomaly_analysis_window(
    asked: TimeWindow,
    *,
    max_days: int = MAX_ANALYSIS_DAYS,
    short_days: int = SHORT_WINDOW_DAYS,
    widened_days: int = WIDENED_DAYS,
) -> AnalysisWindow:
    """The asked window capped to its last `max_days`, or, when shorter than `short_days`, widened
    back to `widened_days`; the end stays where it was."""
    length = asked.end - asked.start
    if length > timedelta(days=max_days):
        capped = TimeWindow(asked.end - timedelta(days=max_days), asked.end, f"last {max_days} days")
        return AnalysisWindow(
            capped,
            f"Anomaly detection analysed the last {max_days} days ({_dates(capped)}) of the "
            f"{length.days}-day window at 15-minute resolution, to keep the turn fast.",
        )
    if length < timedelta(days=short_days):
        widened = TimeWindow(
            asked.end - timedelta(days=widened_days),
            asked.end,
            f"{widened_days} days to {asked.end:%Y-%m-%d}",
        )
        return AnalysisWindow(
            widened,
            f"Anomaly detection analysed the {widened_days} days up to the window end ({_dates(widened)}): "
            f"the asked {_dates(asked)} holds too few continuous samples for the model's context.",
        )
    return AnalysisWindow(asked)


LONGER_FACTOR = 4  # a week that cannot calibrate becomes four, still ending where the asked window ends


def longer_analysis_window(
    analysed: TimeWindow, reason: str, *, max_days: int = MAX_ANALYSIS_DAYS, factor: int = LONGER_FACTOR
) -> AnalysisWindow | None:
    """When the model could not run on `analysed` for want of data (`reason`, the tool's words): a
    window `factor` times as long (at most `max_days`) with the same end; None when it is that long
    already. More running samples before the end give the calibration and the model context enough."""
    length = analysed.end - analysed.start
    days = min(max(int(length / timedelta(days=1)) * factor, 1), max_days)
    if length >= timedelta(days=max_days) or timedelta(days=days) <= length:
        return None
    longer = TimeWindow(analysed.end - timedelta(days=days), analysed.end, f"{days} days to {analysed.end:%Y-%m-%d}")
    return AnalysisWindow(
        longer,
        f"Anomaly detection analysed the {days} days up to the window end ({_dates(longer)}): on "
        f"{_dates(analysed)} the model could not run ({reason.rstrip('.')}).",
    )
