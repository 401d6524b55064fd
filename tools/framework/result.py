"""The values that cross the call path: `ToolCall` in, `ToolResult` out."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

Status = Literal["ok", "error", "timeout"]


@dataclass(slots=True)
class ToolCall:
    """A request to run one tool: `name` is `<server>.<tool>` (or an unambiguous bare tool name)."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ToolResult:
    """The outcome of one call. `output` is the contract JSON (parsed); errors are `{"error": ...}`."""

    name: str
    server: str
    tool: str
    args: dict[str, Any]
    status: Status
    output: Any
    error: str | None
    latency_ms: float
    started_at: float  # time.perf_counter()
    finished_at: float  # time.perf_counter()
    started_iso: str  # wall clock, UTC
    rows: int | None = None
    cached: bool = False
    specialist: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def text(self, compact: bool = False) -> str:
        """The output as MCP text: indented JSON, or compact for the string-returning tools."""
        return to_json_text(self.output, compact=compact)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (rollouts, REST replies)."""
        return asdict(self)


def json_default(value: Any) -> Any:
    """Serialise the non-JSON values tools commonly return (models, datetimes, paths, numpy)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "item"):  # numpy scalar
        return value.item()
    if hasattr(value, "tolist"):  # numpy array
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def to_json_text(output: Any, compact: bool = False) -> str:
    """Contract serialisation: indent 2, or Python's default compact separators (", ", ": ")."""
    if compact:
        return json.dumps(output, default=json_default)
    return json.dumps(output, indent=2, default=json_default)


def error_output(message: str) -> dict[str, str]:
    """The contract's error shape."""
    return {"error": message}
