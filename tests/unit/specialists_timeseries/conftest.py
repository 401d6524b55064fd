"""Fixtures of the timeseries specialist tests: the tiny trained TTM of the time-series tests."""

from tests.unit.timeseries.fixtures import tiny_checkpoint

__all__ = ["tiny_checkpoint"]
