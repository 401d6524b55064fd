"""`@tool`: turn a typed function into a registered tool with a contract-shaped input schema."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model

# Keys that only document a schema; the contract fixes names, types, required and defaults.
DOC_KEYS = frozenset({"title", "description", "examples"})


@dataclass(frozen=True)
class ToolSpec:
    """A registered tool: its function, argument model, schema and execution options."""

    server: str
    name: str
    fn: Callable[..., Any]
    description: str
    args_model: type[BaseModel]
    input_schema: dict[str, Any]
    required_strings: tuple[str, ...]
    cpu_bound: bool = False
    timeout_s: float | None = None
    returns_json_string: bool = False
    cacheable: bool = True
    # Arguments naming input files in the work directory: identical in-flight calls on the same
    # files share one execution (tools.framework.file_keys), even when the tool is not cacheable.
    input_files: tuple[str, ...] = ()

    @property
    def full_name(self) -> str:
        """`<server>.<tool>`, the registry key."""
        return f"{self.server}.{self.name}"

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.fn)


def _is_plain_str(annotation: Any) -> bool:
    # Annotated[str, Field(...)] -> str
    if get_origin(annotation) is not None and hasattr(annotation, "__metadata__"):
        annotation = get_args(annotation)[0]
    return annotation is str


def _annotations(fn: Callable[..., Any]) -> dict[str, Any]:
    # Resolves string annotations (`from __future__ import annotations`) and keeps Annotated metadata.
    return get_type_hints(fn, include_extras=True)


def _args_model(fn: Callable[..., Any], tool_name: str) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    hints = _annotations(fn)
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"tool {tool_name}: *args/**kwargs are not allowed in a tool signature")
        if param.name not in hints:
            raise TypeError(f"tool {tool_name}: parameter '{param.name}' needs a type annotation")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (hints[param.name], default)
    # Unknown arguments are rejected by the call path with a clearer message than pydantic's, and
    # `extra="forbid"` would add `additionalProperties` to the schema, which the contract lacks.
    return create_model(f"{tool_name}Arguments", __config__=ConfigDict(extra="ignore"), **fields)


def _strip_property_titles(schema: dict[str, Any]) -> dict[str, Any]:
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    schema.setdefault("properties", {})
    schema.setdefault("required", [])
    return schema


def build_spec(
    fn: Callable[..., Any],
    server: str,
    *,
    name: str | None = None,
    cpu_bound: bool = False,
    timeout_s: float | None = None,
    returns_json_string: bool = False,
    cacheable: bool = True,
    input_files: tuple[str, ...] = (),
) -> ToolSpec:
    """Describe `fn` as a tool of `server` (the function name is the tool name unless `name` is given)."""
    tool_name = name or fn.__name__
    model = _args_model(fn, tool_name)
    schema = _strip_property_titles(model.model_json_schema())
    hints = _annotations(fn)
    required_strings = tuple(
        p.name
        for p in inspect.signature(fn).parameters.values()
        if p.default is inspect.Parameter.empty and _is_plain_str(hints[p.name])
    )
    return ToolSpec(
        server=server,
        name=tool_name,
        fn=fn,
        description=inspect.getdoc(fn) or tool_name,
        args_model=model,
        input_schema=schema,
        required_strings=required_strings,
        cpu_bound=cpu_bound,
        timeout_s=timeout_s,
        returns_json_string=returns_json_string,
        cacheable=cacheable,
        input_files=input_files,
    )


def tool(
    server: str,
    *,
    name: str | None = None,
    cpu_bound: bool = False,
    timeout_s: float | None = None,
    returns_json_string: bool = False,
    cacheable: bool = True,
    input_files: tuple[str, ...] = (),
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as tool `<server>.<function name>`; the function is returned as is.

    `cpu_bound`: a sync function runs in the CPU pool (an async one should call `run_cpu` itself);
    `timeout_s` overrides `settings.tool_timeout_s`; `returns_json_string` marks the tools whose
    MCP text is compact JSON (json_reader, csv_stats); `cacheable=False` opts out of the shared
    result cache (clock readers, tools with side effects that must happen every time);
    `input_files` names the arguments that are input files, so identical calls in flight at once
    on unchanged files share one execution.
    """

    def register_tool(fn: Callable[..., Any]) -> Callable[..., Any]:
        from tools.registry import register

        register(
            build_spec(
                fn,
                server,
                name=name,
                cpu_bound=cpu_bound,
                timeout_s=timeout_s,
                returns_json_string=returns_json_string,
                cacheable=cacheable,
                input_files=input_files,
            )
        )
        return fn

    return register_tool


def contract_view(schema: Any) -> Any:
    """The schema without documentation keys (title/description/examples), for contract comparison."""
    if isinstance(schema, dict):
        return {k: contract_view(v) for k, v in schema.items() if k not in DOC_KEYS}
    if isinstance(schema, list):
        return [contract_view(v) for v in schema]
    return schema
