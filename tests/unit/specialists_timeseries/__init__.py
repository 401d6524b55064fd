"""Tests of the timeseries specialist and its pure statistics."""
