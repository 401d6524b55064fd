"""A tool may hand over its output together with the JSON text; the call path then uses both as given."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from pydantic import Field

from tools import registry
from tools.framework import ToolContext, call_tool
from tools.framework.calls import EncodedOutput, decode_json
from tools.framework.spec import build_spec

SERVER = "testkit_encoded"
runs: list[str] = []


async def pre_encoded(
    label: Annotated[str, Field(description="A label. Example: x")],
) -> dict[str, Any] | EncodedOutput:
    """Return a result with its own JSON text (the text says `from_text`, so its use is visible)."""
    runs.append(label)
    value = {"label": label, "values": [1.5, None, 2]}
    return EncodedOutput(value, json.dumps({**value, "from_text": True}))


@pytest.fixture(autouse=True)
def encoded_tool() -> Iterator[None]:
    spec = build_spec(pre_encoded, SERVER)
    registry.register(spec)
    runs.clear()
    yield
    registry.unregister(spec.full_name)


async def test_encoded_output_is_returned_without_a_second_round_trip(ctx: ToolContext) -> None:
    result = await call_tool(f"{SERVER}.pre_encoded", {"label": "a"}, context=ctx)
    assert result.status == "ok" and result.cached is False
    assert result.output == {"label": "a", "values": [1.5, None, 2]}


async def test_the_cache_stores_the_given_text(ctx: ToolContext) -> None:
    await call_tool(f"{SERVER}.pre_encoded", {"label": "b"}, context=ctx)
    hit = await call_tool(f"{SERVER}.pre_encoded", {"label": "b"}, context=ctx)
    assert hit.cached is True and runs == ["b"]
    assert hit.output == {"label": "b", "values": [1.5, None, 2], "from_text": True}


@pytest.mark.parametrize(
    "text",
    ['{"a": [1.5, null, "x"], "b": 0.1}', '{"v": Infinity, "w": -Infinity}', '[NaN]', '{"big": 123456789012345678901234567890}'],
)
def test_cached_texts_decode_exactly_as_json_loads_does(text: str) -> None:
    decoded, expected = decode_json(text), json.loads(text)
    assert json.dumps(decoded) == json.dumps(expected)
