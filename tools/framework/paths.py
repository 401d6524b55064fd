"""Path confinement: file arguments may only point into the configured work directory."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tools.framework.context import tool_context
from tools.framework.errors import ToolError


def resolve_in_workdir(
    name: str,
    value: str | None,
    *,
    workdir: Path | None = None,
    extra_roots: Sequence[Path] = (),
    must_exist: bool = False,
) -> Path:
    """Resolve a file argument inside the work directory, or raise `ToolError` naming the argument.

    Relative paths are taken relative to the work directory. The path is resolved with symlinks
    followed, so `..` segments and links pointing outside are both caught. `extra_roots` lets a
    tool allow one more read-only place (e.g. the base model directory).
    """
    if value is None or not isinstance(value, str) or not value.strip():
        raise ToolError(f"Argument '{name}' must be a non-empty path inside the work directory.")
    root = (workdir or tool_context().workdir).resolve()
    raw = Path(value.strip()).expanduser()
    candidate = raw if raw.is_absolute() else root / raw
    try:
        resolved = candidate.resolve(strict=False)
    except (OSError, RuntimeError) as exc:  # RuntimeError: symlink loop
        raise ToolError(f"Argument '{name}': cannot resolve path '{value}': {exc}") from None
    roots = [root, *(r.resolve() for r in extra_roots)]
    if not any(resolved == r or resolved.is_relative_to(r) for r in roots):
        raise ToolError(
            f"Argument '{name}': path '{value}' is outside the work directory {root}; "
            "use a path inside it (relative paths are relative to it)."
        )
    if must_exist and not resolved.exists():
        raise ToolError(f"Argument '{name}': file '{value}' does not exist in the work directory {root}.")
    return resolved
