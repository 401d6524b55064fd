"""Fixtures: the small fleet (once per session), a clean result cache and a tool context per test."""

from tests.unit.tools_iot.fixtures import ctx, fresh_result_cache, small_fleet

__all__ = ["ctx", "fresh_result_cache", "small_fleet"]
