"""The report's PNG charts (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after use("Agg"): the backend must be chosen first

COLORS = {"supervisor": "#2b6cb0", "plan-execute": "#dd6b20"}


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def latency_by_position(runs: dict[str, dict[str, Any]], path: Path) -> Path:
    """Mean wall time per turn position 1..5, one bar group per position, one bar per architecture."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    width = 0.8 / max(1, len(runs))
    for i, (arch, run) in enumerate(runs.items()):
        values = [(run["profile"].get(f"turn_{n}_ms") or 0.0) / 1000.0 for n in range(1, 6)]
        ax.bar([n + i * width for n in range(1, 6)], values, width, label=arch, color=COLORS.get(arch))
    ax.set_xticks([n + width * (len(runs) - 1) / 2 for n in range(1, 6)], [f"turn {n}" for n in range(1, 6)])
    ax.set_ylabel("mean wall time (s)")
    ax.set_title("Latency by turn position")
    ax.legend()
    return _save(fig, path)


def latency_split(runs: dict[str, dict[str, Any]], path: Path) -> Path:
    """Total wall time per architecture, stacked: tool time, LLM time, the rest."""
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    archs = list(runs)
    bottom = [0.0] * len(archs)
    for part, color in (("tool_s", "#718096"), ("llm_s", "#9f7aea"), ("other_s", "#cbd5e0")):
        values = [runs[a]["profile"]["wall_split"][part] for a in archs]
        ax.bar(archs, values, bottom=bottom, label=part.removesuffix("_s"), color=color)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_ylabel("wall time over the suite (s)")
    ax.set_title("Where the time goes")
    ax.legend()
    return _save(fig, path)


def tool_time_by_server(runs: dict[str, dict[str, Any]], path: Path) -> Path:
    """Summed latency of executed tool calls per server, one bar per architecture."""
    servers = sorted({s for run in runs.values() for s in run["profile"]["tool_ms_by_server"]})
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    width = 0.8 / max(1, len(runs))
    for i, (arch, run) in enumerate(runs.items()):
        values = [run["profile"]["tool_ms_by_server"].get(s, 0.0) / 1000.0 for s in servers]
        ax.bar([j + i * width for j in range(len(servers))], values, width, label=arch, color=COLORS.get(arch))
    ax.set_xticks([j + width * (len(runs) - 1) / 2 for j in range(len(servers))], servers)
    ax.set_ylabel("tool time (s, summed latency)")
    ax.set_title("Tool time per server")
    ax.legend()
    return _save(fig, path)


def write_charts(runs: dict[str, dict[str, Any]], out: Path) -> list[Path]:
    """All three charts into `out`; returns their paths."""
    return [latency_by_position(runs, out / "latency_by_turn.png"), latency_split(runs, out / "latency_split.png"),
            tool_time_by_server(runs, out / "tool_time_by_server.png")]
