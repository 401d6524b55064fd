"""Tool servers as real subprocesses: stdio with the MCP client, HTTP behind the remote switch."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import require_shared
from tests.integration.tools_mcp.conftest import ASSETOPS, REPO_ROOT
from tests.unit.tools_iot.small_fleet import SmallFleet
from tools.framework import ToolContext, call_tool, clear_result_cache
from tools.registry import tools_of

WINDOW = {"site_name": "MAIN", "asset_id": "Chiller 9", "start": "2020-06-01", "final": "2020-06-02"}


async def test_stdio_iot_server_lists_contract_schemas_and_writes_history_csv(server_env: dict[str, str]) -> None:
    params = StdioServerParameters(command=ASSETOPS[0], args=[*ASSETOPS[1:], "mcp", "serve", "iot"],
                                   env=server_env, cwd=str(REPO_ROOT))
    async with Client(params, read_timeout_seconds=60) as client:
        listed = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        result = await client.call_tool("history_csv", WINDOW)
    assert set(listed) == {s.name for s in tools_of("iot")}
    contract = json.loads(require_shared("contract/tools.json").read_text())["servers"]["iot"]
    for name, schema in listed.items():
        assert schema["required"] == contract[name]["required"]
        assert {k: {kk: vv for kk, vv in v.items() if kk != "description"} for k, v in schema["properties"].items()} \
            == contract[name]["properties"]
    assert result.is_error is not True
    text = result.content[0].text
    assert text.startswith("{\n  ")  # the contract's indent-2 JSON
    out = json.loads(text)
    frame = pd.read_csv(Path(out["csv_path"]))
    assert len(frame) == out["total_observations"] == 96
    assert list(frame.columns) == out["columns"]


async def test_stdio_errors_are_normal_results(server_env: dict[str, str]) -> None:
    params = StdioServerParameters(command=ASSETOPS[0], args=[*ASSETOPS[1:], "mcp", "serve", "iot"],
                                   env=server_env, cwd=str(REPO_ROOT))
    async with Client(params, read_timeout_seconds=60) as client:
        result = await client.call_tool("sensors", {"site_name": "MAIN", "asset_id": "Chiller 42"})
    assert result.is_error is not True
    assert "Chiller 6, Chiller 9" in json.loads(result.content[0].text)["error"]


SERVER_START_S = 60


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_server(server_env: dict[str, str]) -> Iterator[int]:
    """`assetops mcp serve all --http` on a free port, stopped after the test."""
    port = _free_port()
    process = subprocess.Popen([*ASSETOPS, "mcp", "serve", "all", "--http", "--port", str(port)],
                               env=server_env, cwd=str(REPO_ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"server exited: {process.stderr.read().decode() if process.stderr else ''}", pytrace=False)
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() >= deadline:
                pytest.fail(f"the MCP HTTP server did not accept connections on port {port} within {SERVER_START_S} s",
                            pytrace=False)
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def test_remote_switch_gives_the_same_results_as_in_process(small_fleet: SmallFleet, http_server: int) -> None:
    local = ToolContext.from_settings(small_fleet.settings)
    remote_settings = small_fleet.settings.model_copy(
        update={"remote_tool_servers": {"iot": f"http://127.0.0.1:{http_server}/iot/mcp",
                                        "utilities": f"http://127.0.0.1:{http_server}/mcp"}}
    )
    remote = ToolContext.from_settings(remote_settings)
    try:
        calls = [("iot.history", {**WINDOW, "final": "2020-06-01T02:00:00"}), ("iot.sensors", {"site_name": "MAIN", "asset_id": "Chiller 42"}),
                 ("utilities.csv_stats", {"csv_path": "/etc/passwd"})]
        for name, args in calls:
            clear_result_cache()
            here = await call_tool(name, args, context=local)
            there = await call_tool(name, args, context=remote)
            assert there.output == here.output, name
            assert there.status == here.status
    finally:
        await local.db.close()
        await remote.db.close()
