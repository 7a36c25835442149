"""Every saved failing program in ``regressions/`` goes through the differential checks.

A regression file is a generated module with a comment header (see
``harness.save_regression``): ``# entry:``, ``# params:`` (else taken from the entry
function's annotations), ``# engines:``, ``# inputs:`` (the failing inputs, always
checked in addition to the derandomized samples), ``# options:`` (overrides of
``harness.base_options()``, if the fuzzer ran with ``--set``) and, while the bug is open,
``# xfail: <failure>``: such a file is a strict xfail, so the test turns red once the
bug is fixed -- then delete the ``# xfail:`` line and the file guards the fix.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pathloom.results import Exploration

from . import harness
from .harness import REGRESSIONS, check_program, load_regression
from .progen import FEATURES, GeneratedProgram

FILES = sorted(REGRESSIONS.glob("*.py")) if REGRESSIONS.is_dir() else []
SAMPLES = 20


def _param(path: Path) -> object:
    regression = load_regression(path)
    marks = []
    if regression.xfail:
        marks.append(pytest.mark.xfail(reason=regression.xfail, strict=True))
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_regression(path: Path) -> None:
    regression = load_regression(path)
    report = check_program(
        regression.program,
        regression.engines,
        SAMPLES,
        extra_inputs=regression.inputs,
        options=regression.options,
    )
    assert not report.unsupported, report.unsupported
    assert report.ok, report.describe()


def test_open_bug_features_name_open_regressions() -> None:
    """Each construct the derandomized tests leave out has its strict-xfail regression; once
    the bug is fixed (the file's ``# xfail:`` line removed), generate it again."""
    for tag, name in harness.OPEN_BUG_FEATURES.items():
        assert tag in FEATURES, tag
        regression = load_regression(REGRESSIONS / name)
        assert regression.xfail, f"{name} is fixed: remove {tag!r} from OPEN_BUG_FEATURES"


def test_regression_files_parse() -> None:
    for path in FILES:
        regression = load_regression(path)
        assert regression.program.params, f"{path.name}: no parameters found"
        names = {n for n, _ in regression.program.params}
        for inputs in regression.inputs:
            assert set(inputs) == names, f"{path.name}: inputs {inputs} vs parameters {names}"


# --------------------------------------------------------------------------------------
# the harness itself: planted engine bugs must be reported

_PLANT = GeneratedProgram(
    source=("def f(x: int, xs: list[int]) -> int:\n    if x > 2:\n        return x // (x - 5)\n    if len(xs) > 1:\n        return xs[1]\n    return 0\n"),
    entry="f",
    params=(("x", "int"), ("xs", "list[int]")),
)
_PLANT_INPUTS = [{"x": 5, "xs": []}, {"x": 0, "xs": [1, 2]}, {"x": 3, "xs": []}, {"x": 0, "xs": []}]


def _checks(monkeypatch: pytest.MonkeyPatch, transform) -> set[str]:  # type: ignore[no-untyped-def]
    real = harness.explore

    def planted(*args, **kwargs):  # type: ignore[no-untyped-def]
        exploration = real(*args, **kwargs)
        transform(exploration)
        return exploration

    monkeypatch.setattr(harness, "explore", planted)
    report = harness.check_program(_PLANT, samples=10, extra_inputs=_PLANT_INPUTS)
    return {f"{f.check}:{f.kind}" for f in report.failures}


def test_harness_passes_the_plant(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _checks(monkeypatch, lambda e: None) == set()


def test_harness_catches_a_wrong_returned_value(monkeypatch: pytest.MonkeyPatch) -> None:
    def bump(e: Exploration) -> None:
        e.paths = [replace(p, returned=p.returned + 1) if p.outcome == "return" else p for p in e.paths]

    assert "replay:return-value" in _checks(monkeypatch, bump)


def test_harness_catches_a_wrong_prediction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Exploration, "predicted_return", lambda self, path, inputs: -1)
    assert "prediction:return-value" in _checks(monkeypatch, lambda e: None)


def test_harness_catches_a_wrong_exception_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def shift(e: Exploration) -> None:
        e.paths = [replace(p, line=p.line + 1) if p.outcome == "raise" else p for p in e.paths]

    found = _checks(monkeypatch, shift)
    assert {"replay:raise-line", "prediction:raise-line"} <= found


def test_harness_catches_a_missing_and_an_overlapping_path(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "partition:none-holds" in _checks(monkeypatch, lambda e: e.paths.pop())

    def duplicate(e: Exploration) -> None:
        e.paths.append(e.paths[0])

    assert "partition:several-hold" in _checks(monkeypatch, duplicate)


def test_harness_catches_disagreeing_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    def drop_raise(e: Exploration) -> None:
        if e.engine == "multise":
            e.paths = [p for p in e.paths if p.outcome != "raise"]

    assert "agree:outcomes-differ" in _checks(monkeypatch, drop_raise)


def test_harness_reports_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(e: Exploration) -> None:
        raise RuntimeError("planted")

    assert any(k.startswith("crash:RuntimeError") for k in _checks(monkeypatch, boom))


# --------------------------------------------------------------------------------------
# the harness imports the real module of each program

_REAL = GeneratedProgram(
    source=("PRIMES = [2, 3, 5]\nK = len(PRIMES)\n\n\ndef f(x: int) -> int:\n    if x in PRIMES:\n        return K\n    return len(hex(x))\n"),
    entry="f",
    params=(("x", "int"),),
)


def test_harness_imports_the_real_module_and_counts_concretized_cuts() -> None:
    seen: dict[str, object] = {}
    real = harness.explore

    def spy(module, target, options):  # type: ignore[no-untyped-def]
        seen["runtime"] = module.runtime
        seen["filename"] = module.filename
        return real(module, target, options)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(harness, "explore", spy)
        report = harness.check_program(_REAL, samples=10)
    assert report.ok, report.describe()
    runtime: Any = seen["runtime"]
    assert runtime is not None and runtime.K == 3  # computed at import
    name = runtime.__name__
    assert name not in sys.modules and not Path(str(seen["filename"])).exists()  # cleaned up
    for engine in harness.ENGINES:
        # hex(x) of a symbolic int: a few pinned values, the rest a `concretized` cut
        assert not report.complete[engine]
        assert {harness.cut_category(r) for r in report.cuts[engine]} == {"concretized"}
    assert report.checks["module"] == len(harness.ENGINES)  # once after each engine


def test_harness_catches_a_changed_module(monkeypatch: pytest.MonkeyPatch) -> None:
    real = harness.explore

    def planted(module, target, options):  # type: ignore[no-untyped-def]
        exploration = real(module, target, options)
        module.runtime.PRIMES.append(7)
        return exploration

    monkeypatch.setattr(harness, "explore", planted)
    report = harness.check_program(_REAL, samples=5)
    assert {f"{f.check}:{f.kind}" for f in report.failures} == {"module:changed"}
    assert len(report.failures) == len(harness.ENGINES)  # restored after each engine, changed again


def test_harness_reports_a_module_that_does_not_import() -> None:
    broken = GeneratedProgram("X = 1 // 0\n\n\ndef f(x: int) -> int:\n    return x\n", "f", (("x", "int"),))
    report = harness.check_program(broken, samples=2)
    assert [f.signature for f in report.failures] == ["cpython:import:ZeroDivisionError"]


def test_cut_category() -> None:
    assert harness.cut_category("concretized: str() (more values than --max-concretizations)") == "concretized"
    assert harness.cut_category("loop iteration bound N reached (--max-iterations)") == "max-iterations"
    assert harness.cut_category("call depth bound N reached (--max-depth)") == "max-depth"
    assert harness.cut_category("unknown: solver returned unknown (timeout)") == "unknown"


def test_the_hang_watchdog_leaves_z3_usable() -> None:
    """The harness's hang watchdog interrupts Z3's context; one interrupt that lands outside a
    check must not leave every later ``push`` raising "push canceled" (a fuzzing run lost 700
    programs to it)."""
    import time

    import z3

    from .harness import _Watchdog

    try:
        with _Watchdog(0.05, "a sleep, not Z3") as watchdog:
            try:
                time.sleep(2)
            except KeyboardInterrupt:
                pass
    except KeyboardInterrupt:  # the interrupt may arrive just after the block
        pass
    assert watchdog.fired
    solver = z3.Solver()
    solver.push()
    solver.add(z3.Int("x") > 1)
    assert solver.check() == z3.sat
