"""Fixtures of the time-series tests (the tiny checkpoint is trained once per session)."""

from tests.unit.timeseries.fixtures import tiny_checkpoint

__all__ = ["tiny_checkpoint"]
