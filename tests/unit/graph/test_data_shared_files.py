"""Telemetry-file work shared across sessions: a merged window written once and rebuilt only when a
chunk changes, concurrent merges of the same target run once, facts computed once per file version."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from specialists.data import frames, shared_files

ZONE = ZoneInfo("America/New_York")


def _history_csv(path: Path, start: str, values: list[float]) -> Path:
    stamps = pd.date_range(start, periods=len(values), freq="15min", tz=ZONE)
    frame = pd.DataFrame({"timestamp": [s.isoformat() for s in stamps], "asset_id": "Chiller 9",
                          "Chiller 9 Tonnage": values})
    frame.to_csv(path, index=False)
    return path


def _touch_later(path: Path) -> None:
    """Give the file a modification time clearly after everything written so far."""
    later = max(p.stat().st_mtime_ns for p in path.parent.iterdir()) + 1_000_000_000
    os.utime(path, ns=(later, later))


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    shared_files.clear()
    yield
    shared_files.clear()


@pytest.fixture
def chunks(tmp_path: Path) -> list[str]:
    a = _history_csv(tmp_path / "a.csv", "2021-05-01", [1.0, 2.0, 3.0])
    b = _history_csv(tmp_path / "b.csv", "2021-05-01 00:45", [4.0, 5.0])
    return [str(a), str(b)]


async def test_concurrent_merges_of_one_target_write_it_once(tmp_path: Path, chunks: list[str]) -> None:
    target = tmp_path / "m.csv"
    before = shared_files.stats()
    results = await asyncio.gather(*(shared_files.merge_once(chunks, target) for _ in range(5)))
    after = shared_files.stats()
    assert results == [target] * 5
    assert after["merges"] - before["merges"] == 1
    assert frames.read_history(target)["Chiller 9 Tonnage"].tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]


async def test_a_fresh_merged_file_is_kept_and_a_changed_chunk_rebuilds_it(tmp_path: Path, chunks: list[str]) -> None:
    target = tmp_path / "m.csv"
    await shared_files.merge_once(chunks, target)
    await shared_files.merge_once(chunks, target)
    assert shared_files.stats()["merges_skipped"] >= 1
    _history_csv(Path(chunks[1]), "2021-05-01 00:45", [40.0, 50.0])
    _touch_later(Path(chunks[1]))
    await shared_files.merge_once(chunks, target)
    assert frames.read_history(target)["Chiller 9 Tonnage"].tolist() == [1.0, 2.0, 3.0, 40.0, 50.0]


def test_a_merge_gives_the_same_file_as_the_plain_merge(tmp_path: Path, chunks: list[str]) -> None:
    asyncio.run(shared_files.merge_once(chunks, tmp_path / "shared.csv"))
    frames.merge_histories(chunks, tmp_path / "plain.csv")
    assert (tmp_path / "shared.csv").read_bytes() == (tmp_path / "plain.csv").read_bytes()


def test_parsed_frames_are_private_copies_and_follow_the_file(tmp_path: Path, chunks: list[str]) -> None:
    first = shared_files.read_history(chunks[0])
    first.loc[0, "Chiller 9 Tonnage"] = -1.0  # a caller changing its frame changes no one else's
    assert shared_files.read_history(chunks[0])["Chiller 9 Tonnage"].tolist() == [1.0, 2.0, 3.0]
    _history_csv(Path(chunks[0]), "2021-05-01", [7.0, 8.0, 9.0])
    _touch_later(Path(chunks[0]))
    assert shared_files.read_history(chunks[0])["Chiller 9 Tonnage"].tolist() == [7.0, 8.0, 9.0]


def test_derived_values_are_computed_once_per_file_version_and_key(chunks: list[str]) -> None:
    computed: list[str] = []
    start = threading.Barrier(4)

    def total(frame: pd.DataFrame) -> float:
        computed.append("x")
        return float(frame["Chiller 9 Tonnage"].sum())

    def caller() -> None:
        start.wait()
        assert shared_files.derived(chunks[0], ("total",), total) == 6.0

    threads = [threading.Thread(target=caller) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert computed == ["x"]  # four threads at once, one computation
    assert shared_files.derived(chunks[0], ("total", "other"), total) == 6.0
    assert len(computed) == 2  # another key is another computation
    _history_csv(Path(chunks[0]), "2021-05-01", [1.0, 1.0, 1.0])
    _touch_later(Path(chunks[0]))
    assert shared_files.derived(chunks[0], ("total",), total) == 3.0
