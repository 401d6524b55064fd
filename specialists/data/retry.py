"""Corrected retries: when a data tool fails, fix what the error message points at and try once more.

The corrections are deliberately narrow and explainable: a wrong site becomes MAIN, an asset given
as an equipment id or in the wrong case becomes the canonical chiller name, a date the tool could
not parse is rewritten in the plain form the contract documents. A transient failure (timeout) is
retried as is; a genuinely empty window is not retried at all.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from assetops.domain.catalog import FleetCatalog
from specialists.base import ToolOutcome, ToolRunner

_NOT_RETRIED = ("no observations", "no telemetry", "not found", "no work orders")
_TRANSIENT = ("timed out", "timeout", "locked", "temporar", "connection", "unavailable")


def canonical_asset(value: str, catalog: FleetCatalog) -> str | None:
    """`chiller 9`, `Chiller9`, `CWC04009` -> `Chiller 9` (None when the fleet has no such asset)."""
    text = value.strip()
    known = catalog.asset_id_of(text)
    if known:
        return known
    match = re.fullmatch(r"(?i)chiller\s*(\d+)", text)
    return catalog.asset_id_of(f"Chiller {int(match.group(1))}") if match else None


def _plain_date(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        match = re.search(r"\d{4}-\d{2}-\d{2}", value)
        return match.group(0) if match else value
    local = moment.replace(tzinfo=None)
    return local.date().isoformat() if local.time() == datetime.min.time() else local.isoformat(timespec="seconds")


def corrected_args(args: dict[str, Any], error: str, status: str, catalog: FleetCatalog) -> dict[str, Any] | None:
    """Arguments worth one more try after `error`, or None when retrying cannot help."""
    message = (error or "").lower()
    if status == "timeout":
        return dict(args)
    if any(marker in message for marker in _NOT_RETRIED):
        return None
    fixed = {k: (v.strip() if isinstance(v, str) else v) for k, v in args.items()}
    if "site" in message and "site_name" in fixed:
        fixed["site_name"] = catalog.site
    if "asset" in message and isinstance(fixed.get("asset_id"), str):
        fixed["asset_id"] = canonical_asset(fixed["asset_id"], catalog) or fixed["asset_id"]
    if any(word in message for word in ("date", "start", "final", "format", "iso")):
        for key in ("start", "final", "start_date", "end_date"):
            if key in fixed:
                fixed[key] = _plain_date(fixed[key])
    if fixed == args:  # nothing to correct: only a transient failure is worth repeating
        return dict(args) if any(word in message for word in _TRANSIENT) else None
    return fixed


async def run_with_retry(tools: ToolRunner, calls: list[tuple[str, dict[str, Any]]], *,
                         specialist: str, catalog: FleetCatalog) -> tuple[list[ToolOutcome], list[ToolOutcome]]:
    """Run a batch; failed calls get one corrected retry (as a second parallel batch).

    Returns the final outcome per call (in request order) and the failed first attempts that were
    retried (kept for the artifact's provenance).
    """
    outcomes = await tools.run(calls, specialist=specialist)
    retry_at: list[int] = []
    retry_calls: list[tuple[str, dict[str, Any]]] = []
    for index, outcome in enumerate(outcomes):
        if outcome.ok:
            continue
        fixed = corrected_args(outcome.args, outcome.error or "", outcome.status, catalog)
        if fixed is not None:
            retry_at.append(index)
            retry_calls.append((outcome.name, fixed))
    retried = [outcomes[i] for i in retry_at]
    if retry_calls:
        for index, outcome in zip(retry_at, await tools.run(retry_calls, specialist=specialist), strict=True):
            outcomes[index] = outcome
    return outcomes, retried
