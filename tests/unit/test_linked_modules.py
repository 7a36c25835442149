"""Functions of other modules of the project are analysed like the file's own
(``frontend.linker``); the standard library, installed packages and functions the analysis
cannot lower run in CPython on pinned values, as before. Every exploration is replayed in
CPython (``--verify``): a raise in a linked function is reported at the line CPython's
traceback shows in the target file (the call)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.frontend.linker import is_project_file, project_dir

from .verified import explore_verified, unsupported_said
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

FILES = {
    "linkedpkg/__init__.py": "",
    "linkedpkg/util.py": """
        COUNT = 0
        LIMIT = 10


        class Oops(Exception):
            pass


        def inc(x: int) -> int:
            if x % 2 == 0:
                return x + 1
            return x - 1


        def clamp(x: int) -> int:
            if x > LIMIT:
                return LIMIT
            return x


        def counted(x: int) -> int:
            global COUNT
            COUNT += 1
            return x


        def deep(x: int) -> int:
            if x == 7:
                raise Oops("seven")
            return inc(x) // (x - 3)
        """,
    "linkedpkg/core.py": """
        import statistics

        from . import util
        from .util import Oops, clamp, counted, deep, inc


        def f(x: int) -> int:
            if inc(x) > 10:
                return 1
            return clamp(x)


        def by_attribute(x: int) -> int:
            return util.inc(x)


        def raises(x: int) -> int:
            if x > 0:
                return deep(x)
            return -1


        def handled(x: int) -> int:
            try:
                return deep(x)
            except Oops:
                return 100


        def not_lowered(x: int) -> int:
            return counted(x) + 1


        def stdlib(x: int) -> float:
            return statistics.mean([x, 2])
        """,
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One project for the module: a package is imported once per process under its name."""
    root = tmp_path_factory.mktemp("linked")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root / "linkedpkg" / "core.py"


def _explore(core: Path, target: str, engine: str) -> dict[str, object]:
    return explore_verified(core, target, engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["f", "by_attribute", "raises", "handled"])
def test_project_functions_are_analysed(project: Path, engine: str, target: str) -> None:
    result = _explore(project, target, engine)
    assert result["complete"], result["stats"]
    assert not result["stats"]["concretizations"]  # type: ignore[index]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_raise_in_a_linked_function_is_reported_at_the_call(project: Path, engine: str) -> None:
    result = _explore(project, "raises", engine)
    raised = {(p["exception"], p["line"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert raised == {("Oops", 20), ("ZeroDivisionError", 20)}
    handled = _explore(project, "handled", engine)
    assert {p.get("returned") for p in handled["paths"] if p["outcome"] == "return"} >= {100}  # type: ignore[union-attr]


def test_what_cannot_be_analysed_runs_in_cpython(project: Path) -> None:
    result = _explore(project, "stdlib", "dse")
    assert result["stats"]["concretizations"]  # type: ignore[index]


def test_a_linked_function_that_rebinds_its_global_is_unsupported(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``counted`` (``global COUNT`` in another module of the project) is not lowered, so it
    would run in CPython, where every path would share the real module's one binding of
    ``COUNT``: unsupported, and the binding is put back."""

    assert "rebound the module-level name 'COUNT' of module linkedpkg.util" in unsupported_said(project, "not_lowered", capsys)
    import linkedpkg.util  # type: ignore[import-not-found]  # imported by the analysis

    assert linkedpkg.util.COUNT == 0


def test_which_files_are_the_project(project: Path) -> None:
    assert project_dir(str(project)) == (project.parent).resolve()
    assert is_project_file(str(project.parent / "util.py"), str(project))
    assert not is_project_file(textwrap.__file__, str(project))
    assert not is_project_file(pytest.__file__, str(project))
