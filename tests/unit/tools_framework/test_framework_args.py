"""Date parsing, order checks and work-directory confinement."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from tools.framework import ToolError
from tools.framework.dates import check_order, parse_date_arg
from tools.framework.paths import resolve_in_workdir


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2020-06-01", datetime(2020, 6, 1)),
        ("2020-06-01T12:30:00", datetime(2020, 6, 1, 12, 30)),
        ("2020-06-01T12:30:00-04:00", datetime(2020, 6, 1, 12, 30, tzinfo=timezone(timedelta(hours=-4)))),
        ("2020-06-01T16:30:00Z", datetime(2020, 6, 1, 16, 30, tzinfo=UTC)),
        ("2021-05-20T14:43:27.589000-04:00", datetime(2021, 5, 20, 14, 43, 27, 589000, timezone(timedelta(hours=-4)))),
    ],
)
def test_parse_date_arg_accepts_dates_and_iso_datetimes(text: str, expected: datetime) -> None:
    assert parse_date_arg("start_date", text) == expected


@pytest.mark.parametrize("text", ["06/01/2020", "yesterday", "2020-13-01", ""])
def test_parse_date_arg_rejects_other_formats_naming_the_argument(text: str) -> None:
    with pytest.raises(ToolError, match="Argument 'end_date' must be a date YYYY-MM-DD"):
        parse_date_arg("end_date", text)


def test_check_order_rejects_an_end_before_the_start() -> None:
    start, end = datetime(2020, 6, 2), datetime(2020, 6, 1)
    with pytest.raises(ToolError, match=r"'end_date'.*must be after 'start_date'"):
        check_order(start, end)
    check_order(end, start)
    check_order(start, start, allow_equal=True)


def test_check_order_compares_offsets_as_instants() -> None:
    # 01:30-05:00 is after 02:00-04:00 (06:30Z vs 06:00Z) although its wall-clock reads earlier.
    start = datetime.fromisoformat("2020-11-01T02:00:00-04:00")
    check_order(start, datetime.fromisoformat("2020-11-01T01:30:00-05:00"))


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "data.csv").write_text("a\n1\n")
    (tmp_path / "outside.csv").write_text("a\n1\n")
    os.symlink("/", root / "to_root")
    os.symlink(tmp_path / "outside.csv", root / "link_out.csv")
    os.symlink(root / "sub" / "data.csv", root / "link_in.csv")
    return root


@pytest.mark.parametrize(
    "hostile",
    ["/etc/passwd", "../../x", "../outside.csv", "sub/../../outside.csv", "to_root/etc/passwd", "to_root", "link_out.csv"],
)
def test_paths_outside_the_work_directory_are_refused(workdir: Path, hostile: str) -> None:
    with pytest.raises(ToolError, match=r"Argument 'csv_path': path .* is outside the work directory"):
        resolve_in_workdir("csv_path", hostile, workdir=workdir)


@pytest.mark.parametrize("inside", ["sub/data.csv", "link_in.csv", "./sub/../sub/data.csv"])
def test_paths_inside_the_work_directory_resolve(workdir: Path, inside: str) -> None:
    assert resolve_in_workdir("csv_path", inside, workdir=workdir) == (workdir / "sub" / "data.csv").resolve()


def test_absolute_paths_inside_the_work_directory_are_accepted(workdir: Path) -> None:
    target = workdir / "sub" / "data.csv"
    assert resolve_in_workdir("file_name", str(target), workdir=workdir) == target.resolve()


def test_missing_files_are_reported_when_required(workdir: Path) -> None:
    with pytest.raises(ToolError, match=r"Argument 'file_name': file 'nope\.json' does not exist"):
        resolve_in_workdir("file_name", "nope.json", workdir=workdir, must_exist=True)
