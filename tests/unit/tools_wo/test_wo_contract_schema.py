"""The wo and fmsr tools accept exactly the arguments of contract/tools.json."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import require_shared
from tools.framework import contract_view
from tools.registry import get_tool

CONTRACT = require_shared("contract/tools.json")  # at module level: the entries parametrize the tests


def _contract_entries() -> list[tuple[str, dict[str, Any]]]:
    servers = json.loads(CONTRACT.read_text())["servers"]
    return [(f"{server}.{name}", schema) for server in ("wo", "fmsr") for name, schema in servers[server].items()]


@pytest.mark.parametrize(("full_name", "expected"), _contract_entries())
def test_input_schema_matches_the_contract(full_name: str, expected: dict[str, Any]) -> None:
    schema = contract_view(get_tool(full_name).input_schema)
    schema.pop("type", None)  # the contract entries leave the implied "object" out
    assert schema == expected


def test_every_wo_and_fmsr_contract_tool_is_registered() -> None:
    assert len(_contract_entries()) == 11
    for full_name, _ in _contract_entries():
        assert get_tool(full_name).description
