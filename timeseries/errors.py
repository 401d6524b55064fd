"""The one error type of the time-series package: its message tells the caller what to change."""

from __future__ import annotations


class TsfmError(ValueError):
    """A request the time-series tools cannot serve (bad column, too little data, unknown checkpoint)."""
