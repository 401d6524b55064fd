"""Corrected retries for the TSFM tools: fix what the error message points at, try once more.

Narrow, explainable corrections only: drop target columns the dataset lacks, fall back to the model
with the shorter context when the data has too few continuous samples, trim a horizon above the
model's, calibrate on more points (10 % false alarms) when the calibration set is too small, halve the
target list when the tool says there are too many. Anything else is reported, not retried.
"""

from __future__ import annotations

import re
from typing import Any

from specialists.base import ToolOutcome, ToolRunner, call_key

_QUOTED = re.compile(r"'([^']+)'")
_HORIZON = re.compile(r"smaller than (\d+)")
_FEWER_ROWS = re.compile(r"fewer than (\d+) rows")
CONTEXT_MARKERS = (
    "context length",
    "continuous segment",
    "data quality was poor",
    "not enough data",
    "use a longer window",
)


def needs_longer_window(error: str) -> bool:
    """True when the tool failed for lack of continuous history (more data would fix it)."""
    message = (error or "").lower()
    return any(marker in message for marker in CONTEXT_MARKERS)


# Anomaly detection that could not calibrate: too few (running) points for the calibration set, or a
# calibration set that leaves nothing to test. A longer window before the same end gives it more.
CALIBRATION_MARKERS = ("leaves none of", "calibration points but at least", "running calibration rows")


def more_data_would_help(error: str) -> bool:
    """True when a TSFM tool failed for want of data: a longer window is the correction."""
    message = (error or "").lower()
    return needs_longer_window(message) or any(marker in message for marker in CALIBRATION_MARKERS)


def _checkpoint_unusable(message: str) -> bool:
    return "checkpoint" in message and any(
        w in message for w in ("no config.json", "could not load", "unknown")
    )


def corrected_tsfm_args(args: dict[str, Any], error: str) -> dict[str, Any] | None:
    """Arguments worth one more try after `error`, or None when retrying cannot help."""
    message = (error or "").lower()
    fixed = dict(args)
    targets = list(args.get("target_columns") or [])
    if "calibration rows" in message and args.get("conditional_columns"):
        # The driver model had too few running rows in the calibration part (an idle start of the
        # window): calibrate on half the window, and if that was already tried, drop the drivers so
        # the targets fall back to the forecaster.
        if float(args.get("n_calibration") or 0.2) < 0.5:
            fixed["n_calibration"] = 0.5
        else:
            fixed.pop("conditional_columns")
    elif "conditional columns" in message and "removed" in message:
        # Drivers too gappy for the driver model: drop them (those targets fall back to the forecaster).
        absent = set(_QUOTED.findall(error or ""))
        fixed["conditional_columns"] = [
            c for c in args.get("conditional_columns") or [] if c not in absent
        ] or None
    elif "not in index" in message or ("missing" in message and "column" in message):
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
        # Too few test rows per data segment (many short segments, e.g. a chiller that cycles):
        # a share of each segment cannot help them all, a count of one horizon per segment does.
        rows = _FEWER_ROWS.search(message)
        fixed["n_test"] = (
            float(rows.group(1)) if rows else min(max(2 * float(args.get("n_test") or 0.05), 0.1), 0.3)
        )
    elif "n_test" in message and "lower" in message:
        # Too little left before the test period for training: test on a smaller share.
        current = float(args.get("n_test") or 0.05)
        fixed["n_test"] = (
            float(max(int(current // 2), 1)) if current > 1 else max(round(current / 2, 4), 0.02)
        )
    elif ("too many" in message or "memory" in message) and len(targets) > 1:
        fixed["target_columns"] = targets[: max(len(targets) // 2, 1)]
    return fixed if fixed != args else None


def earlier_failure(tools: ToolRunner, name: str, args: dict[str, Any]) -> ToolOutcome | None:
    """The failed outcome of this very call (same tool, same arguments) earlier in this turn, if any.

    The session memo only keeps successes; a failure run again with identical arguments fails again
    and costs time and execution success, so it is answered from the earlier failure instead.
    """
    key = call_key(name, args)
    for outcome in reversed(tools.calls):
        if not outcome.ok and call_key(outcome.name, outcome.args) == key:
            return outcome
    return None


async def _run_new_only(tools: ToolRunner, calls: list[tuple[str, dict[str, Any]]]) -> list[ToolOutcome]:
    """Run the calls, answering those that already failed this turn from that failure."""
    known = [earlier_failure(tools, name, args) for name, args in calls]
    fresh = [call for call, failure in zip(calls, known, strict=True) if failure is None]
    ran = iter(await tools.run(fresh, specialist="timeseries") if fresh else [])
    return [failure if failure is not None else next(ran) for failure in known]


async def run_tsfm(
    tools: ToolRunner, calls: list[tuple[str, dict[str, Any]]], *, retries: int = 1
) -> tuple[list[ToolOutcome], list[ToolOutcome]]:
    """Run a batch in parallel; failed calls get up to `retries` corrected retries, each round one
    parallel batch.

    A call that already failed this turn with identical arguments is not run again, and a
    correction that leads back to such a call is not tried. Returns the final outcome per call
    (request order) and the failed earlier attempts (provenance).
    """
    final = await _run_new_only(tools, calls)
    first_attempts: list[ToolOutcome] = []
    for _ in range(retries):
        retry_at: list[int] = []
        retry_calls: list[tuple[str, dict[str, Any]]] = []
        for index, outcome in enumerate(final):
            if outcome.ok or outcome.status == "timeout":
                continue
            fixed = corrected_tsfm_args(outcome.args, outcome.error or "")
            if fixed is not None and earlier_failure(tools, outcome.name, fixed) is None:
                retry_at.append(index)
                retry_calls.append((outcome.name, fixed))
        if not retry_calls:
            break
        retried = await tools.run(retry_calls, specialist="timeseries")
        first_attempts.extend(final[i] for i in retry_at)
        for index, outcome in zip(retry_at, retried, strict=True):
            final[index] = outcome
    return final, first_attempts
