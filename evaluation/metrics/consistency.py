"""Cross-turn consistency: a later answer must not contradict an earlier one without saying why.

Two concrete checks on the answers of one dialog (pure text in, contradictions out):
- figures: a statement "<sensor>: <number> <unit>" under the same asset and the same explicit window
  ("YYYY-MM-DD to YYYY-MM-DD") that gives a value more than 1% away from an earlier turn's;
- top hypothesis: the failure mode an answer names first (after "most likely" when it says so) for an
  asset differs from the one an earlier answer named first for that asset.
Either is a contradiction unless the later answer states a reason (a revision word: "revised",
"instead", "previously", "new evidence", ...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

ASSET = re.compile(r"\bChiller\s+\d+\b", re.IGNORECASE)
WINDOW = re.compile(r"(\d{4}-\d{2}-\d{2})\s*(?:to|\.\.|–|-{1,2})\s*(\d{4}-\d{2}-\d{2})")
FIGURE = re.compile(r"(?P<sensor>[A-Z][A-Za-z/% ]{2,40}?):\s*(?P<value>-?\d[\d,]*(?:\.\d+)?)\s*"
                    r"(?P<unit>kW/ton|kW|°F|%|tons?|gpm|psi)")
REASONS = ("revis", "instead", "previous", "earlier estimate", "new evidence", "now that", "changed", "update",
           "correct", "with the other sensors", "after adding", "re-rank", "rerank")
TOLERANCE = 0.01


@dataclass(frozen=True)
class Contradiction:
    """One unexplained change between two turns of a dialog."""

    kind: str  # figure | hypothesis
    key: str
    earlier_turn: int
    later_turn: int
    earlier: str
    later: str


def _explains(answer: str) -> bool:
    lowered = answer.lower()
    return any(reason in lowered for reason in REASONS)


def figures(answer: str) -> dict[tuple[str, str, str, str], float]:
    """(asset, window, sensor, unit) -> value for every figure statement under an explicit window."""
    window = WINDOW.search(answer)
    asset_match = ASSET.search(answer)
    if window is None:
        return {}
    found: dict[tuple[str, str, str, str], float] = {}
    for line in answer.splitlines():
        line_asset = ASSET.search(line) or asset_match
        asset = line_asset.group().title() if line_asset else ""
        for match in FIGURE.finditer(line):
            key = (asset, f"{window.group(1)}..{window.group(2)}", match["sensor"].strip().lower(), match["unit"])
            found.setdefault(key, float(match["value"].replace(",", "")))
    return found


def top_hypothesis(answer: str, failure_modes: Sequence[str]) -> str | None:
    """The failure mode the answer puts first: the first named after "most likely", else the first named."""
    lowered = answer.lower()
    anchor = lowered.find("most likely")
    for start in ([anchor, 0] if anchor >= 0 else [0]):
        positions = [(lowered.find(m.lower(), start), m) for m in failure_modes if lowered.find(m.lower(), start) >= 0]
        if positions:
            return min(positions)[1]
    return None


def contradictions(answers: Sequence[str], failure_modes: Sequence[str] = ()) -> list[Contradiction]:
    """Unexplained contradictions between the answers of one dialog (turn numbers are 1-based)."""
    found: list[Contradiction] = []
    seen_figures: dict[tuple[str, str, str, str], tuple[int, float]] = {}
    seen_tops: dict[str, tuple[int, str]] = {}
    for turn, answer in enumerate(answers, start=1):
        explained = _explains(answer)
        for key, value in figures(answer).items():
            if key in seen_figures:
                earlier_turn, earlier = seen_figures[key]
                if abs(value - earlier) > TOLERANCE * max(abs(earlier), 1e-9) and not explained:
                    found.append(Contradiction("figure", " / ".join(key), earlier_turn, turn, str(earlier), str(value)))
            seen_figures[key] = (turn, value)
        top = top_hypothesis(answer, failure_modes) if failure_modes else None
        asset = ASSET.search(answer)
        if top is not None:
            subject = asset.group().title() if asset else ""
            if subject in seen_tops and seen_tops[subject][1] != top and not explained:
                found.append(Contradiction("hypothesis", subject, seen_tops[subject][0], turn, seen_tops[subject][1],
                                           top))
            seen_tops[subject] = (turn, top)
    return found
