"""Every engine (and MultiSE without compaction) against the forking engine on every example:
the same outcomes, the same branch coverage, every input replaying in CPython; MultiSE with
compaction turned off behaves exactly as DSE (same paths, same instruction counts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pathloom.api import explore
from pathloom.compare import agree
from pathloom.engines.registry import engine_names
from pathloom.errors import Unsupported
from pathloom.frontend.module import load_module
from pathloom.options import Options
from pathloom.replay import verify
from pathloom.results import Exploration
from tests.conftest import EXAMPLES, EXAMPLES_UNSUPPORTED

VALIDATED = ("independence", "cache", "cex", "validate")
CASES = [(path, target) for path in EXAMPLES for target in load_module(str(path)).targets()]
# no blanket skip: any other Unsupported fails the test, and so does one of these being entered
EXPECTED_UNSUPPORTED = EXAMPLES_UNSUPPORTED


def _entered(path: Path, target: str, options: Options) -> Exploration | None:
    """The exploration, or None for a target listed as expected unsupported (its refusal checked)."""
    expected = EXPECTED_UNSUPPORTED.get((path.name, target))
    if expected is None:
        return explore(str(path), target, options)
    with pytest.raises(Unsupported, match=re.escape(expected)):
        explore(str(path), target, options)
    return None


@pytest.mark.parametrize("path,target", CASES, ids=lambda v: v.name if isinstance(v, Path) else v)
def test_multise_agrees_with_dse(path: Path, target: str) -> None:
    dse = _entered(path, target, Options(engine="dse", timeout=60, solver_layers=VALIDATED))
    if dse is None:
        return
    multise = explore(str(path), target, Options(engine="multise", timeout=60))
    assert agree(dse, multise) == []
    assert multise.complete == dse.complete
    assert verify(multise, str(path), target) == []
    if len(dse.paths) > 200:
        return  # without compaction every path is a summary entry: quadratic, checked on the smaller ones
    plain = explore(str(path), target, Options(engine="multise", timeout=60, compaction=False))
    assert len(plain.paths) == len(dse.paths)
    assert plain.stats["instructions"] == dse.stats["instructions"]
    assert agree(dse, plain) == []


# the engines without a test of their own above: each against DSE on every example
OTHER_ENGINES = [e for e in engine_names() if e not in ("dse", "multise")]


@pytest.mark.parametrize("engine", OTHER_ENGINES)
@pytest.mark.parametrize("path,target", CASES, ids=lambda v: v.name if isinstance(v, Path) else v)
def test_engine_agrees_with_dse(path: Path, target: str, engine: str) -> None:
    dse = _entered(path, target, Options(engine="dse", timeout=60))
    if dse is None:
        return
    other = explore(str(path), target, Options(engine=engine, timeout=60, solver_layers=VALIDATED))
    assert agree(dse, other) == []
    assert other.complete == dse.complete
    assert verify(other, str(path), target) == []


@pytest.mark.parametrize("layers", [(), ("cache",), ("cex",), ("independence",), ("independence", "cache", "cex", "validate")])
def test_solver_layers_do_not_change_results(layers: tuple[str, ...]) -> None:
    for path in EXAMPLES:
        for target in ("classify", "binary_search", "f"):
            if target not in load_module(str(path)).targets():
                continue
            full = explore(str(path), target, Options())
            layered = explore(str(path), target, Options(solver_layers=layers))
            assert [(p.outcome, p.exception, p.line) for p in full.paths] == [(p.outcome, p.exception, p.line) for p in layered.paths]
            assert verify(layered, str(path), target) == []


CEX_SLICE = """
def f(x: int, y: int, z: int) -> int:
    if z > 0:
        if x - y > 5:
            return 1
        return 2
    if y < 0:
        if x > 3:
            return 3
        return 4
    return 5
"""


def test_cached_models_never_leak_values_of_other_slices(tmp_path: Path) -> None:
    """Regression: a counterexample-cache hit used to return a whole old model, whose values
    for symbols outside the query's slice overwrote constrained ones."""
    program = tmp_path / "cex_slice.py"
    program.write_text(CEX_SLICE)
    for engine in engine_names():
        exploration = explore(str(program), "f", Options(engine=engine, solver_layers=VALIDATED))
        assert verify(exploration, str(program), "f") == []


@pytest.mark.parametrize("path,target", CASES, ids=lambda v: v.name if isinstance(v, Path) else v)
def test_multise_summaries_keep_disjoint_guards(path: Path, target: str) -> None:
    """The value-summary invariant on MultiSE's final state: in every variable and heap cell,
    guards are non-false and pairwise disjoint as BDDs (split cases that exclude each other
    only in the theory, such as ``len == 0`` and ``len == 1``, must not overlap here)."""
    from pathloom.api import Run

    expected = EXPECTED_UNSUPPORTED.get((path.name, target))
    if expected is not None:
        with pytest.raises(Unsupported, match=re.escape(expected)):
            Run(load_module(str(path)), target, Options(engine="multise", timeout=60))
        return
    run = Run(load_module(str(path)), target, Options(engine="multise", timeout=60))
    for _ in run.results():
        pass
    engine = run.engine
    for summary in list(engine.vars.values()) + list(engine.cells.values()):  # type: ignore[attr-defined]
        assert summary.is_well_formed(engine.mgr), summary  # type: ignore[attr-defined]


SPLITTING = [
    "def f(xs: list[int]) -> int:\n    xs.append(True)\n    return len(xs)\n",
    "def f(xs: list[int], i: int) -> int:\n    xs[i] = 'a'\n    return len(xs)\n",
    "def f(xs: list[int], i: int) -> int:\n    ys = [1, 2, 3]\n    ys.pop(i)\n    return ys[0] + len(xs)\n",
]


@pytest.mark.parametrize("source", SPLITTING)
def test_multise_split_cases_stay_disjoint(source: str) -> None:
    from pathloom.api import Run
    from pathloom.frontend.module import parse_module

    run = Run(parse_module(source, "<split>"), "f", Options(engine="multise", timeout=60, max_list_len=3))
    for _ in run.results():
        pass
    engine = run.engine
    for summary in list(engine.vars.values()) + list(engine.cells.values()):  # type: ignore[attr-defined]
        assert summary.is_well_formed(engine.mgr), summary  # type: ignore[attr-defined]
    dse = explore(parse_module(source, "<split>"), "f", Options(engine="dse", max_list_len=3))
    assert agree(dse, run.exploration) == []
