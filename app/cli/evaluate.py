"""`assetops eval` (run a suite, write rollouts and the report) and `assetops generate-scenarios`."""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

import typer

SuiteArg = typer.Argument(..., help="Suite YAML path(s), or names under bench/ (heldout, compare, ...).")
ArchOpt = typer.Option(["supervisor"], "--arch", help="supervisor | plan-execute; repeat to compare both.")


def evaluate(suites: list[str] = SuiteArg, arch: list[str] = ArchOpt,
             llm: str | None = typer.Option(None, help="Chat model name (OpenAI-compatible, the LLM settings' "
                                                       "endpoint); default: offline."),
             url: str | None = typer.Option(None, help="Run against this running service (REST) instead of embedded."),
             key: str | None = typer.Option(None, help="API key for --url (default: the local key)."),
             out: Path = typer.Option(Path("var/eval/latest"), help="Folder for rollouts, report.md, report.json."),
             judge: str | None = typer.Option(None, help="Judge model name; without it the judge columns read "
                                                         "'not judged'.")) -> None:
    """Run SUITE through the real stack and write one rollout per dialog, report.md (charts) and report.json."""
    from assetops.settings import get_settings
    from evaluation.pipeline import EvalRequest
    from evaluation.pipeline import evaluate as run_evaluation

    request = EvalRequest(suites=suites, archs=arch, out=out, llm=llm, url=url, api_key=key, judge=judge,
                          command="assetops " + " ".join(shlex.quote(a) for a in sys.argv[1:]))
    try:
        report = asyncio.run(run_evaluation(get_settings(), request))
    except (FileNotFoundError, ValueError) as exc:
        raise SystemExit(f"error: {exc}") from exc
    typer.echo(report.read_text())
    typer.echo(f"report: {report}  (rollouts under {out / 'rollouts'})")


def generate_scenarios(out: Path = typer.Option(Path("var/eval/scenarios.yaml"), "-o", "--out"),
                       limit: int | None = typer.Option(None, help="At most this many episodes (fault types "
                                                                   "taken in turn)."),
                       controls: int = typer.Option(2, help="Fault-free control dialogs.")) -> None:
    """Write diagnosis dialogs from the loaded fleet's fault schedule (one per episode, plus controls)."""
    from assetops.settings import get_settings
    from evaluation.failure_modes import failure_mode_catalog
    from evaluation.scenarios import load_schedule, scenario_suite, to_yaml

    settings = get_settings()
    episodes, coverage = asyncio.run(load_schedule(settings))
    if not episodes:
        raise SystemExit("error: the loaded fleet has no fault episodes; run `assetops fleet generate` first")
    suite = scenario_suite(episodes, coverage, asyncio.run(failure_mode_catalog(settings)), limit=limit,
                           controls=controls)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(to_yaml(suite))
    typer.echo(f"{len(suite['dialogs'])} dialogs ({len(episodes)} episodes in the schedule) -> {out}")
