"""Decorators on top-level functions (``frontend.lowering.decorators``, ``wrappers``) and imports inside a
function (``frontend.lowering.imports``), in every engine, every reported input replayed in
CPython (``--verify``) and the generated pytest tests passing; what is not modelled is refused
with one line at the decorator (or the statement)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names

from .verified import explore_source, refusal

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    import functools
    from functools import cache, lru_cache, wraps


    def keep(f):
        return f


    @keep
    @cache
    def fib(n: int) -> int:
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)


    @functools.lru_cache(maxsize=4, typed=True)
    def label(x: int, s: str) -> str:
        if x > 2 and s == "a":
            return s + str(x)
        return s


    @lru_cache
    def half(x: int) -> int:
        return x // 2


    def uses(n: int, xs: list[int]) -> int:
        if n > 3:
            return half(xs)
        return fib(n) + len(label(n, "a"))


    @keep
    def kept(x: int) -> int:
        if x > 5:
            return 1
        return 0


    def imports(x: int) -> int:
        import math
        import math as m
        from math import gcd as g
        from collections import Counter
        if x > 3:
            return math.gcd(x, 6) + m.isqrt(x) + g(x, 4)
        return Counter([x, x])[x]


    def late_import(x: int) -> int:
        if x > 0:
            import math
        return math.floor(x)


    @cache
    def noisy(x: int) -> int:
        print(x)
        return x


    @cache
    def listed(x: int) -> list[int]:
        return [x]


    def deco(f):
        @wraps(f)
        def wrapper(*args, **kwargs):
            return f(*args, **kwargs) + 1
        return wrapper


    @deco
    def wrapped(x: int, y: int = 2) -> int:
        if x > y:
            return x
        return wrapped(x + 1, y)


    def calls_wrapped(x: int) -> int:
        return wrapped(x, y=3) + wrapped(x)


    def peek(f):
        def w(*args, **kwargs):
            if args and args[0] > 3:
                return 0
            return f(*args, **kwargs)
        return w


    @peek
    def peeked(x: int) -> int:
        return x



    def missing(x: int) -> int:
        from collections import no_such_name
        return x
""")


def _explore(tmp_path: Path, target: str, engine: str) -> dict[str, object]:
    return explore_source(tmp_path, SOURCE, "decos.py", target, engine, "--timeout", "20", "--max-iterations", "6")


def _outcomes(result: dict[str, object]) -> set[tuple[object, ...]]:
    return {(p["outcome"], p.get("returned"), p.get("exception"), p.get("line")) for p in result["paths"]}  # type: ignore[attr-defined,index]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cached_function_is_its_body_and_an_unhashable_argument_raises(tmp_path: Path, engine: str) -> None:
    result = _explore(tmp_path, "uses", engine)
    assert result["complete"]
    outcomes = _outcomes(result)
    line = SOURCE.splitlines().index("        return half(xs)") + 1
    assert ("raise", None, "TypeError", line) in outcomes  # CPython's, at the caller's line
    assert any(o[0] == "return" for o in outcomes)  # fib(n) + len(...): each replayed (--verify)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["label", "kept", "imports", "late_import", "wrapped", "calls_wrapped"])
def test_decorated_functions_and_local_imports_are_explored(tmp_path: Path, engine: str, target: str) -> None:
    result = _explore(tmp_path, target, engine)
    assert len(result["paths"]) >= 2  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wrapper_runs_around_every_call_recursive_ones_too(tmp_path: Path, engine: str) -> None:
    result = _explore(tmp_path, "wrapped", engine)
    returned = {(p["inputs"]["x"], p["inputs"]["y"], p["returned"]) for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[attr-defined,index]
    assert returned and all(r == max(x, y + 1) + 1 + max(0, y + 1 - x) for x, y, r in returned)  # one +1 per call


def test_a_call_a_wrapped_function_may_not_bind_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "decos.py"
    path.write_text(SOURCE + "\n\ndef star_call(xs: list[int]) -> int:\n    return wrapped(*xs)\n", encoding="utf-8")
    assert main(["explore", f"{path}::star_call", "--quiet"]) == 2
    assert "unsupported: a call of the decorated function 'wrapped' that its parameters may not bind" in capsys.readouterr().err


def test_a_name_imported_in_a_branch_is_unbound_on_the_other(tmp_path: Path) -> None:
    outcomes = _outcomes(_explore(tmp_path, "late_import", "dse"))
    assert {o[2] for o in outcomes} == {None, "UnboundLocalError"}


@pytest.mark.parametrize(
    "target, what",
    [
        ("noisy", r"decos\.py:\d+:5: unsupported: a cached function that reads 'print' \(the cache could change what the program observes\)"),
        (
            "peeked",
            r"decos\.py:\d+:2: unsupported: decorator that returns a wrapper function other than one that passes on \*args and \*\*kwargs \(peek\.<locals>\.w\)",
        ),
        ("missing", r"decos\.py:\d+:5: unsupported: from-import of 'no_such_name', which module 'collections' does not bind yet"),
    ],
)
def test_what_is_not_modelled_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, what: str) -> None:
    path = tmp_path / "decos.py"
    path.write_text(SOURCE, encoding="utf-8")
    for engine in ENGINES:
        assert re.search(what, refusal(path, target, engine, capsys))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cached_function_returning_a_mutable_value_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    path = tmp_path / "decos.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert "unsupported: a cached function called with or returning a mutable value" in refusal(path, "listed", engine, capsys)


@pytest.mark.parametrize("target", ["uses", "imports", "wrapped"])
def test_generated_tests_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    source = tmp_path / "decos.py"
    source.write_text(SOURCE, encoding="utf-8")
    tests = tmp_path / f"test_{target}.py"
    assert main(["explore", f"{source}::{target}", "--tests", str(tests), "--quiet", "--timeout", "20"]) in (0, 1)
    capsys.readouterr()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tests)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    output = proc.stdout + proc.stderr
    assert re.search(r"\d+ passed", output) and not re.search(r"\d+ (failed|errors?)", output), output


BOOL_KEYS = textwrap.dedent("""
    from functools import cache


    @cache
    def show(a, b):
        return str(a) + str(b)


    def target(x: int) -> str:
        first = show(x > 0, 2)
        return first + show(1, 2)
""")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cached_function_called_with_a_bool_is_unsupported(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    """A wrong answer before: after ``show(True, 2)`` CPython's ``show(1, 2)`` is the cached
    ``'True2'`` (``True == 1`` is one key); the cache modelled as the body alone said ``'12'``."""
    path = tmp_path / "boolkeys.py"
    path.write_text(BOOL_KEYS, encoding="utf-8")
    assert "unsupported: a cached function called with a bool or float argument" in refusal(path, "target", engine, capsys)
