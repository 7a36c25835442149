"""Wrapper functions made by a decorator of the module (``frontend.lowering.wrappers``): a
``W(*args, **kwargs)`` that passes them on and reads ``f.__name__`` (the string itself), and a
``W(n, k=2)`` with parameters of its own whose body is any code calling ``f`` as it likes:
the decorated name runs W's body, each ``f(...)`` the undecorated function. Every input is
replayed in CPython, in every engine, and compared with CPython's outcome here (messages
included); a use W's own parameters would not bind, or a wrapper holding more than ``f``
(a cache dict made once by the decorator), is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names

from .verified import explore_source, python_outcome, refusal

SOURCE = """\
from collections.abc import Callable
from functools import wraps


def positive(f: Callable[..., int]) -> Callable[..., int]:
    @wraps(f)
    def wrapper(*args: int, **kwargs: int) -> int:
        result = f(*args, **kwargs)
        if result < 0:
            raise ValueError(f"{f.__name__} gave {result} in {f.__qualname__}")
        return result

    return wrapper


@positive
def diff(a: int, b: int = 1) -> int:
    return a - b


def use_diff(a: int, b: int) -> str:
    try:
        return str(diff(a, b) + diff(b=a, a=b + 3) + diff(a))
    except ValueError as e:
        return str(e)


def checked(f: Callable[[int], int]) -> Callable[[int], int]:
    def wrapper(n: int, scale: int = 2) -> int:
        if n < 0:
            raise ValueError(f"{f.__name__}: negative {n}")
        return f(n + scale) - scale

    return wrapper


@checked
def halve(n: int) -> int:
    return n // 2 if n < 6 else halve(n - 6)


def use_halve(n: int, k: int) -> str:
    if n > 12 or k > 12:
        return "big"
    try:
        return str(halve(n) + halve(scale=3, n=k))
    except ValueError as e:
        return str(e)


def _memoize(f: Callable[[int], int]) -> Callable[[int], int]:
    cache: dict[int, int] = {}

    def wrapper(n: int) -> int:
        if n not in cache:
            cache[n] = f(n)
        return cache[n]

    return wrapper


@_memoize
def triangle(n: int) -> int:
    return 0 if n == 0 else n + triangle(n - 1)


def use_triangle(n: int) -> int:
    return triangle(n)
"""

TARGETS = ["use_diff", "use_halve", "halve"]


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", TARGETS)
def test_wrappers_run_as_cpython_runs_them(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "wrapped.py", target, engine, "--max-iterations", "4", "--timeout", "30")
    paths = [p for p in result["paths"] if not p.get("cut") and p["outcome"] in ("return", "raise")]  # type: ignore[attr-defined]
    assert paths
    for p in paths:
        got = p["returned"] if p["outcome"] == "return" else p["exception"]
        assert got == python_outcome(SOURCE, target, dict(p["inputs"])), p


def test_the_wrapped_functions_name_is_read(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "wrapped.py", "use_diff", "dse")
    returned = {p["returned"] for p in result["paths"]}  # type: ignore[attr-defined]
    assert any(r.startswith("diff gave -") and r.endswith(" in diff") for r in returned), returned
    result = explore_source(tmp_path, SOURCE, "wrapped.py", "use_halve", "dse", "--max-iterations", "4")
    assert {p["returned"] for p in result["paths"]} >= {"halve: negative -1"}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "extra, what",
    [
        ("\n\ndef bad(n: int) -> int:\n    return halve(n, 1, 2)\n", r"a call of the decorated function 'halve' that its parameters may not bind"),
        ("\n\ndef bad(n: int) -> int:\n    g = halve\n    return g(n)\n", r"the decorated function 'halve' used other than called"),
        (
            "\n\ndef bad(n: int) -> int:\n    return triangle(n)\n",
            r"decorator that returns a wrapper function holding 'cache' besides the function \(state made once .*\) \(_memoize\.<locals>\.wrapper\)",
        ),
    ],
)
def test_what_is_not_modelled_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, what: str) -> None:
    import re

    path = tmp_path / "wrapped.py"
    path.write_text(SOURCE + extra, encoding="utf-8")
    assert re.search(what, refusal(path, "bad", "dse", capsys))


def test_generated_tests_pass(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "wrapped.py"
    path.write_text(SOURCE, encoding="utf-8")
    tests = tmp_path / "test_wrapped.py"
    assert main(["explore", f"{path}::use_halve", "--tests", str(tests), "--quiet", "--max-iterations", "4"]) in (0, 1)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


REBINDING = """\
def deco(f):
    def w(*args, **kwargs):
        try:
            raise ValueError(5)
        except ValueError as args:
            pass
        return f(*args, **kwargs)

    return w


@deco
def g(x: int) -> int:
    return x


def use(x: int) -> int:
    return g(x)
"""


def test_a_wrapper_rebinding_args_by_except_as_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``except ... as args`` rebinds (then unbinds) ``args``: CPython's forwarding call raises
    UnboundLocalError; the wrapper was taken as passing ``args`` on untouched (returns x: a
    wrong answer)."""
    path = tmp_path / "rebinding.py"
    path.write_text(REBINDING, encoding="utf-8")
    assert "decorator that returns a wrapper function other than one that passes on *args and **kwargs (deco.<locals>.w)" in refusal(path, "use", "dse", capsys)
