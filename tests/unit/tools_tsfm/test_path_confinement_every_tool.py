"""Path traversal in every file-taking argument of every tool: refused, naming the argument, and
nothing is read from or written outside the work directory.

The file-taking arguments are found from the tools' own input schemas (names that hold a path,
file, dir, checkpoint or JSON file), so a new such argument is covered without editing this test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.timeseries.fixtures import sine_frame
from tools.framework import ToolContext, call_tool
from tools.registry import all_tools

FILE_WORDS = ("path", "file", "dir", "checkpoint", "json", "save")
HOSTILE = ["/etc/passwd", "../../../../etc/passwd", "sub/../../outside", "~/.ssh/id_rsa", "escape_link/x"]


def file_arguments() -> list[tuple[str, str]]:
    """(tool full name, argument) for every string argument that names a file or directory."""
    found = []
    for spec in all_tools():
        for name, schema in (spec.input_schema.get("properties") or {}).items():
            types = {schema.get("type"), *(s.get("type") for s in schema.get("anyOf", []))}
            if "string" in types and any(word in name for word in FILE_WORDS):
                found.append((spec.full_name, name))
    return found


def test_the_file_arguments_found_include_the_known_ones() -> None:
    found = set(file_arguments())
    assert {("utilities.json_reader", "file_name"), ("utilities.csv_stats", "csv_path"),
            ("tsfm.run_tsfm_forecasting", "dataset_path"), ("tsfm.run_tsad", "tsfm_output_json"),
            ("tsfm.run_tsfm_finetuning", "save_model_dir"), ("tsfm.run_tsad", "ad_model_save")} <= found


def _valid_args(ctx: ToolContext, tool: str) -> dict[str, Any]:
    sine_frame(2).to_csv(ctx.workdir / "data.csv", index=False)
    (ctx.workdir / "forecast.json").write_text(json.dumps({"x": 1}))
    base = {"dataset_path": "data.csv", "timestamp_column": "timestamp", "target_columns": ["value"],
            "tsfm_output_json": "forecast.json", "file_name": "forecast.json", "csv_path": "data.csv"}
    spec = next(s for s in all_tools() if s.full_name == tool)
    return {k: v for k, v in base.items() if k in (spec.input_schema.get("properties") or {})}


@pytest.mark.parametrize(("tool", "argument"), file_arguments())
@pytest.mark.parametrize("hostile", HOSTILE)
async def test_a_path_outside_the_work_directory_is_refused(tsfm_ctx: ToolContext, tool: str, argument: str,
                                                            hostile: str) -> None:
    outside = tsfm_ctx.workdir.parent / "outside"
    outside.mkdir(exist_ok=True)
    link = tsfm_ctx.workdir / "escape_link"
    if not link.exists():
        link.symlink_to(outside, target_is_directory=True)
    before = sorted(p.name for p in outside.iterdir())
    result = await call_tool(tool, {**_valid_args(tsfm_ctx, tool), argument: hostile})
    assert result.status == "error", (tool, argument, hostile, result.output)
    assert argument in (result.error or "") or "Unknown model_checkpoint" in (result.error or ""), result.error
    assert "root:x:0:0" not in json.dumps(result.output)
    assert sorted(p.name for p in outside.iterdir()) == before  # nothing written outside
    assert not Path("/etc/passwd.json").exists()
