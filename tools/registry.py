"""The registry of tools: filled by `@tool`, completed on demand from `tools.catalog`."""

from __future__ import annotations

import threading
from typing import Any

from tools.framework.spec import ToolSpec

_TOOLS: dict[str, ToolSpec] = {}
_lock = threading.Lock()


def register(spec: ToolSpec) -> None:
    """Add (or, on module reload, replace) a tool under `<server>.<tool>`."""
    with _lock:
        _TOOLS[spec.full_name] = spec


def unregister(full_name: str) -> None:
    """Remove a tool (tests that register throwaway tools clean up with this)."""
    with _lock:
        _TOOLS.pop(full_name, None)


def _load_all() -> None:
    from tools.catalog import load_all

    load_all()


def _load_server(server: str) -> None:
    from tools.catalog import load_server

    load_server(server)


def all_tools() -> list[ToolSpec]:
    """Every registered tool (all server modules loaded), ordered by server then name."""
    _load_all()
    return sorted(_TOOLS.values(), key=lambda s: (s.server, s.name))


def servers() -> list[str]:
    """The names of the servers that have at least one tool."""
    return sorted({s.server for s in all_tools()})


def tools_of(server: str) -> list[ToolSpec]:
    """The tools of one server (loads only that server's module)."""
    _load_server(server)
    return sorted((s for s in _TOOLS.values() if s.server == server), key=lambda s: s.name)


def find_tool(name: str) -> ToolSpec | None:
    """Look a tool up by `<server>.<tool>` or, when unambiguous, by the bare tool name."""
    server, dot, _ = name.partition(".")
    if dot:
        _load_server(server)
        if name in _TOOLS:
            return _TOOLS[name]
    _load_all()
    if name in _TOOLS:
        return _TOOLS[name]
    matches = [s for s in _TOOLS.values() if s.name == name]
    return matches[0] if len(matches) == 1 else None


def get_tool(name: str) -> ToolSpec:
    """Like `find_tool`, but raise `KeyError` listing the known tools when absent."""
    spec = find_tool(name)
    if spec is None:
        raise KeyError(f"Unknown tool '{name}'. Known tools: {', '.join(sorted(_TOOLS))}")
    return spec


def schemas() -> dict[str, dict[str, dict[str, Any]]]:
    """Input schemas shaped like contract/tools.json: `{server: {tool: schema}}`."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for spec in all_tools():
        out.setdefault(spec.server, {})[spec.name] = spec.input_schema
    return out
