"""Pure management report: a summary of the session's artifacts, no tool calls."""

from __future__ import annotations

from artifacts.model import Artifact

SECTION_OF_PRODUCER = {"data": "Operating data", "timeseries": "Anomalies and trends",
                       "failure": "Root cause", "maintenance": "Maintenance"}


def management_report(artifacts: list[Artifact], assets: list[str], period: str) -> tuple[str, list[str]]:
    """A short report (markdown) and the artifact ids it rests on."""
    relevant = [a for a in artifacts if not assets or set(a.asset_ids) & set(assets) or not a.asset_ids]
    lines = [f"## Management summary: {', '.join(assets) or 'site MAIN'} ({period})", ""]
    cited: list[str] = []
    for producer, title in SECTION_OF_PRODUCER.items():
        section = [a for a in relevant if a.producer == producer and a.kind != "management_report"]
        if not section:
            continue
        lines.append(f"**{title}**")
        for art in section[-4:]:
            text = art.summary or (art.observations[0] if art.observations else art.kind)
            lines.append(f"- {text} [{art.id}]")
            cited.append(art.id)
        lines.append("")
    if not cited:
        lines.append("No findings recorded yet in this session; ask for a review or diagnosis first.")
    else:
        lines.append(f"**Recommended next steps**: {_next_steps(relevant)}")
    return "\n".join(lines), cited


def _next_steps(artifacts: list[Artifact]) -> str:
    """What to do next, named from the latest diagnosis that found a fault; without one, keep watching."""
    for art in reversed(artifacts):
        hypotheses = art.results.get("hypotheses") if art.kind == "diagnose" else None
        top = hypotheses[0] if isinstance(hypotheses, list) and hypotheses and isinstance(hypotheses[0], dict) else None
        mode = str(top.get("failure_mode", "")) if top else ""
        if mode and not mode.lower().startswith("no fault"):
            confirm = f" ({top['confirm_by']})" if top and top.get("confirm_by") else ""
            where = ", ".join(art.asset_ids)
            return (f"confirm {mode} on {where}{confirm}, plan the repair, and check the readings again after it "
                    "with the validation protocol.")
    return "no fault is diagnosed on this evidence: keep monitoring, and diagnose any chiller that keeps standing out."
