"""Parameters of every kind (``semantics.binding``): keyword-only, positional-only, ``*args``
and ``**kwargs``, in the functions the explored code calls, and keyword-only and
positional-only parameters of the explored function itself.

Each call of ``CALLS`` is one branch of the target ``calls(x)``; every engine must give, for
every branch, exactly what CPython gives: the bound values (defaults, keyword-only defaults,
the extra positionals as a tuple, the extra keywords as a dict in call order) or CPython's
TypeError with its own message, computed here by running the same source in CPython (and
every reported input is replayed by ``--verify`` too); a lambda is named as CPython names it,
also inside comprehensions (``f.<locals>.<listcomp>.<lambda>``). The explored function's ``*args`` and
``**kwargs`` are refused with one line (the inputs name every parameter)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.api import Run
from pathloom.cli import main
from pathloom.domain.outcome import Ok, Throw
from pathloom.domain.values import Ref
from pathloom.encoding.values import encode_python
from pathloom.engines.registry import engine_names
from pathloom.frontend.module import load_module, parse_module
from pathloom.options import Options
from pathloom.semantics.binding import bind
from tests.unit.verified import explore_source, refusal

ENGINES = engine_names()

CALLEES = """
def po(a, b, /, c=3):
    return (a, b, c)


def ko(a, *, b, c=3):
    return (a, b, c)


def va(a, *args):
    return (a, args)


def vk(a, **kw):
    return (a, kw)


def every(a, /, b, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)


def kwo(*, b, c):
    return (b, c)


def k3(*, a, b, c):
    return a


def kd(*, n=len("ab"), m=[1][0]):
    return n + m


class C:
    def m(self, a, /, *rest, k=0, **named):
        return (a, rest, k, named)

    @staticmethod
    def s(*, x):
        return x
"""

CALLS = [
    "po(1, 2)",
    "po(1, 2, 5)",
    "po(1, 2, c=7)",
    "po(a=1, b=2)",
    "po(1, b=2)",
    "po(1)",
    "po(1, 2, 3, 4)",
    "po(1, 2, d=1)",
    "po(1, 2, a=1, d=1)",
    "ko(1, b=2)",
    "ko(1, 2)",
    "ko(1)",
    "ko(1, b=2, c=4)",
    "ko(b=1, a=2)",
    "ko(1, 2, b=3)",
    "ko(1, 2, 3, b=1, c=2)",
    "ko(1, b=2, z=3)",
    "ko(1, a=2, b=3)",
    "va(1)",
    "va(1, 2, 3)",
    "va()",
    "va(1, a=2)",
    "va(1, args=2)",
    "va(*[1, 2], *(3,))",
    "vk(1)",
    "vk(1, x=2, y=3)",
    "vk(a=1, b=2)",
    "vk(1, a=2)",
    "vk(**{'a': 1, 'kw': 2})",
    "vk(1, 2)",
    "every(1, 2, c=3)",
    "every(1, 2, 3, 4, c=5, d=6, e=7, a=8)",
    "every(1, c=3)",
    "every(1, 2)",
    "every()",
    "every(1, b=2, c=3, b2=4)",
    "every(x, *[x, x], **{'c': x, 'z': x})",
    "kwo(b=1, c=2)",
    "kwo(1)",
    "kwo()",
    "kwo(1, b=1, c=2)",
    "kwo(1, 2, b=1)",
    "k3()",
    "k3(b=1)",
    "kd()",
    "kd(m=5)",
    "C().m(1, 2, 3, k=4, z=5)",
    "C().m(a=1)",
    "C().m()",
    "C.s(x=1)",
    "C.s(1)",
    "(lambda *a, **k: (a, k))(1, z=2)",
    "(lambda a, /: a)(a=1)",
    "(lambda *, a: a)(1)",
    "[(lambda a, /: a)(a=v) for v in [x]]",
    "[[(lambda *, k: k)(w) for w in [v]] for v in [x]]",
    "sum((lambda q: q)() for v in [x])",
    "(lambda: (lambda q: q)())()",
    "list(map(lambda v: v(1), [lambda: 0]))",
    "{v: (lambda: 0)(1) for v in [x]}",
    "[sorted([v], key=lambda a, b: a) for v in [x]]",
]


def _source() -> str:
    branches = "".join(f"    if x == {i}:\n        return {call}\n" for i, call in enumerate(CALLS))
    return CALLEES + "\n\ndef calls(x: int) -> object:\n" + branches + "    return None\n"


def _cpython(source: str, x: int) -> dict[str, object]:
    space: dict[str, object] = {}
    exec(compile(source, "params.py", "exec"), space)
    try:
        return {"outcome": "return", "returned": encode_python(space["calls"](x))}  # type: ignore[operator]
    except TypeError as exc:
        return {"outcome": "raise", "exception": "TypeError", "message": str(exc)}


@pytest.mark.parametrize("engine", ENGINES)
def test_every_call_binds_as_cpython_does(tmp_path: Path, engine: str) -> None:
    source = _source()
    result = explore_source(tmp_path, source, "params.py", "calls", engine)
    assert result["complete"]
    paths: list[dict[str, object]] = result["paths"]  # type: ignore[assignment]
    seen = set()
    for path in paths:
        x = path["inputs"]["x"]  # type: ignore[index]
        expected = _cpython(source, x)  # type: ignore[arg-type]
        got = {k: path.get(k) for k in expected}
        assert got == expected, (CALLS[x] if 0 <= x < len(CALLS) else x, got, expected)  # type: ignore[operator]
        seen.add(x)
    assert set(range(len(CALLS))) <= seen


def test_some_messages_are_cpythons_own() -> None:
    """Spot checks of the table against the messages the brief names (CPython 3.11)."""
    source = _source()
    expected = {
        "po(a=1, b=2)": "po() got some positional-only arguments passed as keyword arguments: 'a, b'",
        "kwo()": "kwo() missing 2 required keyword-only arguments: 'b' and 'c'",
        "k3()": "k3() missing 3 required keyword-only arguments: 'a', 'b', and 'c'",
        "ko(1, b=2, z=3)": "ko() got an unexpected keyword argument 'z'",
        "po(1, 2, 3, 4)": "po() takes from 2 to 3 positional arguments but 4 were given",
        "ko(1, a=2, b=3)": "ko() got multiple values for argument 'a'",
        "kwo(1, b=1, c=2)": "kwo() takes 0 positional arguments but 1 positional argument (and 2 keyword-only arguments) were given",
        "(lambda a, /: a)(a=1)": "calls.<locals>.<lambda>() got some positional-only arguments passed as keyword arguments: 'a'",
        "[[(lambda *, k: k)(w) for w in [v]] for v in [x]]": "calls.<locals>.<listcomp>.<listcomp>.<lambda>() takes 0 positional arguments but 1 was given",
    }
    for call, message in expected.items():
        assert _cpython(source, CALLS.index(call)) == {"outcome": "raise", "exception": "TypeError", "message": message}


SYMBOLIC = """
def total(first, /, *args, scale=1, **kw):
    result = first
    for v in args:
        result += v
    for k in kw:
        result += kw[k]
    return result * scale


def sym(a: int, b: int, n: int) -> int:
    extra = {"q": b}
    if n > 0:
        extra["r"] = n
    r = total(a, *[b, n], scale=2, **extra)
    if r > 10:
        return r
    if r == 4:
        raise ValueError("four")
    return -r
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_symbolic_values_flow_through_star_parameters(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SYMBOLIC, "sym.py", "sym", engine)
    assert result["complete"]
    paths: list[dict[str, object]] = result["paths"]  # type: ignore[assignment]
    outcomes = {(p["outcome"], p.get("message")) for p in paths}
    assert ("raise", "four") in outcomes and ("return", None) in outcomes
    for path in paths:
        a, b, n = (path["inputs"][k] for k in ("a", "b", "n"))  # type: ignore[index]
        r = (a + b + n + b + (n if n > 0 else 0)) * 2
        if path["outcome"] == "return":
            assert path["returned"] == (r if r > 10 else -r)
        else:
            assert r == 4


TARGETS = """
def kw_target(a: int, /, b: int, *, c: int, d: int = 2) -> int:
    if a > b:
        return a - c
    if c == d:
        raise ValueError("c is d")
    return b + d


class Acc:
    def __init__(self, start: int, *, step: int = 1) -> None:
        self.total = start
        self.step = step

    def add(self, n: int, /, *, times: int) -> int:
        if times > 2:
            return self.total + n * times * self.step
        return n


def skipped_default(a=5, b: int = 2, /) -> int:
    if b > a:
        return b
    return a


def only_keywords(*, c: int, d: int = 2) -> int:
    if c > d:
        return c
    return d


def star_target(a: int, *args: int) -> int:
    return a


def kwargs_target(a: int, **kw: int) -> int:
    return a


class Bag:
    def __init__(self, n: int, *, extra: int = 0) -> None:
        self.items = [n, extra]

    def total(self) -> int:
        return self.items[0] + self.items[1]


def use(x: int, *, bag: Bag) -> int:
    if bag.total() > x:
        return 1
    return 0


class Rec:
    def __init__(self, *vals: int) -> None:
        self.n = len(vals)

    def get(self) -> int:
        return self.n


class Pos:
    def __init__(self, v: int, /) -> None:
        self.v = v

    def get(self) -> int:
        return self.v
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_keyword_only_and_positional_only_parameters_of_the_target_are_inputs(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, TARGETS, "targets.py", "kw_target", engine)
    assert result["complete"]
    paths: list[dict[str, object]] = result["paths"]  # type: ignore[assignment]
    assert sorted(p["outcome"] for p in paths) == ["raise", "return", "return"]
    for path in paths:
        inputs: dict[str, int] = path["inputs"]  # type: ignore[assignment]
        assert set(inputs) == {"a", "b", "c", "d"}
        a, b, c, d = inputs["a"], inputs["b"], inputs["c"], inputs["d"]
        if path["outcome"] == "raise":
            assert (a <= b and c == d, path["message"]) == (True, "c is d")
        else:
            assert path["returned"] == (a - c if a > b else b + d)
    for target in ("Acc.add", "Acc.__init__", "only_keywords"):
        assert explore_source(tmp_path, TARGETS, "targets.py", target, engine)["complete"], target
    # skipped_default: its unannotated first positional-only parameter is an int input (its
    # default's type), reported as a type inferred; both are passed by position
    skipped = explore_source(tmp_path, TARGETS, "targets.py", "skipped_default", engine)
    assert skipped["untried"] == ["a: no annotation; only int tried (from its default 5)"]
    assert {p["returned"] == max(p["inputs"]["a"], p["inputs"]["b"]) for p in skipped["paths"]} == {True}  # type: ignore[index, union-attr, attr-defined]
    # a keyword-only parameter its class's constructor builds (with a keyword-only argument)
    paths = explore_source(tmp_path, TARGETS, "targets.py", "use", engine)["paths"]
    assert sorted(p["returned"] for p in paths) == [0, 1]  # type: ignore[index, union-attr, attr-defined]


@pytest.mark.parametrize("engine", ENGINES)
def test_star_parameters_of_the_target_and_positional_only_constructor_inputs_are_refused(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "targets.py"
    path.write_text(TARGETS, encoding="utf-8")
    assert refusal(path, "star_target", engine, capsys) == (
        f"{path}:{_at('args')}: unsupported: *args parameter of the explored function (only the functions it calls may take *args and **kwargs)"
    )
    assert refusal(path, "kwargs_target", engine, capsys) == (
        f"{path}:{_at('kw')}: unsupported: **kw parameter of the explored function (only the functions it calls may take *args and **kwargs)"
    )
    assert refusal(path, "Rec.get", engine, capsys) == (
        f"{path}:{_at('vals')}: unsupported: *vals parameter of a constructor that builds an input (only the functions it calls may take *args and **kwargs)"
    )
    assert refusal(path, "Pos.get", engine, capsys) == (
        f"{path}:{_at('v')}: unsupported: positional-only parameter 'v' of a constructor that builds an input (its JSON form names each argument)"
    )


def _at(name: str) -> str:
    """``LINE:COL`` (1-based) of the parameter ``name`` in ``TARGETS`` (one of that name)."""
    found = [f"{a.lineno}:{a.col_offset + 1}" for a in ast.walk(ast.parse(TARGETS)) if isinstance(a, ast.arg) and a.arg == name]
    assert len(found) == 1, found
    return found[0]


def _generated_tests_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> str:
    source = tmp_path / "targets.py"
    source.write_text(TARGETS, encoding="utf-8")
    tests = tmp_path / f"test_{target.replace('.', '_')}.py"
    assert main(["explore", f"{source}::{target}", "--tests", str(tests), "--quiet"]) in (0, 1)
    capsys.readouterr()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tests)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    output = proc.stdout + proc.stderr
    assert re.search(r"\d+ passed", output) and not re.search(r"\d+ (failed|errors?)", output), output
    return tests.read_text(encoding="utf-8")


def test_generated_tests_pass_keyword_only_inputs_by_keyword(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _generated_tests_pass(tmp_path, capsys, "only_keywords")
    assert "_module.only_keywords(c=" in text
    _generated_tests_pass(tmp_path, capsys, "Acc.__init__")


def test_generated_tests_pass_positional_only_inputs_by_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _generated_tests_pass(tmp_path, capsys, "kw_target")


# ---------------------------------------------------------------- binding against CPython, at random

NAMES = ("a", "b", "c", "d", "e")


@st.composite
def _signature_and_call(draw: st.DrawFn) -> tuple[str, tuple[int, ...], tuple[tuple[str, int], ...]]:
    """A ``def`` with parameters of every kind (some defaults), and a call of it: positional
    values and keywords (parameter names, and others)."""
    names = list(NAMES)
    kinds = draw(st.lists(st.sampled_from(["posonly", "", "kwonly"]), max_size=4).map(lambda ks: sorted(ks, key=["posonly", "", "kwonly"].index)))
    texts: list[str] = []
    defaulted = False
    for i, kind in enumerate(kinds):
        if kind == "kwonly" and (i == 0 or kinds[i - 1] != "kwonly"):
            texts.append("*args" if draw(st.booleans()) else "*")
        if kind == "kwonly":
            default = draw(st.booleans())
        else:  # a positional parameter after one with a default has one too
            default = defaulted = defaulted or draw(st.booleans()) and draw(st.booleans())
        texts.append(names[i] + (f"={10 * (i + 1)}" if default else ""))
        if kind == "posonly" and (i + 1 == len(kinds) or kinds[i + 1] != "posonly"):
            texts.append("/")
    if "kwonly" not in kinds and draw(st.booleans()):
        texts.append("*args")
    if draw(st.booleans()):
        texts.append("**kw")
    source = f"def f({', '.join(texts)}):\n    return 0\n"
    positional = tuple(range(1, draw(st.integers(0, 5)) + 1))
    keys = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "z", "args", "kw"]), max_size=4, unique=True))
    return source, positional, tuple((k, 100 + i) for i, k in enumerate(keys))


class _Heap:
    def __init__(self) -> None:
        self.made = 0

    def fresh(self) -> Ref:
        self.made += 1
        return Ref(-self.made)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(_signature_and_call())
def test_binding_is_cpythons_at_random(case: tuple[str, tuple[int, ...], tuple[tuple[str, int], ...]]) -> None:
    """``semantics.binding.bind`` gives, for random signatures and calls, the values CPython
    binds (its ``locals()`` at entry: ``*args`` a tuple, ``**kw`` a dict in call order) or
    CPython's TypeError with its message."""
    source, args, kwargs = case
    space: dict[str, object] = {}
    exec(source.replace("return 0", "return dict(locals())"), space)
    try:
        expected: object = space["f"](*args, **dict(kwargs))  # type: ignore[operator]
    except TypeError as exc:
        expected = str(exc)
    module = parse_module(source, "sig.py")
    heap = _Heap()
    outcome, writes = bind(module, "f", args, kwargs, heap)  # type: ignore[arg-type]
    if isinstance(outcome, Throw):
        assert (outcome.exc.cls, outcome.exc.args[0]) == ("TypeError", expected), source
        return
    assert isinstance(outcome, Ok), source
    records = {ref: record for ref, record in writes}
    got = {}
    for p, value in zip(module.function("f").params, outcome.value):  # type: ignore[call-overload]
        if isinstance(value, Ref):
            record = records[value]
            value = dict(zip(record.keys, record.values))
        got[p.name] = value
    assert got == expected, source


def test_the_exploration_names_the_positional_only_parameters(tmp_path: Path) -> None:
    """``Exploration.positional_only``: what a caller passes by position (never the receiver)."""
    path = tmp_path / "targets.py"
    path.write_text(TARGETS, encoding="utf-8")
    module = load_module(str(path))
    expected = {"kw_target": ("a",), "Acc.add": ("n",), "only_keywords": (), "skipped_default": ("a", "b")}
    assert {target: Run(module, target, Options()).exploration.positional_only for target in expected} == expected
