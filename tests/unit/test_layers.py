"""The sub-packages of pathloom form layers: each imports only layers below it, counting
imports inside functions and under ``TYPE_CHECKING``, so there is no import cycle between
sub-packages. The frontend knows nothing of the semantics, the semantics reaches heap models
only through the plug-in registry of ``semantics.input_heap``, and engines import no reporter."""

from __future__ import annotations

import ast
from pathlib import Path

import pathloom

ROOT = Path(pathloom.__file__).parent

# lowest first; a top-level module is its own unit, a sub-package one unit
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "interrupt", "terms", "engine_stats", "cuts", "models", "version"),
    ("targets", "config"),
    ("options", "results", "domain", "solver", "guards"),
    ("frontend",),
    ("semantics",),
    ("heap",),
    ("encoding",),
    ("engines",),
    ("report", "replay"),
    ("search",),
    ("api", "cache"),
    ("navigation", "compare", "jobs", "diff"),
    ("command",),
    ("cli",),
    ("__main__",),
)
LEVEL = {unit: i for i, units in enumerate(LAYERS) for unit in units}


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path) -> list[tuple[int, str]]:
    rel = path.relative_to(ROOT.parent).with_suffix("").parts
    package = list(rel[:-1]) if path.name != "__init__.py" else list(rel[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - (node.level - 1)] + ([node.module] if node.module else []))
            if base == "pathloom":
                found += [(node.lineno, f"pathloom.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, base))
    return [(line, name) for line, name in found if name.startswith("pathloom.")]


def test_every_import_goes_down_the_layers() -> None:
    units = {p.stem if p.parent == ROOT else p.relative_to(ROOT).parts[0] for p in ROOT.rglob("*.py")} - {"__init__"}
    assert units <= set(LEVEL), f"units with no layer: {sorted(units - set(LEVEL))}"
    upward = []
    for path in sorted(ROOT.rglob("*.py")):
        source = _unit("pathloom." + ".".join(path.relative_to(ROOT).with_suffix("").parts))
        if source == "__init__":
            continue
        for line, name in _imports(path):
            target = _unit(name)
            if target != source and LEVEL[target] >= LEVEL[source]:
                upward.append(f"{path.relative_to(ROOT.parent)}:{line} imports {name} ({source} -> {target})")
    assert upward == []


def test_no_module_is_over_800_lines() -> None:
    """One job per module: a module that grows past 800 lines is split by job."""
    long = {str(p.relative_to(ROOT.parent)): n for p in ROOT.rglob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}
