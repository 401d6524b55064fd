"""Long outputs (the management report) become a Markdown artifact the answer links to.

The answer keeps a short summary that always includes the diagnosis and the actions, then the link
to the full text: nothing is cut mid-sentence, and nothing important sits past a cut.
"""

from __future__ import annotations

import re

from artifacts.model import Artifact
from artifacts.readings import cited_ids, report_text
from graph.answering.findings import session_findings
from graph.answering.markdown import without_refs

LONG_KINDS = ("management_report",)


def markdown_url(artifact: Artifact) -> str:
    """The route that serves an artifact's text as Markdown (app/routes/session_artifacts.py)."""
    return f"/v1/sessions/{artifact.session_id}/artifacts/{artifact.id}/markdown"


def markdown_text(artifact: Artifact) -> str:
    """The full Markdown an artifact holds: the report's text, else its summary and observations."""
    text = report_text(artifact)
    if text.strip():
        return text
    lines = [f"## {artifact.kind.replace('_', ' ').capitalize()}: {', '.join(artifact.asset_ids) or 'site'}", "",
             artifact.summary, ""]
    lines += [f"- {o}" for o in artifact.observations]
    return "\n".join(lines).strip() + "\n"


def _actions(report: str) -> str:
    for line in report.splitlines():
        if "next steps" in line.lower():
            return line.split(":", 1)[-1].strip(" *")
    return ""


_SUMMARY_FINDINGS = 4  # the findings a short summary quotes before the link to the full report


# An earlier answer's lead that carries no finding: a question back, a refusal, a plan, a stock reply.
_NOT_A_FINDING = re.compile(r"\?\s*$|^(?:Which|What|Sorry|I can|I could|Plan:|Drafted|Management summary|Verdict)\b")


_YES_NO = re.compile(r"^(?:Yes|No),\s+")


def dialog_leads(earlier: list[str], conclusion: str) -> list[str]:
    """The earlier answers' first sentences worth restating in a summary: findings, not questions back or
    earlier summaries, each once, none the conclusion already says."""
    kept: list[str] = []
    for lead in earlier:
        lead = without_refs(lead).strip()
        answer = _YES_NO.match(lead)  # "Yes, Chiller 4 runs ..." restated is "Chiller 4 runs ..."
        if answer is not None and len(lead) > answer.end():
            lead = lead[answer.end()].upper() + lead[answer.end() + 1:]
        if lead.rstrip(". ").endswith(":"):  # "Chiller 6 (2021-04-01 to 2021-05-01):" heads figures; alone it says nothing
            continue
        if lead and not _NOT_A_FINDING.search(lead) and lead not in kept and lead.rstrip(".") not in conclusion:
            kept.append(lead)
    return kept


def report_summary(report: Artifact, evidence: list[Artifact], bullets: int | None = None,
                   earlier: list[str] | None = None) -> list[str]:
    """A few lines: what the report covers, the conclusion, what the dialog found turn by turn (`earlier`:
    each earlier answer's first sentence), the main findings (with their periods), the actions, and the link
    to the full text; exactly `bullets` points when the user asked for that many."""
    text = report_text(report)
    title = text.splitlines()[0].lstrip("# ").strip() if text else "Management summary"
    cited = cited_ids(report)
    findings = session_findings([a for a in evidence if a.id in cited] or evidence)
    conclusion = findings.conclusion.removeprefix("Verdict: ")
    conclusion = conclusion[:1].upper() + conclusion[1:]
    # The conclusion may already quote the first finding; a point is said once.
    found = [*dialog_leads(earlier or [], conclusion),
             *(line for line in (without_refs(x).removeprefix("- ") for x in findings.lines)
               if line.rstrip(".") not in conclusion and not line.rstrip(". ").endswith(":"))]
    actions = _actions(text)
    if bullets:  # a diagnosis leads; without one, what the dialog found does
        diagnosed = not conclusion.startswith("No diagnosis yet") and not conclusion.startswith("Nothing")
        points = [conclusion, *found] if diagnosed or not found else found
        if actions:  # the last point is what to do next
            points = [*points[:max(bullets - 1, 1)], f"Next: {actions}"]
        return [f"{title}, in {min(bullets, len(points))} point{'s' if min(bullets, len(points)) != 1 else ''}:",
                *(f"- {p}" for p in points[:bullets]), f"Full report: {markdown_url(report)}"]
    lines = [f"{title}: {conclusion}", *(f"- {line}" for line in found[:_SUMMARY_FINDINGS])]
    if actions:
        lines.append(f"Actions: {actions}")
    lines.append(f"Full report: {markdown_url(report)} ({len(cited)} findings cited).")
    return lines
