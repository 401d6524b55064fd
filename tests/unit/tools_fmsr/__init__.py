"""Tests of the fmsr tool server."""
