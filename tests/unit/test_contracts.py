"""Contracts (``frontend.contracts``): PEP 316 docstrings, icontract and deal. Preconditions
constrain the inputs (a violation is no bug), postconditions are checked on every path (a
violation is a bug with its counterexample, confirmed in CPython by the replay child, which
checks the same instrumented function), in every engine; what is not modelled is refused with
one line, never ignored; generated tests pass against the real code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pathloom.cli import main

CONTRACTED = '''
import icontract
import deal


def bad_pct(x: int) -> int:
    """Clamp a percentage.

    pre: x >= 0
    post: __return__ <= 100
    """
    if x > 200:
        return 100
    return x


def good_pct(x: int) -> int:
    """pre: x >= 0
    post: 0 <= __return__ <= 100
    """
    return min(x, 100)


@icontract.require(lambda x: x > 0)
@icontract.ensure(lambda result, x: result < x)
def halve(x: int) -> int:
    return x // 2


@icontract.require(lambda x: x >= 0)
@icontract.ensure(lambda result, x: result < x)
def halve_zero(x: int) -> int:
    return x // 2


@deal.pre(lambda xs: len(xs) > 0)
@deal.ensure(lambda xs, result: result in xs)
def first_max(xs: list[int]) -> int:
    best = xs[0]
    for v in xs:
        if v > best:
            best = v + 1
    return best


@deal.post(lambda result: result >= 0)
def distance(a: int, b: int) -> int:
    return abs(a - b)


def append_one(xs: list[int]) -> None:
    """post: len(xs) == len(__old__.xs) + 1"""
    xs.append(1)
    if len(xs) > 3:
        xs.pop()


@icontract.ensure(
    lambda result, x: result is None
    or result > x
)
def maybe_up(x: int) -> int | None:
    if x == 3:
        return x
    return x + 1


@icontract.snapshot(lambda xs: xs[:])
@icontract.ensure(lambda OLD, xs: len(xs) == len(OLD.xs))
def touch(xs: list[int]) -> None:
    if xs and xs[0] == 7:
        xs.append(0)
'''


def _line(fragment: str) -> int:
    """The line of ``CONTRACTED`` that holds ``fragment``."""
    return next(n for n, text in enumerate(CONTRACTED.split("\n"), 1) if fragment in text)


# target -> the line of the postcondition some input violates, or None: no bug
EXPECTED = {
    "bad_pct": _line("post: __return__ <= 100"),  # for 100 < x <= 200
    "good_pct": None,
    "halve": None,
    "halve_zero": _line("def halve_zero") - 1,  # its ensure: result < x fails for x = 0
    "first_max": _line("@deal.ensure"),
    "distance": None,
    "append_one": _line("post: len(xs) == len(__old__.xs) + 1"),
    "maybe_up": _line("lambda result, x: result is None"),  # a condition over two lines: its first (CPython: where it failed)
    "touch": _line("@icontract.ensure(lambda OLD"),
}


@pytest.fixture
def contracted(tmp_path: Path) -> Path:
    """``CONTRACTED`` as a file."""
    source = tmp_path / "contracted.py"
    source.write_text(CONTRACTED)
    return source


def _check(source: Path, engine: str) -> tuple[int, list[dict[str, object]]]:
    out = source.parent / "report.json"
    code = main(["check", str(source), "--engine", engine, "--json", str(out), "--quiet"])
    return code, json.loads(out.read_text())


@pytest.mark.parametrize("engine", ["dse", "multise", "compose"])
def test_every_contract_form_is_checked_in_every_engine(contracted: Path, engine: str) -> None:
    code, report = _check(contracted, engine)
    assert code == 1
    found: dict[str, int | None] = {}
    for entry in report:
        target = str(entry["target"]).rsplit("::", 1)[1]
        bugs = entry.get("bugs") or []
        assert isinstance(bugs, list)
        assert len(bugs) <= 1, (target, bugs)
        found[target] = bugs[0]["line"] if bugs else None
        if bugs:
            assert bugs[0]["exception"] == "AssertionError" and "postcondition failed" in str(bugs[0]["message"])
    assert found == EXPECTED


def test_a_violated_contract_is_confirmed_by_cpython(contracted: Path) -> None:
    """The counterexample, run by the replay child on the module's contracts, fails there."""
    from pathloom.replay import replay

    seen = replay(str(contracted), "bad_pct", [{"x": 150}, {"x": -1}, {"x": 5}])
    post, pre = _line("post: __return__ <= 100"), _line("pre: x >= 0")
    assert [(o.outcome, o.exception, o.line) for o in seen] == [("raise", "AssertionError", post), ("raise", "AssertionError", pre), ("return", None, None)]
    real = replay(str(contracted), "halve_zero", [{"x": 0}])[0]
    assert (real.outcome, real.line) == ("raise", EXPECTED["halve_zero"])


def test_generated_tests_pass_against_the_real_decorated_code(contracted: Path) -> None:
    tests = contracted.with_name("test_contracted.py")
    assert main(["explore", str(contracted), "--tests", str(tests), "--quiet"]) == 1
    assert "that pathloom checks and CPython does not" in tests.read_text()  # paths ending in a docstring check: no test
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=contracted.parent)
    assert run.returncode == 0, run.stdout
    assert " passed" in run.stdout and "xfailed" in run.stdout  # the icontract and deal violations: strict xfails


REFUSED = [
    ("import deal\n\n@deal.raises(ValueError)\ndef f(x: int) -> int:\n    return x\n", "deal.raises"),
    ("import icontract\n\n@icontract.ensure(lambda result: result > 0, error=ValueError)\ndef f(x: int) -> int:\n    return x\n", "argument error="),
    ("import icontract\n\ndef ok(x):\n    return x > 0\n\n@icontract.require(ok)\ndef f(x: int) -> int:\n    return x\n", "not a lambda"),
    ("import icontract\n\n@icontract.require(lambda y: y > 0)\ndef f(x: int) -> int:\n    return x\n", "'y' is not a parameter"),
    ('class C:\n    def m(self, x: int) -> int:\n        """post: __return__ > 0"""\n        return super().__hash__() + x\n', "method that uses super"),
    ('def f(x: int) -> int:\n    """inv: x > 0"""\n    return x\n', "invariant"),
    ('def f(xs: list[list[int]]) -> None:\n    """post: xs == __old__.xs"""\n    xs.clear()\n', "deep copy"),
    ('def f(x: int) -> int:\n    """post: __return__ >"""\n    return x\n', "not an expression"),
    ('def f(x: int) -> int:\n    """post: __return__ > 0"""\n    try:\n        return x\n    finally:\n        pass\n', "try/finally"),
    ('def f(n: int):\n    """post: __return__ is None"""\n    yield n\n', "generator"),
]


@pytest.mark.parametrize(("source", "why"), REFUSED, ids=[w for _, w in REFUSED])
def test_a_contract_not_modelled_is_refused_with_one_line(tmp_path: Path, source: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "refused.py"
    path.write_text(source)
    target = "C.m" if "class C" in source else "f"
    assert main(["check", f"{path}::{target}"]) == 2
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if ": unsupported: " in line]
    assert len(lines) == 1 and why in lines[0], out


METHODS = """
from icontract import DBC, ensure, require


class Account(DBC):
    def __init__(self, balance: int) -> None:
        self.balance = balance

    @require(lambda amount: amount > 0)
    @ensure(lambda self, result: self.balance >= 0)
    def withdraw(self, amount: int) -> int:
        if amount > 100:
            self.balance -= amount
        elif amount <= self.balance:
            self.balance -= amount
        return self.balance


def pay(a: Account, n: int) -> int:
    return a.withdraw(n)


class Savings(Account):
    def withdraw(self, amount: int) -> int:  # inherits Account.withdraw's contracts in CPython
        return self.balance


def close(s: Savings) -> int:
    return s.withdraw(1)
"""


def test_method_contracts_are_checked_and_inherited_ones_are_not_guessed(tmp_path: Path) -> None:
    source = tmp_path / "accounts.py"
    source.write_text(METHODS)
    out = tmp_path / "report.json"
    assert main(["check", str(source), "--json", str(out), "--quiet"]) == 1  # (3: a bug CPython contradicts)
    entries = {str(e["target"]).rsplit("::", 1)[1]: e for e in json.loads(out.read_text())}
    post = METHODS.split("\n").index("    @ensure(lambda self, result: self.balance >= 0)") + 1
    pre = post - 1
    assert {b["line"] for b in entries["Account.withdraw"]["bugs"]} == {post}  # from a negative balance
    assert {b["line"] for b in entries["pay"]["bugs"]} == {post, pre}  # pay(a, 0) breaks withdraw's precondition: pay's bug
    assert "Savings.withdraw" not in entries  # its contracts come from Account's: the class is left to CPython
    assert entries["close"]["status"] == "unsupported" or not entries["close"]["complete"]


ERRORS = """
from icontract import require


@require(lambda x: x >= 0, error=ValueError)
def root(x: int) -> int:
    return x // 2


@require(lambda name, table: name in table, error=lambda name: KeyError(f"no {name}"))
def lookup(name: str, table: dict[str, int]) -> int:
    return table[name] + 1
"""


@pytest.mark.parametrize("engine", ["dse", "multise", "compose"])
def test_require_with_an_error_raises_it_as_the_code_would(tmp_path: Path, engine: str) -> None:
    """``require(..., error=E)`` raises ``E`` (or the lambda's exception) instead of a violation:
    an explicit raise, not a bug; generated tests pass against the real decorated code."""
    from .verified import explore_source

    for target, exception in (("root", "ValueError"), ("lookup", "KeyError")):
        result = explore_source(tmp_path, ERRORS, "errors.py", target, engine)
        assert result["complete"] and not result["bugs"]
        raised = {(p["exception"], p["kind"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
        assert raised == {(exception, "explicit")}
    tests = tmp_path / "test_errors.py"
    assert main(["explore", str(tmp_path / "errors.py"), "--tests", str(tests), "--quiet", "--engine", engine]) == 0
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout


DESCRIPTORS = '''
class Box:
    def __init__(self, n: int) -> None:
        self.n = n

    @staticmethod
    def half(x: int) -> int:
        """post: __return__ * 2 == x"""
        return x // 2

    @property
    def double(self) -> int:
        """post: __return__ > 0"""
        return self.n * 2


def use(x: int) -> int:
    return Box.half(x)
'''


def test_docstring_contracts_of_static_methods_and_properties_are_checked_in_cpython_too(tmp_path: Path) -> None:
    """The replay child installed no checked version of a ``@staticmethod`` or ``@property`` with
    a PEP 316 docstring, which the engines checked: each bug was taken back (exit 3)."""
    source = tmp_path / "boxes.py"
    source.write_text(DESCRIPTORS)
    out = tmp_path / "report.json"
    assert main(["check", str(source), "--json", str(out), "--quiet"]) == 1
    lines = {str(e["target"]).rsplit("::", 1)[1]: [b["line"] for b in e["bugs"]] for e in json.loads(out.read_text())}
    assert lines == {"Box.__init__": [], "Box.half": [8], "Box.double": [13], "use": [8]}
