"""Argument validation against a tool's signature, with messages that name the argument."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from tools.framework.spec import ToolSpec


def _expected(spec: ToolSpec, arg: str) -> str:
    prop = spec.input_schema.get("properties", {}).get(arg, {})
    options = prop.get("anyOf", [prop])
    names = []
    for option in options:
        kind = option.get("type", "value")
        if kind == "array":
            kind = f"array of {option.get('items', {}).get('type', 'value')}"
        names.append(kind)
    return " or ".join(names)


def _describe(spec: ToolSpec, error: dict[str, Any]) -> str:
    loc = error.get("loc", ())
    arg = str(loc[0]) if loc else "?"
    where = "".join(f"[{p}]" for p in loc[1:])
    if error.get("type") == "missing":
        return f"Missing required argument '{arg}' ({_expected(spec, arg)})."
    got = error.get("input")
    return (
        f"Argument '{arg}{where}' has the wrong type: expected {_expected(spec, arg)}, "
        f"got {type(got).__name__} {got!r:.80} ({error.get('msg', 'invalid')})."
    )


def validate_args(spec: ToolSpec, args: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Check `args` for `spec`; return (values with defaults filled, None) or (None, error message)."""
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return None, f"Arguments of {spec.name} must be a JSON object, got {type(args).__name__}."
    allowed = list(spec.input_schema.get("properties", {}))
    unknown = [k for k in args if k not in allowed]
    if unknown:
        accepted = ", ".join(allowed) if allowed else "no arguments"
        return None, f"Unknown argument(s) {', '.join(repr(u) for u in unknown)} for {spec.name}; it accepts: {accepted}."
    try:
        model = spec.args_model.model_validate(args)
    except ValidationError as exc:
        messages = [_describe(spec, dict(e)) for e in exc.errors()]
        return None, f"Invalid arguments for {spec.name}: " + " ".join(messages)
    values = {name: getattr(model, name) for name in allowed}
    for name in spec.required_strings:
        if not str(values[name]).strip():
            return None, f"Argument '{name}' of {spec.name} must not be empty."
    return values, None
