"""Constructs outside the supported subset: one line ``FILE:LINE:COL: unsupported: <what>``, exit 2.

Product rule: any construct outside the supported subset, inside the explored function (or in
code it reaches), is reported as exactly one stderr line
``file.py:LINE:COL: unsupported: <what>`` (COL is the 1-based ``col_offset + 1`` of the
offending node) and exit code 2, for ``explore`` and ``check`` alike; or, for a statement of
the explored code, as the paths that reach it cut there (cut kind ``unsupported``, the path's
line the statement's, the reason ``unsupported: <what>``), the rest explored. A construct in a function
that the analysis never reaches does not matter; ``explore FILE`` skips a function whose
parameters cannot be made symbolic with a one-line note and explores the others.

Every program below starts with a three-line header, so no construct sits on line 1 or 2.
The expected location of each case is given twice: as a line number (readable) and as the AST
node of the construct (``node``), from which the column is computed; the test checks that both
agree before running pathloom, so a typo in a case cannot make it pass.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from pathloom.cli import main

HEADER = '"""A program under test."""\n\n\n'  # three lines: the first construct line is >= 4
COMMANDS = ("explore", "check")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_program(tmp_path: Path, source: str, name: str = "prog.py") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def one_line(err: str) -> str:
    """The single stderr line (asserting there is exactly one and no traceback)."""
    assert "Traceback" not in err, err
    assert err.endswith("\n"), repr(err)
    lines = err.splitlines()
    assert len(lines) == 1, f"expected exactly one stderr line, got {len(lines)}: {err!r}"
    return lines[0]


def unsupported_re(path: Path) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(str(path))}:(\d+):(\d+): unsupported: (.+)$")


# ---------------------------------------------------------------- locating the offending node


Pick = Callable[[ast.AST], bool]


def _scope(tree: ast.Module, target: str) -> ast.AST:
    """The definition of ``target`` (``f`` or ``C.m``), searched in the whole module."""
    parts = target.split(".")
    body: list[ast.stmt] = tree.body
    found: ast.AST | None = None
    for part in parts:
        found = next(n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part)
        body = found.body  # type: ignore[attr-defined]
    assert found is not None
    return found


def locate(source: str, scope: str, node_type: type[ast.AST], pick: Pick | None) -> tuple[int, int]:
    """(line, 1-based column) of the first ``node_type`` node (satisfying ``pick``) in ``scope``."""
    tree = ast.parse(source)
    root = _scope(tree, scope)
    for node in ast.walk(root):
        if isinstance(node, node_type) and (pick is None or pick(node)):
            return node.lineno, node.col_offset + 1  # type: ignore[attr-defined]
    raise AssertionError(f"no {node_type.__name__} node in {scope}")


def named(name: str) -> Pick:
    return lambda n: getattr(n, "id", getattr(n, "arg", getattr(n, "name", None))) == name


def binop(op: type[ast.operator]) -> Pick:
    return lambda n: isinstance(n.op, op)  # type: ignore[attr-defined]


def const(kind: type) -> Pick:
    return lambda n: isinstance(n.value, kind)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the cases


@dataclass
class Case:
    id: str
    source: str
    line: int  # expected line (file line, header included)
    node: type[ast.AST]  # the offending node: its line must be ``line``; its column is expected
    pick: Pick | None = None
    what: str = ""  # a regex the <what> part must contain (case-insensitive), to tell the construct
    target: str = "f"  # the explored function (FILE::target)
    scope: str | None = None  # where the offending node is (default: the target)
    xfail: str | None = None  # what pathloom does instead (see the report)
    extra: dict[str, object] = field(default_factory=dict)


CASES = [
    # ---- statements
    Case(
        "with-statement",
        """
        def f(x: int) -> int:
            y = x + 1
            with open("data.txt") as fh:
                y = 2
            return y
        """,
        6,
        ast.Call,
        pick=lambda n: isinstance(n.func, ast.Name) and n.func.id == "open",
        what=r"\bwith\b",
    ),
    Case(
        "global-of-a-list",
        """
        ITEMS = []
        def f(x: int) -> int:
            global ITEMS
            ITEMS = [x]
            return x
        """,
        6,
        ast.Global,
        what=r"global 'ITEMS', which the module does not bind to a literal",
    ),
    # ast-valid; CPython's compiler would also reject it (there is no enclosing binding), but a
    Case(
        "del-attribute",
        """
        def f(xs: list[int]) -> int:
            y = 1
            del xs.count
            return y
        """,
        6,
        ast.Attribute,
        what=r"\bdel\b",
    ),
    Case(
        "relative-import-in-function",
        """
        def f(x: int) -> int:
            if x > 2:
                from . import helper
            return x
        """,
        6,
        ast.ImportFrom,
        what=r"relative import inside a function",
    ),
    Case(
        "from-import-of-an-unbound-name-in-function",
        """
        def f(x: int) -> int:
            from os import no_such_name
            return x
        """,
        5,
        ast.ImportFrom,
        what=r"from-import of 'no_such_name', which module 'os' does not bind yet",
    ),
    Case(
        "del-of-a-cell-variable",
        """
        def f(x: int) -> int:
            def g(a: int) -> int:
                return a + y
            y = 2
            del y
            return g(x)
        """,
        8,
        ast.Name,
        pick=lambda n: named("y")(n) and isinstance(n.ctx, ast.Del),
        what=r"del of 'y'",
    ),
    Case(
        "nested-class",
        """
        def f(x: int) -> int:
            class Point:
                pass
            return x
        """,
        5,
        ast.ClassDef,
        pick=named("Point"),
        what=r"class",
    ),
    Case(
        "match-class-pattern-of-a-local-name",
        """
        def f(x: int) -> int:
            kind = int
            match x:
                case kind(v):
                    return v
            return 1
        """,
        7,
        ast.Name,
        pick=lambda n: named("kind")(n) and isinstance(n.ctx, ast.Load),
        what=r"class pattern whose class 'kind' a function binds",
    ),
    Case(
        "async-def-target",
        """
        async def f(x: int) -> int:
            return x
        """,
        4,
        ast.AsyncFunctionDef,
        what=r"async",
    ),
    Case(
        "yield-in-lambda",
        """
        def f(x: int) -> int:
            g = lambda: (yield x)
            return g()
        """,
        5,
        ast.Yield,
        what=r"yield",
    ),
    Case(
        "yield-from-value",
        """
        def f(x: int) -> int:
            y = yield from [x]
        """,
        5,
        ast.YieldFrom,
        what=r"yield from",
    ),
    Case(
        "try-inside-finally",
        """
        def f(x: int) -> int:
            try:
                y = 10 // x
            finally:
                try:
                    x += 1
                except ValueError:
                    pass
            return y
        """,
        8,
        ast.Try,
        pick=lambda n: not n.finalbody,
        what=r"finally",
    ),
    Case(
        "raise-from",
        """
        def f(x: int) -> int:
            if x < 0:
                raise ValueError("negative") from KeyError(x)
            return x
        """,
        6,
        ast.Raise,
        what=r"from",
    ),
    # ---- expressions
    Case(
        "lambda-in-a-comprehension-over-a-later-variable",
        """
        def f(x: int) -> int:
            fs = [lambda: k for _ in range(x)]
            k = 4
            return len(fs)
        """,
        5,
        ast.Lambda,
        what=r"closes over 'k'",
    ),
    Case(
        "iteration-over-a-set-of-strs",
        """
        def f(xs: list[str]) -> int:
            s = set(xs)
            for w in s:
                return len(w)
            return 0
        """,
        6,
        ast.For,
        what=r"iteration order of a set that held a str",
    ),
    Case(
        "dict-changing-size-while-iterated",
        """
        def f(x: int) -> int:
            d = {x: 1}
            for k in d:
                d[k + 1] = 2
            return x
        """,
        6,
        ast.For,
        what=r"dictionary changed size during iteration",
    ),
    Case(
        "generator-expression",
        """
        def f(xs: list[int]) -> int:
            g = (w + 1 for w in xs)
            return sum(g)
        """,
        5,
        ast.GeneratorExp,
        what=r"generator",
    ),
    Case(
        "construct-in-an-f-string",
        """
        def f(x: int) -> str:
            return f"x={(w for w in range(x))}"
        """,
        5,
        ast.GeneratorExp,
        what=r"generator expression",
    ),
    Case(
        "augmented-slice-assignment",
        """
        def f(xs: list[int]) -> int:
            xs[:1] += [0]
            return 0
        """,
        5,
        ast.Subscript,
        what=r"assignment to a slice",
    ),
    Case(
        "del-slice",
        """
        def f(xs: list[int]) -> int:
            del xs[1:]
            return 0
        """,
        5,
        ast.Subscript,
        what=r"\bdel\b",
    ),
    Case(
        "extended-slicing",
        """
        def f(xs: list[int]) -> int:
            return xs[1:2, 0]
        """,
        5,
        ast.Slice,
        what=r"extended slicing",
    ),
    Case(
        "augmented-matmul",
        """
        def f(x: int) -> int:
            x @= 2
            return x
        """,
        5,
        ast.AugAssign,
        what=r"@|matmul|mult",
    ),
    Case(
        "matmul",
        """
        def f(x: int) -> int:
            return x @ x
        """,
        5,
        ast.BinOp,
        pick=binop(ast.MatMult),
        what=r"@|matmul|mult",
    ),
    Case(
        "ellipsis-literal",
        """
        def f(x: int) -> int:
            b = ...
            return x
        """,
        5,
        ast.Constant,
        pick=const(type(...)),
        what=r"ellipsis",
    ),
    Case(
        "complex-literal",
        """
        def f(x: int) -> int:
            c = 2j
            return x
        """,
        5,
        ast.Constant,
        pick=const(complex),
        what=r"complex",
    ),
    # ---- the target's definition and parameters
    Case(
        "wrapper-decorator-on-target",
        """
        def deco(fn):
            calls = []
            def wrapper(a: int) -> int:
                calls.append(a)
                return fn(a) + 1
            return wrapper
        @deco
        def f(x: int) -> int:
            return x
        """,
        10,
        ast.Name,
        pick=named("deco"),
        what=r"decorator that returns a wrapper function holding 'calls' besides the function \(state made once when the decorator ran and shared by every call: not modelled\) \(deco\.<locals>\.wrapper\)",
    ),
    Case(
        "star-args-parameter",
        """
        def f(x: int, *args: int) -> int:
            return x
        """,
        4,
        ast.arg,
        pick=named("args"),
        what=r"\*args|var",
    ),
    Case(
        "double-star-kwargs-parameter",
        """
        def f(x: int, **kwargs: int) -> int:
            return x
        """,
        4,
        ast.arg,
        pick=named("kwargs"),
        what=r"\*\*kwargs|keyword",
    ),
    Case(
        "positional-only-parameter-of-an-input-constructor",
        """
        class P:
            def __init__(self, x: int, /) -> None:
                self.x = x
            def m(self) -> int:
                return self.x
        """,
        5,
        ast.arg,
        target="P.m",
        scope="P.__init__",
        pick=named("x"),
        what=r"positional-only parameter 'x' of a constructor that builds an input",
    ),
    Case(
        "parameter-without-annotation-or-default",
        """
        def f(x: int, y) -> int:
            return x
        """,
        4,
        ast.arg,
        pick=named("y"),
        what=r"annotation",
    ),
    Case(
        "non-literal-default-of-a-nested-function",
        """
        def f(x: int) -> int:
            def g(a: int = len("ab")) -> int:
                return a
            return g()
        """,
        5,
        ast.Call,
        pick=lambda n: isinstance(n.func, ast.Name) and n.func.id == "len",
        what=r"default",
    ),
    Case(
        "complex-input",
        """
        def f(x: int,
              y: complex) -> complex:
            return y
        """,
        5,
        ast.arg,
        pick=named("y"),
        what=r"complex",
    ),
    Case(
        "dict-input-with-float-keys",
        """
        def f(d: dict[float, int]) -> int:
            return 0
        """,
        4,
        ast.arg,
        pick=named("d"),
        what=r"dict",
    ),
    Case(
        "set-of-variable-tuples-input",
        """
        def f(xs: set[tuple[int, ...]]) -> int:
            return 0
        """,
        4,
        ast.arg,
        pick=named("xs"),
        what=r"set\[tuple\[int,\.\.\.\]\]",
    ),
    # ---- names and operations found while executing (run-time checks of the engine)
    Case(
        "is-comparison-of-ints",
        """
        def f(x: int) -> int:
            if x is 3:
                return 1
            return 0
        """,
        5,
        ast.Compare,
        what=r"\bis\b",
    ),
    # ---- reached code other than the target's own body
    Case(
        "construct-in-a-called-function",
        """
        def g(x: int) -> int:
            with open("f") as fh:
                return x
        def f(x: int) -> int:
            if x > 3:
                return g(x)
            return 0
        """,
        5,
        ast.Call,
        pick=lambda n: isinstance(n.func, ast.Name) and n.func.id == "open",
        what=r"with",
        scope="g",
    ),
    Case(
        "construct-in-a-method-target",
        """
        class C:
            def __init__(self, v: int) -> None:
                self.v = v
            def m(self, x: int) -> int:
                return self.v @ x
        """,
        8,
        ast.BinOp,
        target="C.m",
        what=r"@|matmul|mult",
    ),
    Case(
        "construct-in-a-lambda-body",
        """
        def f(x: int) -> int:
            g = lambda a: a @ 1
            return g(x)
        """,
        5,
        ast.BinOp,
        pick=binop(ast.MatMult),
        what=r"@|matmul|mult",
    ),
]


def _params() -> list[object]:
    params = []
    for case in CASES:
        for command in COMMANDS:
            marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
            params.append(pytest.param(case, command, id=f"{case.id}-{command}", marks=marks))
    return params


def test_case_ids_are_unique() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("case", "command"), _params())
def test_unsupported_construct(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Case, command: str) -> None:
    path = write_program(tmp_path, case.source)
    source = path.read_text(encoding="utf-8")
    scope = case.scope or case.target
    expected = {locate(source, scope, case.node, case.pick)}
    assert next(iter(expected))[0] == case.line, "the case's line and node disagree"
    alt = case.extra.get("alt")
    if alt is not None:
        expected.add(locate(source, scope, alt[0], alt[1]))  # type: ignore[index]

    report = tmp_path / "report.json"
    code, _out, err = run_cli(capsys, command, f"{path}::{case.target}", "--json", str(report))

    if code != 2:  # a statement of the explored code: the path that reaches it is cut there
        assert "Traceback" not in err and code in (0, 1), (code, err)
        entry = json.loads(report.read_text(encoding="utf-8"))
        cuts = [(p["line"], p["reason"]) for p in entry["paths"] if p["outcome"] == "cut" and p["cut"] == "unsupported"]
        assert cuts, f"neither refused nor a path cut at the construct: {entry['paths']}"
        assert all(line == case.line for line, _ in cuts), f"cut at {cuts}, expected line {case.line}"
        assert all(re.search(case.what, reason, re.IGNORECASE) for _, reason in cuts), f"the reason does not name the construct: {cuts}"
        return
    line = one_line(err)
    match = unsupported_re(path).match(line)
    assert match, f"not 'FILE:LINE:COL: unsupported: <what>': {line!r}"
    assert code == 2
    got = (int(match.group(1)), int(match.group(2)))
    assert got[0] == case.line, f"line {got[0]}, expected {case.line}: {line!r}"
    assert got in expected, f"location {got}, expected one of {sorted(expected)}: {line!r}"
    assert re.search(case.what, match.group(3), re.IGNORECASE), f"<what> does not name the construct: {line!r}"


# ---------------------------------------------------------------- what is not an error


def test_print_is_supported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_program(
        tmp_path,
        """
        def f(x: int) -> int:
            print("x is", x)
            return x
        """,
    )
    for command in COMMANDS:
        code, _out, err = run_cli(capsys, command, f"{path}::f")
        assert (code, err) == (0, "")


UNCALLED = """
    import math

    TABLE = {1: [2, 3]}


    def helper(x: int) -> int:
        with open("f") as fh:
            return {x: [i for i in range(x)]}[x] / 2 + math.sqrt(x) + (x & 1)


    async def later() -> None:
        pass


    def f(x: int) -> int:
        if x > 10:
            assert x != 12, "twelve"
        return x


    def fine(x: int) -> int:
        if x > 10:
            return 1
        return 0


    if __name__ == "__main__":
        print(helper(3))
    """


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("target", "expected_code"), [("f", 1), ("fine", 0)])
def test_unsupported_code_in_an_uncalled_function_does_not_matter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, target: str, expected_code: int
) -> None:
    path = write_program(tmp_path, UNCALLED)
    code, out, err = run_cli(capsys, command, f"{path}::{target}")
    assert err == ""
    assert code == expected_code
    if expected_code == 1:
        assert "AssertionError" in out


WHOLE_FILE = """
    def a(x: complex) -> complex:
        return x * 2


    def b(x: int) -> int:
        y = x; assert y != 7  # not the first statement: no precondition, its failure is a bug
        return x


    def c(x: int, y) -> int:
        return x


    def d(x: int) -> int:
        if x > 0:
            return 1
        return 0
    """


@pytest.mark.parametrize("command", COMMANDS)
def test_whole_file_skips_functions_whose_parameters_cannot_be_symbolic(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    path = write_program(tmp_path, WHOLE_FILE)
    code, out, err = run_cli(capsys, command, str(path))
    assert "Traceback" not in err
    notes = err.splitlines()
    assert len(notes) == 2, f"one note per skipped function (a and c), got: {err!r}"
    pattern = unsupported_re(path)
    a_note, c_note = notes
    a_match, c_match = pattern.match(a_note), pattern.match(c_note)
    assert a_match and c_match, notes
    assert int(a_match.group(1)) == 4 and "complex" in a_note
    assert int(c_match.group(1)) == 13 and "'y'" in c_note
    # the others are still explored: b's bug decides the exit code, d is reported too
    assert code == 1
    assert f"{path}::b" in out
    assert "AssertionError" in out
    if command == "explore":
        assert f"{path}::d" in out
    # the skipped ones have their entry, with the one-line reason
    assert f"{path}::a\n  not explored: {a_note.split(' (target ')[0]}\n" in out
    assert f"{path}::c\n  not explored: {c_note.split(' (target ')[0]}\n" in out


def test_whole_file_with_nothing_analyzable_is_an_unsupported_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_program(
        tmp_path,
        """
        def a(x: complex) -> complex:
            return x * 2
        """,
    )
    code, _out, err = run_cli(capsys, "explore", str(path))
    assert unsupported_re(path).match(one_line(err))
    assert code == 2


# ---------------------------------------------------------------- the real executable


def _pathloom_executable() -> Path:
    for candidate in (Path(sys.executable).parent / "pathloom", Path(__file__).resolve().parents[2] / ".venv" / "bin" / "pathloom"):
        if candidate.exists():
            return candidate
    pytest.skip("no pathloom console script next to the interpreter")


@pytest.mark.parametrize(("case_id", "command"), [("async-def-target", "check"), ("star-args-parameter", "explore")])
def test_unsupported_through_the_console_script(tmp_path: Path, case_id: str, command: str) -> None:
    case = next(c for c in CASES if c.id == case_id)
    path = write_program(tmp_path, case.source)
    proc = subprocess.run(
        [str(_pathloom_executable()), command, f"{path}::{case.target}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    match = unsupported_re(path).match(one_line(proc.stderr))
    assert match and int(match.group(1)) == case.line, proc.stderr
