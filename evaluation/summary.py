"""Every figure of one architecture's suite run, and the ratios between two runs (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from functools import reduce
from typing import Any

from evaluation.dialog_checks import summarise
from evaluation.judge import JudgeScores, judge_summary
from evaluation.metrics.consistency import contradictions
from evaluation.metrics.diagnosis import DiagnosisCase, diagnosis_figures, ranking
from evaluation.metrics.memory import MemoryCounts, memory_counts
from evaluation.metrics.profile import profile_figures
from evaluation.metrics.rollout import corpus_harness, harness_metrics
from evaluation.records import DialogRecord
from evaluation.suite import Suite


def diagnosis_cases(suite: Suite, dialogs: Sequence[DialogRecord]) -> list[DiagnosisCase]:
    """The ranked failure modes of every scenario dialog's diagnosis turn, with what was injected."""
    cases = []
    for dialog in dialogs:
        expected = suite.diagnosis.get(dialog.dialog_id)
        if expected is None:
            continue
        turn = next((t for t in dialog.turns if t.index == expected.turn), None)
        cases.append(DiagnosisCase(dialog.dialog_id, expected.failure_mode,
                                   ranking(turn.answer if turn else "", suite.failure_modes), expected.also_active))
    return cases


def _memory(dialogs: Sequence[DialogRecord]) -> dict[str, Any]:
    counts = reduce(lambda a, b: a + b, (memory_counts(d.rollout) for d in dialogs), MemoryCounts())
    return {**asdict(counts), "artifact_reuse_rate": counts.reuse_rate}


def _consistency(suite: Suite, dialogs: Sequence[DialogRecord]) -> dict[str, Any]:
    found = {d.dialog_id: contradictions([t.answer for t in d.turns], suite.failure_modes) for d in dialogs}
    return {"contradictions": sum(len(c) for c in found.values()),
            "consistent_dialogs": sum(not c for c in found.values()), "dialogs": len(found),
            "details": [{"dialog": k, **asdict(c)} for k, cs in found.items() for c in cs]}


def summarise_run(suite: Suite, arch: str, dialogs: Sequence[DialogRecord], contract: dict[str, Any],
                  judged: Sequence[JudgeScores] | None = None) -> dict[str, Any]:
    """All figures of one architecture on one suite: harness, memory, checks, diagnosis, profile, judge."""
    harness = {d.dialog_id: harness_metrics(d.rollout, contract) for d in dialogs}
    checks = [c for d in dialogs for c in d.checks]
    bench = summarise(checks, harness) if checks else {}
    return {
        "arch": arch, "suite": suite.name, "dialogs": len(dialogs), "turns": sum(len(d.turns) for d in dialogs),
        "harness": corpus_harness(list(harness.values())),
        "harness_per_dialog": {k: {**corpus_harness([v]), "schema_errors": v["schema_errors"]}
                               for k, v in harness.items()},
        "memory": _memory(dialogs), "consistency": _consistency(suite, dialogs),
        "checks": {k: bench.get(k) for k in ("tc", "answer_rate", "unrequested_writes", "invented", "routing",
                                             "kind", "tool_budget", "first")}
        | {"mentions": _pairs(bench.get("mentions")), "numeric": _pairs(bench.get("numeric"))},
        "task_completion": bench.get("tc"),
        "diagnosis": diagnosis_figures(diagnosis_cases(suite, dialogs)),
        "profile": profile_figures(dialogs),
        "judge": judge_summary(judged),
        "judge_per_dialog": {d.dialog_id: asdict(s) for d, s in zip(dialogs, judged or [], strict=False)},
    }


def _pairs(pairs: Any) -> tuple[int, int] | None:
    if pairs is None:
        return None
    return sum(p[0] for p in pairs), sum(p[1] for p in pairs)


def _over(a: Any, b: Any) -> float | None:
    return a / b if isinstance(a, int | float) and isinstance(b, int | float) and b else None


def compare(runs: dict[str, dict[str, Any]], baseline: str = "plan-execute") -> dict[str, float | None]:
    """Supervisor over baseline: wall time, tool calls, tool-time share, task completion (and judge)."""
    sup, base = runs.get("supervisor"), runs.get(baseline)
    if sup is None or base is None:
        return {}
    return {"wall_time": _over(sup["profile"]["wall_s_total"], base["profile"]["wall_s_total"]),
            "tool_calls": _over(sup["profile"]["tool_calls_total"], base["profile"]["tool_calls_total"]),
            "tool_time_share": _over(sup["profile"]["tool_time_share"], base["profile"]["tool_time_share"]),
            "task_completion": _over(sup["task_completion"], base["task_completion"]),
            "follow_up_speedup": _over(sup["profile"]["follow_up_speedup"], base["profile"]["follow_up_speedup"]),
            "planning_effectiveness": _over(sup["judge"]["planning_effectiveness"],
                                            base["judge"]["planning_effectiveness"])}
