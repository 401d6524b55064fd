"""Markdown building blocks of the answer: tables, bullet figures, and length bounded by whole sentences.

Pure text functions. The web page renders the answer as Markdown, so tables and lists are real
Markdown; nothing here ever cuts a sentence in half.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[a-z0-9)%\]])[.!?](?=\s+[A-Z0-9\"(])")


def cell(value: object) -> str:
    """A table cell: pipes escaped, line breaks flattened."""
    return str(value).replace("|", "\\|").replace("\n", " ").strip()


def table(headers: list[str], rows: list[list[object]]) -> list[str]:
    """A Markdown table as lines (header, separator, one line per row); no rows, no table."""
    if not rows:
        return []
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |",
             "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def sentences(text: str) -> list[str]:
    """`text` split into sentences (a sentence ends at . ! or ? followed by a capital or a digit)."""
    parts, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        parts.append(text[start:match.end()].strip())
        start = match.end()
    tail = text[start:].strip()
    return [p for p in [*parts, tail] if p]


def whole_sentences(text: str, limit: int) -> str:
    """As many whole sentences of `text` as fit in `limit` characters, the first one always."""
    kept: list[str] = []
    for sentence in sentences(text):
        if kept and len(" ".join([*kept, sentence])) > limit:
            break
        kept.append(sentence)
    return " ".join(kept)


def join_names(names: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def chillers(names: list[str]) -> str:
    """'Chiller 3', 'Chillers 3, 4 and 9' (other names listed as they are)."""
    numbers = [n.removeprefix("Chiller ") for n in names]
    if len(names) > 1 and all(n.startswith("Chiller ") for n in names):
        return "Chillers " + join_names(numbers)
    return join_names(names)


def number(value: float, unit: str = "") -> str:
    """A figure with its unit: 1,234 kW, 0.62 kW/ton, 45.1 degF, 31%."""
    if unit == "%":
        return f"{value:.1f}%".replace(".0%", "%")  # (16.5%, not 16%: a load figure is checked to a few tenths)
    text = f"{value:,.0f}" if abs(value) >= 1000 else f"{value:,.2f}".rstrip("0").rstrip(".") if abs(value) < 10 \
        else f"{value:,.1f}"
    return f"{text} {unit}".rstrip()


def clauses_outside_parentheses(text: str) -> list[str]:
    """`text` split at "; " where no parenthesis is open: "(Chiller 4 61%; Chiller 9 59%)" stays one aside."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth <= 0 and text.startswith("; ", index):
            parts.append(text[start:index])
            start = index + 2
    parts.append(text[start:])
    return parts


def whole_clauses(text: str, limit: int) -> str:
    """Whole sentences of `text` within `limit`; a single sentence longer than that keeps its whole
    clauses (parts between semicolons) that fit, the first one always: never a word cut in half."""
    kept = whole_sentences(text, limit)
    if len(kept) <= limit:
        return kept
    clauses = clauses_outside_parentheses(kept.rstrip("."))
    out = clauses[0]
    for clause in clauses[1:]:
        if len(out) + len(clause) + 3 > limit:
            break
        out += "; " + clause
    return out.rstrip(",;: ") + "."


_ARTIFACT_REF = re.compile(r"\s*\[artifact_\w+\]")


def without_refs(text: str) -> str:
    """`text` without its "[artifact_...]" citations (a line restated elsewhere cites once)."""
    return _ARTIFACT_REF.sub("", text)
