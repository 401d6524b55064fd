"""Held-out dialog bench: conversations the assistant was not built on, scored turn by turn.

Runs every dialog of bench/heldout_dialogs.yaml through the real turn runner (offline, the
configured database with the loaded fleet), then prints per dialog and overall: routing accuracy,
mention accuracy, numeric accuracy against values computed here straight from the fleet tables,
clarification/refusal correctness, first vs follow-up latency, tool calls per turn, reuse, and the
harness metrics (TNV, SC, ESR, RSR) computed from the exported rollout as docs/ROLLOUT_FORMAT.md §2
defines them. Prints figures only (no assertions); sessions are removed afterwards.

    python -m bench heldout
    python bench/heldout_bench.py --dialogs H01 H10 --show-answers
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


# The harness metrics (ROLLOUT_FORMAT.md §2) live in the evaluation package; re-exported for the bench's users.
from evaluation.dialog_checks import (
    DIALOGS_FILE,
    DialogSpec,
    TurnResult,
    checked_counts,
    known_fleet,
    load_dialogs,
    score_turn,
    summarise,
)
from evaluation.metrics.rollout import corpus_harness, harness_metrics


async def run_dialog(deps: Any, spec: DialogSpec, session_id: str) -> tuple[list[TurnResult], list[dict[str, Any]]]:
    """Run one dialog in a fresh session: per-turn results and the session's rollout lines."""
    from app.services.rollout import rollout_lines
    from graph.runner import run_turn

    results, all_events = [], []
    fleet = await known_fleet(deps.db)
    asked = ""
    for index, turn in enumerate(spec.turns, start=1):
        events = [e async for e in run_turn(deps, session_id, turn.message, reference_date=spec.reference_date)]
        all_events += events
        asked += "\n" + turn.text
        results.append(await score_turn(deps.db, spec.id, index, turn, events, fleet, asked))
    return results, rollout_lines(session_id, all_events, reference_date=spec.reference_date)


async def run_bench(settings: Any, dialogs: list[DialogSpec], rollout_dir: Path | None) -> tuple[
        list[TurnResult], dict[str, dict[str, Any]]]:
    """Run the dialogs offline on the configured database; per-turn results and per-dialog harness counts."""
    from sqlalchemy import delete

    from assetops.db.tables import SessionRow
    from evaluation.metrics.rollout import load_contract
    from graph.deps import open_deps

    contract = load_contract()
    run_id = uuid.uuid4().hex[:6]
    results: list[TurnResult] = []
    harness: dict[str, dict[str, Any]] = {}
    async with open_deps(settings, llm=False) as deps:
        sessions = []
        for spec in dialogs:
            session_id = f"heldout-{run_id}-{spec.id}"
            sessions.append(session_id)
            turns, lines = await run_dialog(deps, spec, session_id)
            results += turns
            harness[spec.id] = harness_metrics(lines, contract)
            if rollout_dir is not None:
                from app.services.rollout import to_jsonl

                rollout_dir.mkdir(parents=True, exist_ok=True)
                (rollout_dir / f"dialog{spec.id[1:]}.jsonl").write_text(to_jsonl(lines))
        for session_id in sessions:
            await deps.store.delete_session(session_id)
        async with deps.db.session() as session:
            await session.execute(delete(SessionRow).where(SessionRow.id.in_(sessions)))
    return results, harness


# ---------------------------------------------------------------- report

def _rate(pairs: list[tuple[int, int]]) -> str:
    hit, total = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    return f"{hit}/{total} ({hit / total:.0%})" if total else "n/a"


def _count(*pairs: tuple[int, int]) -> str:
    hit, total = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    return f"{hit}/{total}" if total else "-"


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def report(results: list[TurnResult], harness: dict[str, dict[str, Any]], show_answers: bool) -> dict[str, Any]:
    """Print per-turn lines, per-dialog and overall figures; return the overall summary."""
    for r in results:
        flags = [f"route={'-' if r.routing is None else 'ok' if r.routing else 'MISS'}",
                 f"mention={r.mentions[0]}/{r.mentions[1]}", f"num={r.numeric[0]}/{r.numeric[1]}",
                 f"kind={'-' if r.kind is None else 'ok' if r.kind else 'MISS'}"]
        if r.tool_budget is not None:
            flags.append(f"budget={'ok' if r.tool_budget else 'MISS'}")
        if r.first is not None:
            flags.append(f"first={'ok' if r.first else 'MISS'}")
        if r.unrequested_write:
            flags.append("UNREQUESTED-WRITE")
        if r.invented:
            flags.append(f"INVENTED={','.join(r.invented)}")
        flags.append(f"tc={r.tc}")
        print(f"{r.dialog} t{r.index} {r.wall_ms:7.0f}ms {r.answer_chars:5d}ch exec={r.executed} memo={r.memo_calls} ran={','.join(r.ran) or '-'}"
              f" kinds={','.join(r.kinds)} {' '.join(flags)} [{r.status}] :: {r.text}")
        for detail in r.numeric_detail:
            print(f"      numeric {detail}")
        if show_answers:
            print("      " + r.answer.replace("\n", "\n      ") + "\n")
    print(f"\n{'dialog':<7}{'TC':>6}{'route':>12}{'mention':>12}{'numeric':>12}{'kind':>10}{'TNV':>7}{'SC':>7}{'ESR':>7}"
          f"{'RSR':>7}")
    for dialog_id, counts in harness.items():
        rows = [r for r in results if r.dialog == dialog_id]
        single = corpus_harness([counts])
        tc = statistics.fmean(r.tc / 2 for r in rows) if rows else 0.0
        print(f"{dialog_id:<7}{tc:>6.2f}{_count(checked_counts([r.routing for r in rows])):>12}{_count(*[r.mentions for r in rows]):>12}"
              f"{_count(*[r.numeric for r in rows]):>12}{_count(checked_counts([r.kind for r in rows])):>10}"
              f"{_fmt(single['TNV']):>7}{_fmt(single['SC']):>7}{_fmt(single['ESR']):>7}{_fmt(single['RSR']):>7}"
              + (f"  schema: {counts['schema_errors'][:2]}" if counts["schema_errors"] else ""))
    s = summarise(results, harness)
    h = s["harness"]
    print(f"\nturns {len(results)}; routing {_rate([s['routing']])}; mentions {_rate(s['mentions'])}; numeric "
          f"{_rate(s['numeric'])}; clarify/refuse {_rate([s['kind']])}; no-tool budget {_rate([s['tool_budget']])}")
    print(f"latency first turn {s['first_ms']:.0f} ms vs follow-up {s['follow_ms']:.0f} ms; {s['calls_per_turn']:.1f} "
          f"tool calls per turn; memo reuse {s['memo_reuse']:.0%}; follow-up artifact reuse {s['artifact_reuse']:.0%}; "
          f"answer length median {s['answer_chars_median']:.0f} / max {s['answer_chars_max']} chars")
    print(f"harness TNV {_fmt(h['TNV'])}  SC {_fmt(h['SC'])}  ESR {_fmt(h['ESR'])}  RSR {_fmt(h['RSR'])}")
    print(f"task completion {s['tc']:.2f}; answered {_rate([s['answer_rate']])} of turns that needed an answer; "
          f"first sentence {_rate([s['first']])}; unrequested writes {s['unrequested_writes']}; invented entities "
          f"{len(s['invented'])}{' ' + ', '.join(s['invented']) if s['invented'] else ''}")
    return s


def main(argv: list[str] | None = None) -> None:
    """Entry point of `python -m bench heldout` (all dialogs) and of the script (selected ones)."""
    from assetops.settings import get_settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=DIALOGS_FILE,
                        help="Dialog set (default: bench/heldout_dialogs.yaml; bench/heldout2_dialogs.yaml is the "
                             "second, unseen one).")
    parser.add_argument("--dialogs", nargs="*", default=None, help="Dialog ids, e.g. H01 H10 (default: all).")
    parser.add_argument("--show-answers", action="store_true", help="Print every answer under its turn.")
    parser.add_argument("--rollouts", type=Path, default=None, help="Write dialog<N>.jsonl rollouts here.")
    args = parser.parse_args(argv if argv is not None else [])
    dialogs = load_dialogs(args.file)
    if args.dialogs:
        unknown = set(args.dialogs) - {d.id for d in dialogs}
        if unknown:
            parser.error(f"unknown dialogs {sorted(unknown)}; choose from {', '.join(d.id for d in dialogs)}")
        dialogs = [d for d in dialogs if d.id in args.dialogs]
    started = time.perf_counter()
    results, harness = asyncio.run(run_bench(get_settings(), dialogs, args.rollouts))
    report(results, harness, args.show_answers)
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
