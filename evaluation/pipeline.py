"""One evaluation: run the suites for each architecture, judge (optionally), write rollouts and the report."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evaluation.metrics.rollout import load_contract
from evaluation.records import DialogRecord
from evaluation.run import RunOptions, run_suite
from evaluation.suite import Suite, load_suite
from evaluation.summary import compare, summarise_run


@dataclass(frozen=True)
class EvalRequest:
    """What `assetops eval` was asked for."""

    suites: list[str]
    archs: list[str]
    out: Path
    llm: str | None = None
    url: str | None = None
    api_key: str | None = None
    judge: str | None = None
    command: str = "assetops eval"


def merged_suite(names: list[str]) -> Suite:
    """Several suite files as one (dialog ids must stay unique)."""
    suites = [load_suite(n) for n in names]
    first = suites[0]
    merged = Suite(name="+".join(s.name for s in suites), path=first.path, dialogs=[], diagnosis={},
                   failure_modes=[])
    for suite in suites:
        clash = {d.id for d in suite.dialogs} & {d.id for d in merged.dialogs}
        if clash:
            raise ValueError(f"dialog ids {sorted(clash)} appear in more than one suite")
        merged.dialogs += suite.dialogs
        merged.diagnosis.update(suite.diagnosis)
        merged.failure_modes += [m for m in suite.failure_modes if m not in merged.failure_modes]
    return merged


def write_rollouts(out: Path, arch: str, dialogs: list[DialogRecord]) -> None:
    """One event-stream JSONL per dialog under out/rollouts/<arch>/ (the harness's <model>/<file> layout)."""
    from app.services.rollout import to_jsonl

    folder = out / "rollouts" / arch
    folder.mkdir(parents=True, exist_ok=True)
    for number, dialog in enumerate(dialogs, start=1):
        (folder / f"dialog{number:02d}_{dialog.dialog_id}.jsonl").write_text(to_jsonl(dialog.rollout))


async def _judge_all(model_name: str, settings: Any, dialogs: list[DialogRecord]) -> list[Any]:
    from evaluation.judge import build_judge, judge_dialog

    model = build_judge(model_name, settings)
    return [await judge_dialog(model, d.rollout) for d in dialogs]


async def evaluate(settings: Any, request: EvalRequest, *, judge_model: Any = None) -> Path:
    """Run everything the request names; returns the path of report.md. `judge_model` overrides --judge."""
    from evaluation.failure_modes import failure_mode_catalog
    from evaluation.report import write_report

    suite = merged_suite(request.suites)
    if not suite.failure_modes:
        suite = replace(suite, failure_modes=await failure_mode_catalog(settings))
    contract = load_contract()
    runs: dict[str, dict[str, Any]] = {}
    records: dict[str, list[DialogRecord]] = {}
    for arch in request.archs:
        options = RunOptions(arch=arch, llm=request.llm, url=request.url, api_key=request.api_key)
        dialogs = await run_suite(settings, suite, options)
        judged = None
        if judge_model is not None:
            from evaluation.judge import judge_dialog

            judged = [await judge_dialog(judge_model, d.rollout) for d in dialogs]
        elif request.judge:
            judged = await _judge_all(request.judge, settings, dialogs)
        write_rollouts(request.out, arch, dialogs)
        runs[arch], records[arch] = summarise_run(suite, arch, dialogs, contract, judged), dialogs
    return write_report(request.out, runs, compare(runs), records, request.command)
