"""Conformance with CPython: every operation of the matrix (``cpython_cases``) on every kind
of value, concrete and symbolic, explored by each engine, must give CPython's answer (the
same value, or the same exception type, line and deterministic message) or ``unsupported``.

One test per (engine, operation) runs that operation's cases. A case that shows a known
bug of pathloom is left out of it and runs as a test of its own, ``test_known_bug``, marked
``xfail(strict=True)`` with the bug: it fails while the bug is there and turns the suite red
once it is fixed, so that its entry in ``KNOWN_BUGS`` is removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conformance import cpython_cases as C
from tests.conftest import ROOT

# --------------------------------------------------------------------------- known bugs


@dataclass(frozen=True)
class KnownBug:
    reason: str
    matches: Callable[[C.Case], bool]
    engines: tuple[str, ...] = C.ENGINES


def _kinds(case: C.Case) -> tuple[str, ...]:
    return tuple(o.kind for o in case.operands)


def _first(case: C.Case) -> str:
    """The first operand's representative (or its kind, for a symbolic operand)."""
    first = case.operands[0]
    return first.kind if first.symbolic else first.rep


def _second(case: C.Case) -> str:
    """The second operand's representative (or its name, for a symbolic operand)."""
    return case.operands[1].rep


def _plus_unsupported(case: C.Case) -> bool:
    """Whether ``a + b`` raises CPython's "unsupported operand type(s) for +" TypeError (the
    message that names the operator) for one of the values the case checks."""
    for left, right in case.instances():
        try:
            C.prelude_eval(f"({left}) + ({right})")
        except TypeError as exc:
            if "unsupported operand type(s)" in str(exc):
                return True
    return False


# Where pathloom differs from CPython. Each entry: why, and exactly which cases show it.
KNOWN_BUGS: tuple[KnownBug, ...] = ()


def known_bug(engine: str, case: C.Case) -> KnownBug | None:
    for bug in KNOWN_BUGS:
        if engine in bug.engines and bug.matches(case):
            return bug
    return None


# --------------------------------------------------------------------------- the modules


class _Modules:
    """The generated module of each operation, written and imported on first use."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.loaded: dict[str, C.OperationModule] = {}

    def __call__(self, op: str) -> C.OperationModule:
        if op not in self.loaded:
            self.loaded[op] = C.OperationModule(op, self.directory)
        return self.loaded[op]


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Modules]:
    found = _Modules(tmp_path_factory.mktemp("conformance"))
    yield found
    for opmodule in found.loaded.values():
        opmodule.unload()


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("engine", C.ENGINES)
@pytest.mark.parametrize("op", [op.name for op in C.OPERATIONS])
def test_operation_conforms_to_cpython(engine: str, op: str, modules: _Modules) -> None:
    opmodule = modules(op)
    module = opmodule.module()
    failures = []
    for case in opmodule.cases:
        if not C.runs_on(engine, case) or known_bug(engine, case) is not None:
            continue
        verdict = C.judge(opmodule, module, case, engine)
        if not verdict.ok:
            failures.append(verdict.describe())
    assert not failures, f"{len(failures)} case(s) differ from CPython:\n\n" + "\n\n".join(failures)


KNOWN_CASES = [
    pytest.param(engine, case.op, case.number, marks=pytest.mark.xfail(strict=True, reason=bug.reason), id=f"{engine}-{case.id}")
    for engine in C.ENGINES
    for cases in C.ALL_CASES.values()
    for case in cases
    for bug in [known_bug(engine, case)]
    if bug is not None and C.runs_on(engine, case)
]


@pytest.mark.parametrize("engine,op,number", KNOWN_CASES)
def test_known_bug(engine: str, op: str, number: int, modules: _Modules) -> None:
    opmodule = modules(op)
    case = opmodule.cases[number - 1]
    verdict = C.judge(opmodule, opmodule.module(), case, engine)
    assert verdict.ok, verdict.describe()


def test_testing_docs_state_the_size() -> None:
    testing = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    assert C.size_sentence() in " ".join(testing.split())


def test_every_kind_meets_every_operation() -> None:
    """The matrix is what it claims: each operation has a concrete case for each kind (each
    pair of kinds), every representative is used, and every kind with an input type has a
    symbolic case; MultiSE's sample has each operation with each kind on each side."""
    reps = {(k.name, r) for k in C.KINDS for r in k.reps}
    for op in C.OPERATIONS:
        cases = C.ALL_CASES[op.name]
        concrete = [c for c in cases if not c.symbolic]
        kinds = {_kinds(c) for c in concrete}
        if op.arity == 1:
            assert kinds == {(k.name,) for k in C.KINDS}
        else:
            lefts = {k[0] for k in kinds}
            assert lefts == {k.name for k in C.KINDS}
            assert all(len({k[1] for k in kinds if k[0] == left}) in (1, len(C.KINDS)) for left in lefts)
        if op.method is None:
            assert {(o.kind, o.rep) for c in concrete for o in c.operands} == reps
        assert {o.kind for c in cases if c.symbolic for o in c.operands if o.symbolic} == {k.name for k in C.SYMBOLIC_KINDS}
        sampled = [c for c in concrete if C.runs_on("multise", c)]
        for side in range(op.arity):
            assert {c.operands[side].kind for c in sampled} == {c.operands[side].kind for c in concrete}


@pytest.mark.parametrize("engine", C.ENGINES)
@pytest.mark.parametrize("op,message", [("%", "integer modulo by zero"), ("//", "integer division or modulo by zero")])
def test_symbolic_division_by_zero_has_cpythons_message(engine: str, op: str, message: str) -> None:
    """Regression: a symbolic ``7 % x`` with ``x == 0`` said 'integer division or modulo by
    zero', CPython's message for ``//`` (``%`` says 'integer modulo by zero')."""
    from pathloom.api import explore_source
    from pathloom.options import Options

    exploration = explore_source(f"def f(x: int) -> int:\n    return 7 {op} x\n", "f", Options(engine=engine))
    raised = [p for p in exploration.paths if p.outcome == "raise"]
    assert [(p.exception, p.message, p.inputs) for p in raised] == [("ZeroDivisionError", message, {"x": 0})]
