"""The chat model: build the configured one (an OpenAI-compatible endpoint), record every call of it,
and put values into prompts compactly. Used by the graph (decision, synthesis) and the specialists."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.messages import AIMessage
from pydantic import SecretStr

from assetops.profiling import record_llm_call
from assetops.settings import Settings


def build_chat_model(settings: Settings) -> Any:
    """A langchain-openai `ChatOpenAI` when `llm_model` is set, else None (offline mode)."""
    if not settings.llm_model:
        return None
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(model=settings.llm_model, base_url=settings.llm_base_url or None,
                      api_key=SecretStr(settings.llm_api_key or "not-needed"), temperature=0.0, max_retries=1, stream_usage=True,
                      timeout=120)


async def ainvoke_recorded(runnable: Any, prompt: Any, *, llm: Any, purpose: str) -> Any:
    """Invoke `runnable` (the model or a structured/tool-bound view of it) and record the call.

    Model, prompt and completion tokens and latency go into the current `assetops.profiling`
    profile. Structured-output runnables should be built with `include_raw=True` so the raw
    message (and its token usage) is visible here.
    """
    started = time.perf_counter()
    try:
        result = await runnable.ainvoke(prompt)
    except Exception:
        _record(llm, started, None, f"{purpose} (failed)")
        raise
    _record(llm, started, result.get("raw") if isinstance(result, dict) else result, purpose)
    return result


async def astream_recorded(llm: Any, prompt: Any, *, purpose: str,
                           on_text: Callable[[str], Awaitable[None]]) -> str:
    """Stream the model's reply, handing each text piece to `on_text`; record the call; return the text."""
    started = time.perf_counter()
    merged: Any = None
    try:
        async for chunk in llm.astream(prompt):
            merged = chunk if merged is None else merged + chunk
            if isinstance(chunk.content, str) and chunk.content:
                await on_text(chunk.content)
    except Exception:
        _record(llm, started, None, f"{purpose} (failed)")
        raise
    _record(llm, started, merged, purpose)
    content = getattr(merged, "content", "")
    return content if isinstance(content, str) else str(content)


def _record(llm: Any, started: float, raw: Any, purpose: str) -> None:
    record_llm_call(llm, started, raw if isinstance(raw, AIMessage) else None, purpose)


def compact_json(value: Any, limit: int = 6000) -> str:
    """Compact JSON for a prompt, cut at `limit` characters."""
    text = json.dumps(value, default=str, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "…"
