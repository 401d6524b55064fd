"""The wall-time split: each instant goes to the most specific interval running then."""

from __future__ import annotations

import pytest

from assetops.profile_split import intervals, split_wall, turn_profile
from assetops.profiling import LLMCallRecord, Profile, QueryRecord, StageRecord, ToolCallRecord


def test_overlaps_go_to_the_most_specific_and_the_parts_sum_to_the_wall() -> None:
    spans = [(0.0, 0.4, "routing"), (0.1, 0.3, "llm"), (0.5, 0.9, "specialists"), (0.55, 0.8, "tools"),
             (0.6, 0.7, "tools"), (0.65, 0.75, "db"), (0.85, 0.86, "db")]
    split = split_wall(spans, 0.0, 1.0)
    assert split == pytest.approx({"llm": 200.0, "tools": 250.0, "db": 10.0, "routing": 200.0,
                                   "specialists": 140.0, "answer": 0.0, "other": 200.0})
    assert sum(split.values()) == pytest.approx(1000.0)


def test_intervals_outside_the_turn_are_clipped_and_cache_hits_count_as_tool_time() -> None:
    profile = Profile(
        llm_calls=[LLMCallRecord("m", 100.0, started_at=10.0)],
        tool_calls=[ToolCallRecord("iot", "history", {}, "ok", 500.0, 9.5, 10.5),
                    ToolCallRecord("iot", "history", {}, "ok", 0.1, 10.6, 10.7, reused=True)],
        queries=[QueryRecord("SELECT", 50.0, 1, started_at=10.8)],
        stages=[StageRecord("supervisor", 10.0, 10.2), StageRecord("respond", 10.9, 11.0)],
    )
    assert ("tools", 10.6, 10.7) in [(c, s, e) for s, e, c in intervals(profile)]
    split = turn_profile(profile, 10.0, 11.0)["split_ms"]
    assert split["llm"] == pytest.approx(100.0) and split["tools"] == pytest.approx(500.0)
    assert split["db"] == pytest.approx(50.0) and split["answer"] == pytest.approx(100.0)
    assert split["other"] == pytest.approx(250.0) and split["routing"] == pytest.approx(0.0)


def test_call_rows_are_in_start_order_with_their_offsets() -> None:
    profile = Profile(tool_calls=[ToolCallRecord("wo", "b", {}, "ok", 5.0, 2.0, 2.005, db_ms=1.5, db_queries=2),
                                  ToolCallRecord("iot", "a", {}, "ok", 5.0, 1.5, 1.505)])
    rows = turn_profile(profile, 1.0, 3.0)["calls"]
    assert [r["name"] for r in rows] == ["iot.a", "wo.b"]
    assert rows[0]["start_ms"] == 500.0 and rows[1]["db_ms"] == 1.5 and rows[1]["db_queries"] == 2
