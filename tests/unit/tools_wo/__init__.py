"""Tests of the wo tool server."""
