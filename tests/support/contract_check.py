"""Validate tool calls the way the evaluation harness does (docs/ROLLOUT_FORMAT.md §2.1-2.2)."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import require_shared

_TYPES = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,), "array": (list,),
          "object": (dict,), "null": (type(None),)}


def load_contract() -> dict[str, dict[str, Any]]:
    """`server.tool` -> {required, properties}."""
    servers = json.loads(require_shared("contract/tools.json").read_text())["servers"]
    return {f"{server}.{tool}": spec for server, tools in servers.items() for tool, spec in tools.items()}


def _types_of(prop: dict[str, Any]) -> list[dict[str, Any]]:
    return list(prop.get("anyOf", [prop]))


def _item_ok(value: Any, item: str) -> bool:
    if isinstance(value, bool) and item != "boolean":
        return False  # JSON booleans are not numbers here, as in the harness
    return isinstance(value, _TYPES[item])


def _value_ok(value: Any, prop: dict[str, Any]) -> bool:
    for option in _types_of(prop):
        kind = option.get("type")
        if kind is None:
            return True
        if isinstance(value, bool) and kind in ("integer", "number"):
            continue
        if kind == "integer" and isinstance(value, float):
            continue
        if isinstance(value, _TYPES[kind]):
            item = option.get("items", {}).get("type")
            if kind == "array" and item and not all(_item_ok(v, item) for v in value):
                continue
            return True
    return False


def call_problem(contract: dict[str, dict[str, Any]], name: str, args: Any) -> str | None:
    """Why a call fails tool-name validity or schema compliance; None when it passes both."""
    spec = contract.get(name)
    if spec is None:
        return f"unknown tool {name}"
    if not isinstance(args, dict):
        return "args are not an object"
    unknown = set(args) - set(spec["properties"])
    if unknown:
        return f"unknown argument(s) {sorted(unknown)}"
    for key in spec["required"]:
        if key not in args:
            return f"missing required {key}"
        if args[key] == "" and any(o.get("type") == "string" for o in _types_of(spec["properties"][key])):
            return f"empty required string {key}"
    for key, value in args.items():
        if not _value_ok(value, spec["properties"][key]):
            return f"type mismatch for {key}: {value!r}"
    return None
