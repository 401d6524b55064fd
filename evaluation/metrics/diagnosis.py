"""Diagnosis accuracy against injected fault episodes, read from the answers.

A dialog's ranking is the order in which its diagnosis turn's answer first names the known failure
modes (the one after "most likely" first when the answer says so); top-1 is a hit when the injected
failure mode comes first, top-2 when it is among the first two. When other injected faults of the
same chiller are active on the date asked about (`also_active`: a refrigerant loss under an
evaporator fouling, the trip that ended a compressor overheating), naming one of them counts too: the
answer names a fault that is really there. The strict figures (the dialog's own episode only) are
reported beside, the same split as the diagnosis bench's top-1 and lenient columns.
Fault-free control dialogs count as false alarms when that turn's most likely finding is a failure
mode rather than "no fault".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.metrics.rollout import ratio

NO_FAULT = "no fault"


@dataclass(frozen=True)
class DiagnosisCase:
    """One scored dialog: the expected failure mode (None for a control), the answer's ranking and the
    other injected failure modes active on that chiller at that date."""

    dialog_id: str
    expected: str | None
    ranking: list[str]
    also_active: tuple[str, ...] = ()

    @property
    def accepted(self) -> set[str]:
        """The failure modes a correct answer may name first."""
        return {self.expected, *self.also_active} if self.expected is not None else set()

    @property
    def top1(self) -> bool:
        return bool(self.ranking) and self.ranking[0] in self.accepted

    @property
    def top2(self) -> bool:
        return bool(self.accepted.intersection(self.ranking[:2]))

    @property
    def top1_strict(self) -> bool:
        return self.expected is not None and self.ranking[:1] == [self.expected]

    @property
    def top2_strict(self) -> bool:
        return self.expected is not None and self.expected in self.ranking[:2]

    @property
    def false_alarm(self) -> bool:
        return self.expected is None and bool(self.ranking) and self.ranking[0] != NO_FAULT


def ranking(answer: str, failure_modes: Sequence[str]) -> list[str]:
    """Known failure modes in the order the answer names them ("most likely X" puts X first); an answer
    whose most likely finding is "no fault" ranks NO_FAULT first."""
    lowered = answer.lower()
    found = sorted((lowered.find(m.lower()), m) for m in set(failure_modes) if m.lower() in lowered)
    ordered = [m for _, m in found]
    anchor = lowered.find("most likely")
    if anchor >= 0 and lowered[anchor + len("most likely"):].lstrip(" :").startswith("no fault"):
        return [NO_FAULT, *ordered]
    after = [m for pos, m in found if anchor >= 0 and pos >= anchor]
    if after:
        ordered.remove(after[0])
        ordered.insert(0, after[0])
    return ordered


Figure = float | int | None
Miss = dict[str, str | list[str] | None]


def diagnosis_figures(cases: Sequence[DiagnosisCase]) -> dict[str, Figure | list[Miss]]:
    """Top-1 / top-2 accuracy over fault dialogs (also strict: the dialog's own episode only), the
    false-alarm rate over controls, and the missed dialogs with what their answers named first."""
    faults = [c for c in cases if c.expected is not None]
    controls = [c for c in cases if c.expected is None]
    return {"episodes": len(faults), "top1": ratio(sum(c.top1 for c in faults), len(faults)),
            "top2": ratio(sum(c.top2 for c in faults), len(faults)),
            "top1_strict": ratio(sum(c.top1_strict for c in faults), len(faults)),
            "top2_strict": ratio(sum(c.top2_strict for c in faults), len(faults)),
            "concurrent_episodes": sum(bool(c.also_active) for c in faults), "controls": len(controls),
            "control_false_alarm": ratio(sum(c.false_alarm for c in controls), len(controls)),
            "misses": [{"dialog": c.dialog_id, "expected": c.expected, "named": c.ranking[:2]}
                       for c in cases if (c.expected is not None and not c.top1) or c.false_alarm]}
