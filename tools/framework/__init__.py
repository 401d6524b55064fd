"""The tool framework: `@tool` registration, one validated/cached/profiled call path, batches.

Everything tool modules and callers need is importable from here.
"""

from tools.framework.cache import LRUResultCache, ResultCache, clear_result_cache, set_result_cache
from tools.framework.calls import call_tool, note_rows, run_many
from tools.framework.context import (
    ToolContext,
    set_default_context,
    tool_context,
    use_tool_context,
)
from tools.framework.cpu import run_cpu
from tools.framework.errors import ToolError
from tools.framework.result import ToolCall, ToolResult, to_json_text
from tools.framework.spec import ToolSpec, contract_view, tool

__all__ = [
    "LRUResultCache",
    "ResultCache",
    "ToolCall",
    "ToolContext",
    "ToolError",
    "ToolResult",
    "ToolSpec",
    "call_tool",
    "clear_result_cache",
    "contract_view",
    "note_rows",
    "run_cpu",
    "run_many",
    "set_default_context",
    "set_result_cache",
    "to_json_text",
    "tool",
    "tool_context",
    "use_tool_context",
]
