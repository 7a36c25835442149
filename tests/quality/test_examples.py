"""Every example function: explore, replay every input in CPython (--verify), write a pytest
file that passes, and (where exploration is complete) cover every feasible branch, measured
with coverage.py on the generated tests."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.errors import Unsupported
from pathloom.frontend.module import load_module
from pathloom.options import Options
from pathloom.replay import verify
from pathloom.report.pytest_gen import generate
from tests.conftest import EXAMPLES
from tests.coverage_measure import branch_coverage
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

# Branches no input can take, by (file, function), each with its reason.
INFEASIBLE = {
    # The history of a freshly constructed account is empty: the loop body never runs.
    ("bank.py", "Account.average_deposit"),
}


def _explorations(path: Path, engine: str) -> list:
    module = load_module(str(path))
    results = []
    for target in module.targets():
        try:
            results.append(explore(module, target, Options(engine=engine, timeout=60)))
        except Unsupported:
            continue
    return results


@pytest.fixture(scope="module", params=[(p, e) for p in EXAMPLES for e in ENGINES], ids=lambda c: f"{c[0].name}-{c[1]}")
def explored(request: pytest.FixtureRequest) -> tuple[Path, list]:
    path, engine = request.param
    return path, _explorations(path, engine)


def test_every_input_replays(explored: tuple[Path, list]) -> None:
    path, explorations = explored
    assert explorations
    for exploration in explorations:
        target = exploration.target.rsplit("::", 1)[1]
        assert verify(exploration, str(path), target) == []
        finished = [p for p in exploration.paths if p.outcome in ("return", "raise")]
        assert finished, f"{target}: no finished path"


def _function_ranges(path: Path) -> dict[str, tuple[int, int]]:
    tree = ast.parse(path.read_text())
    ranges = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            ranges[node.name] = (node.lineno, node.end_lineno or node.lineno)
        if isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef):
                    ranges[f"{node.name}.{sub.name}"] = (sub.lineno, sub.end_lineno or sub.lineno)
    return ranges


def test_generated_tests_pass_and_cover_branches(explored: tuple[Path, list], tmp_path: Path) -> None:
    path, explorations = explored
    test_file = tmp_path / f"test_gen_{path.stem}.py"
    test_file.write_text(generate(explorations, str(path), str(test_file)))
    measured, _ = branch_coverage(test_file, path, tmp_path)
    missing = measured["missing_branches"]
    ranges = _function_ranges(path)
    complete = {e.target.rsplit("::", 1)[1] for e in explorations if e.complete}
    for name, (first, last) in ranges.items():
        if name not in complete or (path.name, name) in INFEASIBLE:
            continue
        uncovered = [arc for arc in missing if first <= arc[0] <= last]
        assert not uncovered, f"{path.name}::{name}: branches not covered by the generated tests: {uncovered}"
