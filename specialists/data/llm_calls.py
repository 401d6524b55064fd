"""LLM mode for the data specialist: the chat model proposes the tool calls, the contract checks them.

The model sees the contract schemas of the tools it may use (bound as tools) and the task; each
call it returns is validated against the registered (contract-equal) schema and kept only when it
is valid and concerns the task's assets. Whatever is missing or invalid falls back to the
deterministic plan, so a weak model can make a turn slower, never wrong.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from assetops.llm import ainvoke_recorded, compact_json

log = logging.getLogger(__name__)

SYSTEM = """You are the data collection specialist for chillers at site MAIN. Call the tools that fetch the
telemetry for the task. iot.history_csv returns at most 5000 rows (about 52 days at 15 minutes): split longer
windows into consecutive windows. Dates are site-local ISO (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)."""


def tool_schemas(names: list[str]) -> list[dict[str, Any]]:
    """OpenAI-style function definitions of the tools, from the registry (contract schemas)."""
    from tools.registry import get_tool

    out = []
    for name in names:
        spec = get_tool(name)
        out.append(
            {
                "type": "function",
                "function": {
                    "name": spec.name,
                    "description": spec.description,
                    "parameters": spec.input_schema,
                },
            }
        )
    return out


def validated_calls(
    raw_calls: list[dict[str, Any]], allowed: list[str]
) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """The model's calls that name an allowed tool and pass the contract validation; plus the rejections."""
    from tools.framework.validation import validate_args
    from tools.registry import find_tool

    kept, rejected = [], []
    for call in raw_calls:
        spec = find_tool(str(call.get("name", "")))
        if spec is None or spec.full_name not in allowed:
            rejected.append(f"{call.get('name')}: not an allowed tool")
            continue
        args = call.get("args") or {}
        _, problem = validate_args(spec, args)
        if problem:
            rejected.append(problem)
            continue
        kept.append((spec.full_name, dict(args)))
    return kept, rejected


async def propose_history_calls(
    llm: Any, asset_ids: list[str], start: str, end: str, default: dict[str, list[tuple[str, dict[str, Any]]]]
) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Per asset, the model's valid history_csv calls, or the default plan for that asset."""
    allowed = ["iot.history_csv"]
    bound = llm.bind_tools(tool_schemas(allowed))
    task = {"asset_ids": asset_ids, "site": "MAIN", "start": start, "end": end}
    prompt = [SystemMessage(SYSTEM), HumanMessage("Task: " + compact_json(task))]
    try:
        message = await ainvoke_recorded(bound, prompt, llm=llm, purpose="data_tool_calls")
    except Exception as exc:  # the deterministic plan is always valid; the model is an optional planner
        log.warning("data specialist: model proposed no calls (%s); using the default plan", exc)
        return default
    kept, rejected = validated_calls(list(getattr(message, "tool_calls", None) or []), allowed)
    if rejected:
        log.info("data specialist: rejected model calls: %s", rejected)
    chosen: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for asset_id in asset_ids:
        mine = [c for c in kept if c[1].get("asset_id") == asset_id]
        chosen[asset_id] = mine or default[asset_id]
    return chosen
