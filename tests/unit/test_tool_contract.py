"""The contract: every registered tool's schema (in process and as listed over MCP) equals tools.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client

from assetops.settings import Settings
from tests.conftest import require_shared
from tools import catalog
from tools.framework import contract_view
from tools.mcp_server import build_server
from tools.registry import all_tools

CONTRACT_PATH = require_shared("contract/tools.json")  # every test here compares with it
CONTRACT_SERVERS = ("iot", "utilities", "fmsr", "tsfm", "wo")


def contract() -> dict[str, dict[str, dict[str, Any]]]:
    return json.loads(CONTRACT_PATH.read_text())["servers"]


def comparable(schema: dict[str, Any]) -> dict[str, Any]:
    """The parts the contract fixes: argument names and types, required, defaults."""
    view = contract_view(schema)
    return {"required": view.get("required", []), "properties": view.get("properties", {})}


def registered() -> dict[str, Any]:
    return {s.full_name: s for s in all_tools() if s.server in CONTRACT_SERVERS}


def test_every_registered_tool_matches_its_contract_entry() -> None:
    entries = contract()
    specs = registered()
    assert specs, "no contract tools are registered"
    for full_name, spec in specs.items():
        assert spec.name in entries.get(spec.server, {}), f"{full_name} is not in the contract"
        assert comparable(spec.input_schema) == entries[spec.server][spec.name], full_name
        assert spec.input_schema["type"] == "object"
        assert spec.input_schema["title"] == f"{spec.name}Arguments"


def test_every_contract_tool_is_registered() -> None:
    entries = contract()
    catalog.load_all()
    names = set(registered())
    for server in CONTRACT_SERVERS:
        missing = {f"{server}.{tool}" for tool in entries[server]} - names
        assert not missing, f"server {server} lacks {sorted(missing)}"
    assert len([n for n in names if not n.startswith("tsfm.")]) == 20


def test_every_server_loads_and_an_unknown_name_does_not() -> None:
    assert all(catalog.load_server(server) for server in CONTRACT_SERVERS)
    assert not catalog.load_server("nonexistent")


async def test_mcp_listed_schemas_equal_the_contract(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", work_dir=tmp_path / "work", models_dir=tmp_path / "models")
    server = build_server("all", settings)
    async with Client(server) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    entries = {tool: schema for tools in contract().values() for tool, schema in tools.items()}
    expected = {s.name for s in registered().values()}
    assert set(listed) == expected
    for name, listed_tool in listed.items():
        assert comparable(listed_tool.input_schema) == entries[name], name
        assert listed_tool.description
