"""The wo and fmsr tools accept exactly the arguments of contract/tools.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools.framework import contract_view
from tools.registry import get_tool

CONTRACT = Path(__file__).resolve().parents[3] / ".." / "shared" / "contract" / "tools.json"


def _contract_entries() -> list[tuple[str, dict[str, Any]]]:
    if not CONTRACT.exists():
        return []
    servers = json.loads(CONTRACT.read_text())["servers"]
    return [(f"{server}.{name}", schema) for server in ("wo", "fmsr") for name, schema in servers[server].items()]


@pytest.mark.skipif(not CONTRACT.exists(), reason="shared/contract/tools.json is not next to the repository")
@pytest.mark.parametrize(("full_name", "expected"), _contract_entries())
def test_input_schema_matches_the_contract(full_name: str, expected: dict[str, Any]) -> None:
    schema = contract_view(get_tool(full_name).input_schema)
    schema.pop("type", None)  # the contract entries leave the implied "object" out
    assert schema == expected


@pytest.mark.skipif(not CONTRACT.exists(), reason="shared/contract/tools.json is not next to the repository")
def test_every_wo_and_fmsr_contract_tool_is_registered() -> None:
    assert len(_contract_entries()) == 11
    for full_name, _ in _contract_entries():
        assert get_tool(full_name).description
