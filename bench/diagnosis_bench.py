"""Diagnosis bench: does the failure specialist's scoring name the injected fault?

For every fault episode of the fleet (table fault_episodes: asset, fault type, failure mode, onset,
peak, repair) the bench takes the chiller's telemetry around the episode, builds the evidence with the
same pure functions the failure specialist uses (baseline weeks before onset vs the days around the
peak), ranks the failure modes and checks where the true one lands. It prints top-1 / top-2 accuracy
per fault type and a calibration line (mean top-1 probability vs top-1 accuracy; p_true is the mean
probability given to the true failure mode).

    python -m bench diagnosis                       # the loaded fleet (configured database)
    python -m bench.diagnosis_bench --seeds 7 11 12  # freshly generated fleets, no database needed

Episodes that overlap another episode of the same chiller (e.g. a trip ending a compressor
overheating) are also scored leniently: a hit on any fault active in the window counts there.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd

from specialists.common.evidence import build_evidence
from specialists.common.frames import from_telemetry_table, running_mask
from specialists.common.windows import comparable_baseline, episode_windows
from specialists.failure.scoring import rank_hypotheses

MARGIN = pd.Timedelta(days=95)  # telemetry fetched before onset (baseline may look back up to 90 days)
AFTER_PEAK = pd.Timedelta(days=10)  # and after the peak (an idle chiller: the recent window looks forward)


@dataclass
class Case:
    """One episode with the telemetry around it."""

    episode: dict[str, Any]
    frame: pd.DataFrame
    concurrent_modes: list[str]
    clean_after: pd.Timestamp | None


@dataclass
class EpisodeOutcome:
    """Where the true failure mode ranked for one episode."""

    episode_id: str
    asset_id: str
    fault_type: str
    failure_mode: str
    rank: int | None  # 1-based; None when the true mode was not ranked
    top: list[str]
    top_probability: float
    true_probability: float
    lenient_hit: bool  # top-1 is any fault active in the recent window


def _stamp(value: Any) -> pd.Timestamp | None:
    if value is None or (isinstance(value, float) and pd.isna(value)) or value is pd.NaT:
        return None
    stamp = pd.Timestamp(value)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def evaluate_episode(
    frame: pd.DataFrame,
    episode: Mapping[str, Any],
    concurrent_modes: list[str] | None = None,
    clean_after: pd.Timestamp | None = None,
) -> EpisodeOutcome:
    """Score one episode from its chiller's short-name telemetry frame; the baseline starts no earlier
    than `clean_after` (the repair of the chiller's previous fault)."""
    onset, peak, repair = _stamp(episode["onset"]), _stamp(episode["peak"]), _stamp(episode.get("repair"))
    assert onset is not None and peak is not None
    running_times = frame.index[running_mask(frame).to_numpy()]
    baseline, recent = episode_windows(
        running_times, onset=onset, peak=peak, stop=repair, not_before=clean_after
    )
    running_load = (
        frame.loc[running_mask(frame).to_numpy(), "Chiller % Loaded"].dropna()
        if "Chiller % Loaded" in frame.columns
        else pd.Series(dtype=float)
    )
    baseline = comparable_baseline(running_load, baseline, recent)
    evidence = build_evidence(frame, str(episode["asset_id"]), baseline=baseline, recent=recent)
    ranking = rank_hypotheses(evidence)
    modes = [h.failure_mode for h in ranking]
    truth = str(episode["failure_mode"])
    rank = modes.index(truth) + 1 if truth in modes else None
    true_h = ranking[rank - 1] if rank else None
    active = {truth, *(concurrent_modes or [])}
    return EpisodeOutcome(
        episode_id=str(episode.get("episode_id", "")),
        asset_id=str(episode["asset_id"]),
        fault_type=str(episode["fault_type"]),
        failure_mode=truth,
        rank=rank,
        top=modes[:3],
        top_probability=ranking[0].probability,
        true_probability=true_h.probability if true_h else 0.0,
        lenient_hit=modes[0] in active,
    )


def previous_repair(episodes: pd.DataFrame, row: Mapping[str, Any]) -> pd.Timestamp | None:
    """The latest repair of the chiller's earlier episodes (started before this onset, repaired before
    this peak's recent window): the baseline must not contain another fault."""
    onset, peak = _stamp(row["onset"]), _stamp(row["peak"])
    assert onset is not None and peak is not None
    ends: list[pd.Timestamp] = []
    for _, other in episodes[episodes["asset_id"] == row["asset_id"]].iterrows():
        start, end = _stamp(other["onset"]), _stamp(other["repair"])
        if other["episode_id"] == row["episode_id"] or start is None or end is None:
            continue
        if start < onset and end <= peak - pd.Timedelta(days=3):
            ends.append(end)
    return max(ends) if ends else None


def concurrent_failure_modes(episodes: pd.DataFrame, row: Mapping[str, Any]) -> list[str]:
    """Failure modes of other episodes on the same chiller active around this one's peak."""
    peak = _stamp(row["peak"])
    assert peak is not None
    out: list[str] = []
    for _, other in episodes[episodes["asset_id"] == row["asset_id"]].iterrows():
        if other["episode_id"] == row["episode_id"]:
            continue
        start, end = _stamp(other["onset"]), _stamp(other["repair"]) or peak + MARGIN
        assert start is not None
        if start <= peak + pd.Timedelta(days=2) and end >= peak - pd.Timedelta(days=3):
            out.append(str(other["failure_mode"]))
    return out


def summarise(outcomes: list[EpisodeOutcome]) -> dict[str, dict[str, float]]:
    """Per fault type and overall: episodes, top-1, top-2, lenient top-1, mean top-1 probability."""
    groups: dict[str, list[EpisodeOutcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome.fault_type].append(outcome)
    groups["ALL"] = list(outcomes)
    table: dict[str, dict[str, float]] = {}
    for name, items in groups.items():
        n = len(items)
        if not n:
            continue
        table[name] = {
            "episodes": n,
            "top1": sum(1 for o in items if o.rank == 1) / n,
            "top2": sum(1 for o in items if o.rank is not None and o.rank <= 2) / n,
            "lenient_top1": sum(1 for o in items if o.lenient_hit) / n,
            "mean_top_probability": sum(o.top_probability for o in items) / n,
            "mean_true_probability": sum(o.true_probability for o in items) / n,
        }
    return table


def generated_cases(seed: int, start: date, end: date) -> Iterator[Case]:
    """(episode row, telemetry frame, concurrent modes) per episode of a generated fleet; each chiller
    is simulated only around its episode (with its whole schedule), which keeps the bench fast."""
    from fleet.synthetic import GeneratorConfig, episodes_frame, schedule_for, simulate

    full = GeneratorConfig(seed=seed, start=start, end=end)
    schedule = schedule_for(full)
    table = episodes_frame(schedule)
    for _, row in table.iterrows():
        onset, peak = _stamp(row["onset"]), _stamp(row["peak"])
        assert onset is not None and peak is not None
        window_start = max((onset - MARGIN).date(), start)
        window_end = min((peak + AFTER_PEAK).date(), end)
        own = [e for e in schedule if e.asset_id == row["asset_id"]]
        config = GeneratorConfig(
            seed=seed, start=window_start, end=window_end, assets=(row["asset_id"],), episodes=own
        )
        telemetry = simulate(config, own).telemetry
        yield Case(
            row.to_dict(),
            from_telemetry_table(telemetry, row["asset_id"]),
            concurrent_failure_modes(table, row),
            previous_repair(table, row),
        )


def database_cases() -> Iterator[Case]:
    """The same from the loaded fleet in the configured database (fault_episodes + telemetry)."""
    from sqlalchemy import select

    from assetops.db.engine import sync_engine
    from assetops.db.tables import FaultEpisodeRow, TelemetryRow
    from assetops.settings import get_settings

    engine = sync_engine(get_settings())
    with engine.connect() as conn:
        table = pd.read_sql(select(FaultEpisodeRow.__table__), conn)
        for column in ("onset", "peak", "repair"):
            table[column] = pd.to_datetime(table[column], utc=True)
        for _, row in table.iterrows():
            query = select(TelemetryRow.__table__).where(
                TelemetryRow.asset_id == row["asset_id"],
                TelemetryRow.ts >= (row["onset"] - MARGIN).to_pydatetime(),
                TelemetryRow.ts < (row["peak"] + AFTER_PEAK).to_pydatetime(),
            )
            telemetry = pd.read_sql(query, conn)
            yield Case(
                row.to_dict(),
                from_telemetry_table(telemetry, row["asset_id"]),
                concurrent_failure_modes(table, row),
                previous_repair(table, row),
            )
    engine.dispose()


def run(cases: Iterator[Case], *, verbose: bool = False) -> list[EpisodeOutcome]:
    """Evaluate every case; print misses (or every episode with `verbose`)."""
    outcomes: list[EpisodeOutcome] = []
    for case in cases:
        row, concurrent = case.episode, case.concurrent_modes
        if case.frame.empty:
            print(f"  skip {row.get('episode_id')}: no telemetry in the window")
            continue
        outcome = evaluate_episode(case.frame, row, concurrent, case.clean_after)
        outcomes.append(outcome)
        if verbose or outcome.rank != 1:
            mark = "ok  " if outcome.rank == 1 else "MISS"
            print(
                f"  {mark} {outcome.episode_id:28s} {outcome.fault_type:22s} rank={outcome.rank} "
                f"top={[m[:28] for m in outcome.top[:2]]} p_top={outcome.top_probability:.2f}"
                + (f" concurrent={[m[:20] for m in concurrent]}" if concurrent else "")
            )
    return outcomes


def print_table(table: dict[str, dict[str, float]]) -> None:
    """The per-fault-type accuracy table."""
    print(
        f"  {'fault type':24s} {'n':>4s} {'top1':>6s} {'top2':>6s} {'lenient':>8s} {'p_top1':>7s} {'p_true':>7s}"
    )
    for name, row in sorted(table.items(), key=lambda kv: (kv[0] == "ALL", kv[0])):
        print(
            f"  {name:24s} {int(row['episodes']):4d} {row['top1']:6.2f} {row['top2']:6.2f} "
            f"{row['lenient_top1']:8.2f} {row['mean_top_probability']:7.2f} {row['mean_true_probability']:7.2f}"
        )
    overall = table.get("ALL")
    if overall:
        print(
            f"  calibration: mean top-1 probability {overall['mean_top_probability']:.2f} vs top-1 accuracy "
            f"{overall['top1']:.2f} (softmax temperature chosen so these agree)"
        )


def _has_loaded_episodes() -> bool:
    try:
        from sqlalchemy import func, select

        from assetops.db.engine import sync_engine
        from assetops.db.tables import FaultEpisodeRow
        from assetops.settings import get_settings

        engine = sync_engine(get_settings())
        with engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(FaultEpisodeRow.__table__)).scalar_one()
        engine.dispose()
        return bool(count)
    except Exception as exc:  # no database / no table yet: the bench falls back to generating
        print(f"  (no loaded fleet: {type(exc).__name__}: {str(exc)[:120]})")
        return False


def main(argv: list[str] | None = None) -> None:
    """Print top-1/top-2 accuracy per fault type for the loaded fleet, or for generated seeds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", type=int, nargs="*", help="generate these seeds instead of reading the database"
    )
    parser.add_argument("--start", default="2016-01-01")
    parser.add_argument("--end", default="2021-12-31")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv or [])
    started = time.perf_counter()
    if not args.seeds and _has_loaded_episodes():
        print("  source: loaded fleet (configured database)")
        outcomes = run(database_cases(), verbose=args.verbose)
    else:
        seeds = args.seeds or [7]
        outcomes = []
        for seed in seeds:
            print(f"  source: generated fleet seed={seed} {args.start}..{args.end}")
            outcomes += run(
                generated_cases(seed, date.fromisoformat(args.start), date.fromisoformat(args.end)),
                verbose=args.verbose,
            )
    print_table(summarise(outcomes))
    print(f"  {len(outcomes)} episodes in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
