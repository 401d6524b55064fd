"""Imports only go down the floors (ARCHITECTURE.md, README "Architecture"): a package may import its own
floor and the floors below it, never one above. Every import counts, function-local ones included.

The floors, bottom to top, as the code depends on them today:

    assetops      settings, database, cache, profiling, the chat model, and the shared vocabulary
                  (assetops.domain: specialist ids, actions, turn types, events, the fleet catalog)
    fleet         generator, importer, loader, queries of the fleet tables
    artifacts     the artifact model and store
    timeseries    the TTM models (forecasting, anomaly detection, fine-tuning)
    tools         the contract tools (iot, utilities, fmsr, tsfm, wo) and their framework
    specialists   the four specialists over the tools and artifacts
    graph         the supervisor: planning, dispatch, answering
    app           the FastAPI edge and the CLI; migrations (Alembic) sit at this floor too
    bench         benchmarks (may drive the app's exporters)
    tests         everything

Besides the floors: the time-series and failure specialists share `specialists/common/` and never
import each other.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FLOORS: dict[str, int] = {
    "assetops": 0,
    "fleet": 1,
    "artifacts": 2,
    "timeseries": 3,
    "tools": 4,
    "specialists": 5,
    "graph": 6,
    "app": 7,
    "migrations": 7,
    "evaluation": 7,  # the edge, beside app: it runs suites through the service code and app's CLI runs it
    "baselines": 7,
    "reliability": 8,  # load and fault runs drive a live service from outside, like the benches
    "bench": 8,
    "tests": 9,
}
NOT_PACKAGES = {".venv", "var", "build", "dist", "node_modules"}
SEPARATE_SIBLINGS = {("specialists.timeseries", "specialists.failure"), ("specialists.failure", "specialists.timeseries")}


@dataclass(frozen=True)
class Import:
    """One import statement (or `importlib.import_module("...")` call) of a project file."""

    path: Path
    line: int
    module: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} imports {self.module}"


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve_relative(path: Path, level: int, module: str | None) -> str:
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (level - 1)] if level > 1 else package
    return ".".join([*base, module] if module else base)


@cache
def imports_of(path: Path) -> list[Import]:
    """Every module `path` imports, wherever the import stands (top level, function, class, branch)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(path, node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = _resolve_relative(path, node.level, node.module)
            found.append(Import(path, node.lineno, module))
            # `from specialists import failure` names a subpackage: count it as that module too.
            found += [Import(path, node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "import_module" and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.append(Import(path, node.lineno, node.args[0].value))
    return found


def project_files() -> list[Path]:
    """Every .py file of the repository's top-level packages (not the virtualenv or data folders)."""
    files: list[Path] = []
    for top in sorted(ROOT.iterdir()):
        if top.is_dir() and top.name not in NOT_PACKAGES and not top.name.startswith(".") \
                and not top.name.endswith(".egg-info"):
            files += sorted(top.rglob("*.py"))
    return files


def _package(module: str) -> str:
    return module.split(".")[0]


def upward_imports() -> list[str]:
    """`file:line imports module (floor a -> floor b)` for every import of a higher floor."""
    problems: dict[tuple[Path, int, str], str] = {}
    for path in project_files():
        own = _package(_module_of(path))
        for item in imports_of(path):
            target = _package(item.module)
            if target in FLOORS and FLOORS[target] > FLOORS[own]:
                problems.setdefault((path, item.line, target), f"{item} (floor {own} -> {target}, which sits above it)")
    return list(problems.values())


def sibling_imports() -> list[str]:
    """Imports between the time-series and failure specialists (they share specialists/common/ instead)."""
    problems: dict[tuple[Path, int], str] = {}
    for path in project_files():
        module = _module_of(path)
        for item in imports_of(path):
            for source, target in SEPARATE_SIBLINGS:
                if (module == source or module.startswith(source + ".")) \
                        and (item.module == target or item.module.startswith(target + ".")):
                    problems.setdefault((path, item.line), f"{item} ({source} -> {target})")
    return list(problems.values())


def test_every_top_level_package_has_a_floor() -> None:
    packages = {_package(_module_of(path)) for path in project_files()}
    assert packages - set(FLOORS) == set(), "place the new package on a floor in FLOORS"


def test_no_package_imports_a_floor_above_it() -> None:
    problems = upward_imports()
    assert problems == [], "upward imports:\n" + "\n".join(problems)


def test_the_time_series_and_failure_specialists_do_not_import_each_other() -> None:
    problems = sibling_imports()
    assert problems == [], "imports between sibling specialists:\n" + "\n".join(problems)


def test_the_check_sees_function_local_relative_and_dynamic_imports(tmp_path: Path) -> None:
    """The scanner itself: an import inside a function, a relative import and import_module all count."""
    global ROOT
    saved = ROOT
    ROOT = tmp_path
    try:
        source = tmp_path / "specialists" / "timeseries" / "late.py"
        source.parent.mkdir(parents=True)
        source.write_text("import importlib\n\n\ndef f():\n    from graph.runner import run_turn\n"
                          "    from ..failure import scoring\n    importlib.import_module('app.main')\n")
        modules = [i.module for i in imports_of(source)]
        assert "graph.runner" in modules and "specialists.failure.scoring" in modules and "app.main" in modules
        assert len(upward_imports()) == 2  # graph and app sit above specialists
        assert len(sibling_imports()) == 1  # `from ..failure import scoring`
    finally:
        ROOT = saved
