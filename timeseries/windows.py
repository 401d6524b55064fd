"""Training/evaluation windows cut from regular series: (past L, future H) pairs without gaps."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


@dataclass
class WindowSet:
    """Aligned context and target windows, univariate: past (N, L), future (N, H)."""

    past: np.ndarray
    future: np.ndarray

    def __len__(self) -> int:
        return len(self.past)

    def subset(self, index: np.ndarray) -> WindowSet:
        """The windows at `index`."""
        return WindowSet(self.past[index], self.future[index])

    def normalised(self) -> WindowSet:
        """Each window shifted and scaled by its own mean and spread (past and future together).

        TTM rescales its input per window (RevIN), so this does not change what it predicts; it only
        makes the training loss weigh a kW sensor and a degF sensor alike.
        """
        whole = np.concatenate([self.past, self.future], axis=1)
        centre = whole.mean(axis=1, keepdims=True)
        spread = whole.std(axis=1, keepdims=True) + 1e-3 * (np.abs(centre) + 1.0)
        return WindowSet(((self.past - centre) / spread).astype(np.float32),
                         ((self.future - centre) / spread).astype(np.float32))


def valid_starts(values: np.ndarray, total: int) -> np.ndarray:
    """Start rows of every window of `total` rows that contains no NaN."""
    if len(values) < total:
        return np.empty(0, dtype=np.int64)
    bad = np.isnan(values).astype(np.int64)
    bad_in_window = sliding_window_view(bad, total).sum(axis=1)
    return np.flatnonzero(bad_in_window == 0)


def cut_windows(
    series: list[np.ndarray], context: int, horizon: int, *, limit: int | None, rng: np.random.Generator,
    stride: int = 1,
) -> WindowSet:
    """Gap-free windows from several series; a random sample of at most `limit` when given."""
    total = context + horizon
    picks: list[tuple[int, int]] = []
    for number, values in enumerate(series):
        picks.extend((number, int(start)) for start in valid_starts(values, total)[::stride])
    if not picks:
        return WindowSet(np.empty((0, context), np.float32), np.empty((0, horizon), np.float32))
    chosen = np.arange(len(picks))
    if limit is not None and len(picks) > limit:
        chosen = np.sort(rng.choice(len(picks), size=limit, replace=False))
    stacked = np.stack([series[picks[i][0]][picks[i][1]:picks[i][1] + total] for i in chosen]).astype(np.float32)
    return WindowSet(stacked[:, :context], stacked[:, context:])


def seasonal_naive(past: np.ndarray, horizon: int, season: int) -> np.ndarray:
    """Forecast step k as the value one season earlier (needs context >= season)."""
    if past.shape[1] < season:
        raise ValueError(f"seasonal naive needs a context of at least one season ({season} steps)")
    idx = past.shape[1] - season + (np.arange(horizon) % season)
    return past[:, idx]
