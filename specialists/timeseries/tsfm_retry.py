"""Corrected retries for the TSFM tools: fix what the error message points at, try once more.

Narrow, explainable corrections only: drop target columns the dataset lacks, fall back to the model
with the shorter context when the data has too few continuous samples, trim a horizon above the
model's, calibrate on more points (10 % false alarms) when the calibration set is too small, halve the
target list when the tool says there are too many. Anything else is reported, not retried.
"""

from __future__ import annotations

import re
from typing import Any

from specialists.base import ToolOutcome, ToolRunner

_QUOTED = re.compile(r"'([^']+)'")
_HORIZON = re.compile(r"smaller than (\d+)")
CONTEXT_MARKERS = ("context length", "continuous segment", "data quality was poor", "not enough data")


def needs_longer_window(error: str) -> bool:
    """True when the tool failed for lack of continuous history (more data would fix it)."""
    message = (error or "").lower()
    return any(marker in message for marker in CONTEXT_MARKERS)


def _checkpoint_unusable(message: str) -> bool:
    return "checkpoint" in message and any(
        w in message for w in ("no config.json", "could not load", "unknown")
    )


def corrected_tsfm_args(args: dict[str, Any], error: str) -> dict[str, Any] | None:
    """Arguments worth one more try after `error`, or None when retrying cannot help."""
    message = (error or "").lower()
    fixed = dict(args)
    targets = list(args.get("target_columns") or [])
    if "not in index" in message or ("missing" in message and "column" in message):
        absent = set(_QUOTED.findall(error or ""))
        kept = [t for t in targets if t not in absent]
        if kept and kept != targets:
            fixed["target_columns"] = kept
    elif "horizon" in message and _HORIZON.search(message):
        fixed["forecast_horizon"] = int(_HORIZON.search(message).group(1))  # type: ignore[union-attr]
    elif _checkpoint_unusable(message) and args.get("model_checkpoint") not in (None, "ttm_96_28"):
        fixed["model_checkpoint"] = "ttm_96_28"  # the default checkpoint every installation has
    elif needs_longer_window(message) and args.get("model_checkpoint") == "ttm_512_96":
        fixed["model_checkpoint"] = "ttm_96_28"
        if isinstance(args.get("forecast_horizon"), int) and args["forecast_horizon"] > 28:
            fixed["forecast_horizon"] = 28
    elif "n_calibration" in message or "false alarm" in message or "false_alarm" in message:
        # Too few calibration points: calibrate on half the points and accept 10 % false alarms
        # (needs 10 calibration points instead of 20).
        fixed["n_calibration"] = max(float(args.get("n_calibration") or 0.2), 0.5)
        fixed["false_alarm"] = max(float(args.get("false_alarm") or 0.05), 0.1)
    elif "n_test" in message and "raise" in message:
        # Too few test rows per data segment: give the test split a larger share.
        fixed["n_test"] = min(max(2 * float(args.get("n_test") or 0.05), 0.1), 0.3)
    elif ("too many" in message or "memory" in message) and len(targets) > 1:
        fixed["target_columns"] = targets[: max(len(targets) // 2, 1)]
    return fixed if fixed != args else None


async def run_tsfm(
    tools: ToolRunner, calls: list[tuple[str, dict[str, Any]]]
) -> tuple[list[ToolOutcome], list[ToolOutcome]]:
    """Run a batch in parallel; failed calls get one corrected retry, again as one parallel batch.

    Returns the final outcome per call (request order) and the failed first attempts (provenance).
    """
    outcomes = await tools.run(calls, specialist="timeseries")
    retry_at: list[int] = []
    retry_calls: list[tuple[str, dict[str, Any]]] = []
    for index, outcome in enumerate(outcomes):
        if outcome.ok or outcome.status == "timeout":
            continue
        fixed = corrected_tsfm_args(outcome.args, outcome.error or "")
        if fixed is not None:
            retry_at.append(index)
            retry_calls.append((outcome.name, fixed))
    if not retry_calls:
        return outcomes, []
    retried = await tools.run(retry_calls, specialist="timeseries")
    first_attempts = [outcomes[i] for i in retry_at]
    final = list(outcomes)
    for index, outcome in zip(retry_at, retried, strict=True):
        final[index] = outcome
    return final, first_attempts
