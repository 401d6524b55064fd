"""Long outputs (the management report) become a Markdown artifact the answer links to.

The answer keeps a short summary that always includes the diagnosis and the actions, then the link
to the full text: nothing is cut mid-sentence, and nothing important sits past a cut.
"""

from __future__ import annotations

from artifacts.model import Artifact
from artifacts.readings import cited_ids, report_text
from graph.answering.findings import session_findings

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


def report_summary(report: Artifact, evidence: list[Artifact]) -> list[str]:
    """A few lines: what the report covers, the diagnosis, the actions, and the link to the full text."""
    text = report_text(report)
    title = text.splitlines()[0].lstrip("# ").strip() if text else "Management summary"
    cited = cited_ids(report)
    findings = session_findings([a for a in evidence if a.id in cited] or evidence)
    lines = [f"{title}: the report is ready ({len(cited)} findings cited)."]
    lines.append(findings.conclusion.replace("Verdict:", "Diagnosis:", 1))
    actions = _actions(text)
    if actions:
        lines.append(f"Actions: {actions}")
    lines.append(f"Full report: {markdown_url(report)}")
    return lines
