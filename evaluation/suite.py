"""A suite: the bench's dialog YAML (bench/heldout_dialogs.yaml documents the per-turn keys) plus
optional diagnosis keys, read here:

    failure_modes: [...]            # file level: the names the diagnosis ranking looks for
    dialogs:
      - id: S01
        expect_failure_mode: "..."  # the injected fault (scenario dialogs); null + control: true = none
        also_active: ["..."]        # other injected faults of that chiller active on the date asked about
        control: true
        diagnosis_turn: 2           # the turn whose answer is ranked (default 2)

SUITE on the command line is a path, or a name under bench/ ("heldout" -> bench/heldout_dialogs.yaml).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from evaluation.dialog_checks import DialogSpec, load_dialogs

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"


@dataclass(frozen=True)
class DiagnosisExpectation:
    """What a scenario dialog's diagnosis turn must name first (None for a fault-free control)."""

    failure_mode: str | None
    turn: int = 2
    also_active: tuple[str, ...] = ()


@dataclass
class Suite:
    """The dialogs of one suite file and what their diagnosis turns must find."""

    name: str
    path: Path
    dialogs: list[DialogSpec]
    diagnosis: dict[str, DiagnosisExpectation] = field(default_factory=dict)
    failure_modes: list[str] = field(default_factory=list)


def resolve_suite(name_or_path: str) -> Path:
    """The suite file: an existing path, else bench/NAME.yaml or bench/NAME_dialogs.yaml."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    for candidate in (BENCH_DIR / f"{name_or_path}.yaml", BENCH_DIR / f"{name_or_path}_dialogs.yaml"):
        if candidate.is_file():
            return candidate
    known = sorted(p.stem.removesuffix("_dialogs") for p in BENCH_DIR.glob("*.yaml"))
    raise FileNotFoundError(f"no suite {name_or_path!r}: give a YAML path or one of {', '.join(known)}")


def _expectation(raw: dict[str, Any]) -> DiagnosisExpectation | None:
    if "expect_failure_mode" not in raw and not raw.get("control"):
        return None
    mode = raw.get("expect_failure_mode")
    return DiagnosisExpectation(str(mode) if mode else None, int(raw.get("diagnosis_turn", 2)),
                                tuple(str(m) for m in raw.get("also_active") or ()))


def load_suite(name_or_path: str) -> Suite:
    """Parse a suite file (dialog specs through the bench's own loader, diagnosis keys here)."""
    path = resolve_suite(name_or_path)
    raw = yaml.safe_load(path.read_text())
    diagnosis = {str(d["id"]): e for d in raw["dialogs"] if (e := _expectation(d)) is not None}
    modes = [str(m) for m in raw.get("failure_modes") or []]
    named = [m for e in diagnosis.values() for m in (e.failure_mode, *e.also_active) if m]
    modes += [m for m in dict.fromkeys(named) if m not in modes]
    return Suite(name=path.stem.removesuffix("_dialogs"), path=path, dialogs=load_dialogs(path), diagnosis=diagnosis,
                 failure_modes=modes)
