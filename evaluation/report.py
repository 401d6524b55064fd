"""report.json (every figure) and report.md (headline table, ratios, charts, per-dialog lines)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evaluation.charts import write_charts

HEADLINE: list[tuple[str, tuple[str, ...], str]] = [  # label, path into a run's figures, format
    ("task completion (0-1)", ("task_completion",), "{:.3f}"),
    ("planning effectiveness (judge)", ("judge", "planning_effectiveness"), "{:.3f}"),
    ("tool-usage quality (judge)", ("judge", "tool_usage_quality"), "{:.3f}"),
    ("task completion (judge)", ("judge", "task_completion"), "{:.3f}"),
    ("tool-name validity", ("harness", "TNV"), "{:.3f}"),
    ("schema compliance", ("harness", "SC"), "{:.3f}"),
    ("execution success", ("harness", "ESR"), "{:.3f}"),
    ("recovery success", ("harness", "RSR"), "{:.3f}"),
    ("wall time, whole suite (s)", ("profile", "wall_s_total"), "{:.1f}"),
    ("first turn (ms, mean)", ("profile", "first_turn_ms"), "{:.0f}"),
    ("turns 2-5 (ms, mean)", ("profile", "follow_up_ms"), "{:.0f}"),
    ("follow-ups faster than turn 1 (x)", ("profile", "follow_up_speedup"), "{:.1f}"),
    ("tool time share of wall time", ("profile", "tool_time_share"), "{:.0%}"),
    ("executed tool calls", ("profile", "tool_calls_total"), "{}"),
    ("tool calls per dialog", ("profile", "per_dialog", "tool_calls"), "{:.1f}"),
    ("LLM calls per dialog", ("profile", "per_dialog", "llm_calls"), "{:.1f}"),
    ("tokens per dialog (prompt)", ("profile", "per_dialog", "prompt_tokens"), "{:.0f}"),
    ("artifact reuse rate (follow-ups)", ("memory", "artifact_reuse_rate"), "{:.0%}"),
    ("redundant tool calls", ("memory", "redundant_calls"), "{}"),
    ("evidence fetches avoided by reuse", ("memory", "fetches_avoided"), "{:.0f}"),
    ("cross-turn contradictions", ("consistency", "contradictions"), "{}"),
    ("diagnosis top-1", ("diagnosis", "top1"), "{:.3f}"),
    ("diagnosis top-2", ("diagnosis", "top2"), "{:.3f}"),
    ("diagnosis top-1, own episode only", ("diagnosis", "top1_strict"), "{:.3f}"),
    ("control dialogs naming a fault", ("diagnosis", "control_false_alarm"), "{:.3f}"),
]
RATIOS = [("wall_time", "wall time"), ("tool_calls", "tool calls"), ("tool_time_share", "tool-time share"),
          ("task_completion", "task completion"), ("follow_up_speedup", "follow-up speed-up"),
          ("planning_effectiveness", "planning effectiveness (judge)")]


def _get(run: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = run
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def cell(value: Any, fmt: str) -> str:
    """A table cell: n/a for a missing figure, the judge's "not judged" as is."""
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    return fmt.format(value)


def headline_table(runs: dict[str, dict[str, Any]]) -> str:
    """The headline figures, one column per architecture."""
    archs = list(runs)
    lines = ["| figure | " + " | ".join(archs) + " |", "|---|" + "---|" * len(archs)]
    lines += [f"| {label} | " + " | ".join(cell(_get(runs[a], path), fmt) for a in archs) + " |"
              for label, path, fmt in HEADLINE]
    return "\n".join(lines)


def _dialog_lines(run: dict[str, Any], dialogs: list[Any]) -> list[str]:
    lines = [f"\n### {run['arch']}: per dialog\n", "| dialog | TC | turns | wall s | tool calls | TNV | SC | ESR | RSR |",
             "|---|---|---|---|---|---|---|---|---|"]
    for dialog in dialogs:
        harness = run["harness_per_dialog"].get(dialog.dialog_id, {})
        tc = [c.tc / 2 for c in dialog.checks]
        lines.append(f"| {dialog.dialog_id} | {sum(tc) / len(tc) if tc else 0:.2f} | {len(dialog.turns)} | "
                     f"{sum(t.wall_ms for t in dialog.turns) / 1000:.1f} | {sum(len(t.executed) for t in dialog.turns)} | "
                     + " | ".join(cell(harness.get(k), "{:.3f}") for k in ("TNV", "SC", "ESR", "RSR")) + " |")
    return lines


def markdown(runs: dict[str, dict[str, Any]], ratios: dict[str, float | None], records: dict[str, list[Any]],
             charts: list[Path], command: str) -> str:
    """The whole report as Markdown."""
    suite = next(iter(runs.values()))["suite"] if runs else "?"
    parts = [f"# AssetOps evaluation: suite `{suite}`\n", f"Command: `{command}`\n",
             f"Dialogs {next(iter(runs.values()))['dialogs']}, turns {next(iter(runs.values()))['turns']} per "
             "architecture. Definitions: evaluation/metrics/*.py (harness metrics as ROLLOUT_FORMAT.md §2).\n",
             headline_table(runs)]
    if ratios:
        parts += ["\n## Supervisor against the plan-execute baseline (same run, same dialogs)\n",
                  "| ratio (supervisor / plan-execute) | value |", "|---|---|"]
        parts += [f"| {label} | {cell(ratios.get(key), '{:.2f}x')} |" for key, label in RATIOS]
    parts += ["\n## Charts\n"] + [f"![{p.stem}]({p.name})" for p in charts]
    for arch, run in runs.items():
        parts += _dialog_lines(run, records.get(arch, []))
        if run["consistency"]["details"]:
            parts.append("\nContradictions: " + "; ".join(
                f"{d['dialog']} t{d['earlier_turn']}->t{d['later_turn']} {d['kind']} {d['key']}: "
                f"{d['earlier']} -> {d['later']}" for d in run["consistency"]["details"]))
    return "\n".join(parts) + "\n"


def write_report(out: Path, runs: dict[str, dict[str, Any]], ratios: dict[str, float | None],
                 records: dict[str, list[Any]], command: str) -> Path:
    """Write report.json, report.md and the charts into `out`; returns the Markdown path."""
    out.mkdir(parents=True, exist_ok=True)
    charts = write_charts(runs, out)
    (out / "report.json").write_text(json.dumps({"command": command, "runs": runs, "ratios": ratios}, indent=2,
                                                default=str))
    path = out / "report.md"
    path.write_text(markdown(runs, ratios, records, charts, command))
    return path
