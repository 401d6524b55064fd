"""The yes/no answer every verdict family returns: the word, the sentence that opens the answer, the evidence.

Its own module so the families (graph/answering/verdicts.py and the modules beside it) share the type
without importing each other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Answer = Literal["Yes", "No", "Partly", "Not clearly"]


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer: the word, the sentence that opens the answer, the evidence lines after it."""

    answer: Answer
    sentence: str
    evidence: list[str] = field(default_factory=list)


def flip(answer: Answer) -> Answer:
    """The answer to the opposite question ("is it healthy?" against "is something wrong?")."""
    return "No" if answer == "Yes" else "Yes" if answer == "No" else answer


def without_answer(sentence: str) -> str:
    """"Yes, Chiller 3 had ..." -> "Chiller 3 had ...": the sentence without its opening word, for an answer that
    says it in other words ("More: ...", "Worth trying: ...")."""
    return re.sub(r"^(?:Yes|No|Partly|Sometimes|Not clearly)[,:]\s*(?:rarely:\s*)?", "", sentence)
