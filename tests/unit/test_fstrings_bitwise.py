"""f-strings, ``str()`` of ints and the bitwise operators on ints (``semantics.builtins``,
``semantics.bitwise``): symbolic and exact where the docstrings say so, run in CPython on
pinned values (reported) elsewhere, CPython's errors everywhere.

Every program is explored by both engines with ``--verify`` (every reported input replayed
in CPython: exit 3 would be a mismatch), and its outcomes are checked against what CPython
says they are."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.semantics import bitwise as W
from pathloom.domain.outcome import Ok, Outcome
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from tests.unit.verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

BITWISE = textwrap.dedent("""
    def mask(x: int) -> int:
        if x & 7 == 5:
            return 1
        return 0


    def shift_right(x: int) -> int:
        if (x >> 2) == -3:
            return 1
        return 0


    def shift_left(x: int) -> int:
        if x << 3 == -24:
            return 1
        return 0


    def invert(x: int) -> int:
        if ~x == 4:
            return 1
        return 0


    def constants(x: int) -> tuple:
        return (x & 0xF0, x | 0x0F, x ^ 0x55, x & -8, x | -16, x ^ -1, x & 0, x | 0)


    def bools(a: bool, b: bool) -> tuple:
        return (a & b, a | b, a ^ b, ~a, a & 1, 2 | b, a << 2, b >> 1, a & True)


    def bool_and_int(b: bool, x: int) -> int:
        if (x & b) == 1:
            return 1
        return x ^ b


    def augmented(x: int) -> int:
        x &= 0xF0
        x |= 3
        x ^= 1
        x <<= 2
        x >>= 1
        return x


    def counts_in_range(x: int, n: int) -> int:
        if 0 <= n < 60 and -1000 < x < 1000:
            if (1 << n) == 64:
                return 1
            if (x >> n) == -2:
                return 2
            if (x << (n % 20)) == 96:
                return 3
        return 0


    def negative_count(x: int, n: int) -> int:
        if n < 5:
            return x << n
        return x >> 2


    def errors(x: int, s: str, b: bool) -> object:
        if x > 10:
            return x & s
        if x > 5:
            return ~s
        if x > 0:
            x <<= s
        if b:
            return None ^ b
        return x


    def two_symbolic(x: int, y: int) -> int:
        if x ^ y == 6:
            return 1
        return 0


    def wide_count(x: int, n: int) -> int:
        if 0 <= n < 80:
            return 1 << n
        return 0
""")

FSTRINGS = textwrap.dedent("""
    class Point:
        def __init__(self, x: int) -> None:
            self.x = x

        def __str__(self) -> str:
            return "P" + str(self.x)


    def minus_twelve(x: int) -> str:
        if f"{x}" == "-12":
            return "found"
        return f"x={x}!"


    def kinds(x: int, b: bool, s: str) -> str:
        t = f"{x}|{b}|{s}|{None}|{x!r}|{b!s}|{s!s}|{x!a}|{True}"
        if t == "-5|True|ab|None|-5|True|ab|-5|True":
            return t
        return str(x) + str(b) + str(s) + repr(x) + repr(b) + ascii(None)


    def digits(x: int) -> int:
        text = str(x)
        if len(text) == 3 and text[0] == "-":
            return 1
        if text == str(-x) and x != 0:
            return 2
        return 0


    def computed(x: int) -> str:
        return f"{x * 2}"


    def in_cpython(x: int, s: str) -> str:
        if x > 3:
            return f"{x:>5}"
        if x > 0:
            return f"{s!r}"
        return f"{Point(x)}{1.5:.2f}{[x]}"


    def bad_spec(x: int) -> str:
        return (f"a"
                f"{x:zz}")
""")

SYMBOLIC_TEXT = ["minus_twelve", "kinds", "digits", "computed"]

SYMBOLIC = ["mask", "shift_right", "shift_left", "invert", "constants", "bools", "bool_and_int", "augmented", "counts_in_range", "negative_count", "errors"]


def explore(tmp_path: Path, source: str, target: str, engine: str) -> dict[str, Any]:
    return explore_source(tmp_path, source, "prog.py", target, engine)


def sites(result: dict[str, Any]) -> list[str]:
    """The operations concretized (``stats.concretizations`` without the lines)."""
    return [key.split(": ", 1)[1] for key in result["stats"]["concretizations"]]


def finished(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in result["paths"] if p["outcome"] in ("return", "raise")]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("source,target", [(BITWISE, t) for t in SYMBOLIC] + [(FSTRINGS, t) for t in SYMBOLIC_TEXT], ids=SYMBOLIC + SYMBOLIC_TEXT)
def test_symbolic_and_complete(tmp_path: Path, source: str, target: str, engine: str) -> None:
    """Masks, shifts, inversion, and the text of ints, bools, strs and None: no concretization."""
    result = explore(tmp_path, source, target, engine)
    assert result["complete"], result["paths"]
    assert result["stats"]["concretizations"] == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_branches_on_bitwise_results_find_cpythons_inputs(tmp_path: Path, engine: str) -> None:
    for target, check in (
        ("mask", lambda x: x & 7 == 5),
        ("shift_right", lambda x: x >> 2 == -3),
        ("shift_left", lambda x: x == -3),
        ("invert", lambda x: x == -5),
    ):
        result = explore(tmp_path, BITWISE, target, engine)
        ones = [p["inputs"]["x"] for p in finished(result) if p["returned"] == 1]
        assert ones and all(check(x) for x in ones), (target, ones)
        assert {p["returned"] for p in finished(result)} == {0, 1}


@pytest.mark.parametrize("engine", ENGINES)
def test_symbolic_counts_reach_every_branch(tmp_path: Path, engine: str) -> None:
    result = explore(tmp_path, BITWISE, "counts_in_range", engine)
    assert {p["returned"] for p in finished(result)} == {0, 1, 2, 3}
    negative = explore(tmp_path, BITWISE, "negative_count", engine)
    raised = {(p["exception"], p["message"]) for p in finished(negative) if p["outcome"] == "raise"}
    assert raised == {("ValueError", "negative shift count")}


@pytest.mark.parametrize("engine", ENGINES)
def test_errors_are_cpythons(tmp_path: Path, engine: str) -> None:
    result = explore(tmp_path, BITWISE, "errors", engine)
    messages = {p["message"] for p in finished(result) if p["outcome"] == "raise"}
    assert messages == {
        "unsupported operand type(s) for &: 'int' and 'str'",
        "bad operand type for unary ~: 'str'",
        "unsupported operand type(s) for <<=: 'int' and 'str'",
        "unsupported operand type(s) for ^: 'NoneType' and 'bool'",
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_two_symbolic_ints_pin_one_operand(tmp_path: Path, engine: str) -> None:
    """``x ^ y`` pins ``y`` (reported), ``x`` stays symbolic: ``x ^ y == 6`` is found."""
    result = explore(tmp_path, BITWISE, "two_symbolic", engine)
    ones = [p["inputs"] for p in finished(result) if p["returned"] == 1]
    assert ones and all(i["x"] ^ i["y"] == 6 for i in ones)
    assert not result["complete"] and sites(result) == ["operator ^"]


def test_shifts_beyond_the_exact_range_pin_the_count(tmp_path: Path) -> None:
    """``1 << n`` is exact for ``n <= 62``; larger counts are pinned."""
    result = explore(tmp_path, BITWISE, "wide_count", "dse")
    returned = {p["returned"] for p in finished(result)}
    assert 0 in returned and any(1 <= r < 2**63 for r in returned) and any(r >= 2**63 for r in returned)
    assert sites(result) == ["operator <<"]


@pytest.mark.parametrize("engine", ENGINES)
def test_fstrings_partition_as_cpython_does(tmp_path: Path, engine: str) -> None:
    result = explore(tmp_path, FSTRINGS, "minus_twelve", engine)
    assert sorted((p["inputs"]["x"], p["returned"]) for p in finished(result) if p["returned"] == "found") == [(-12, "found")]
    assert len(finished(result)) == 2
    kinds = explore(tmp_path, FSTRINGS, "kinds", engine)
    found = [p["inputs"] for p in finished(kinds) if p["returned"] == "-5|True|ab|None|-5|True|ab|-5|True"]
    assert found == [{"x": -5, "b": True, "s": "ab"}]
    digits = explore(tmp_path, FSTRINGS, "digits", engine)
    assert {p["returned"] for p in finished(digits)} == {0, 1}  # str(-x) differs from str(x) for x != 0
    assert all(-99 <= p["inputs"]["x"] <= -10 for p in finished(digits) if p["returned"] == 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_int_past_the_digit_limit_raises_cpythons_value_error(tmp_path: Path, engine: str) -> None:
    """``str()`` of a computed int of more than 4300 digits raises; an input (which CPython
    could not write as text) never has that many."""
    result = explore(tmp_path, FSTRINGS, "computed", engine)
    raised = [p for p in finished(result) if p["outcome"] == "raise"]
    assert [p["exception"] for p in raised] == ["ValueError"] and "4300 digits" in raised[0]["message"]
    assert len(str(abs(raised[0]["inputs"]["x"]))) == 4300


@pytest.mark.parametrize("engine", ENGINES)
def test_specs_conversions_and_other_kinds_run_in_cpython(tmp_path: Path, engine: str) -> None:
    result = explore(tmp_path, FSTRINGS, "in_cpython", engine)
    assert set(sites(result)) == {"format()", "repr()"}
    assert "P0" + "1.50" + "[0]" in {p["returned"] for p in finished(result)}
    bad = explore(tmp_path, FSTRINGS, "bad_spec", engine)
    line = FSTRINGS.splitlines().index('    return (f"a"') + 1  # CPython's line: the f-string's first
    assert {(p["exception"], p["line"], p["message"]) for p in finished(bad)} == {
        ("ValueError", line, "Unknown format code 'z' for object of type 'int'"),
    }


def test_fstrings_lower_to_format_and_build_string(tmp_path: Path) -> None:
    from pathloom.frontend.module import parse_module
    from pathloom.frontend.pprint import function

    module = parse_module('def f(x: int, w: int) -> str:\n    return f"<{x!r:>{w}}|{x}>"\n', str(tmp_path / "m.py"))
    text = function(module.function("f"))
    assert "format x!r spec %" in text and "format x spec ''" in text and "f-string('<', %" in text


def _pin_unused(value: T.Arg, where: T.Arg) -> Outcome:
    raise AssertionError("a concrete operand needs no pinning")


X = T.sym("x", T.INT)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from("&|^"), st.integers(-(2**70), 2**70), st.one_of(st.integers(-300, 300), st.integers(-(2**70), 2**70)))
def test_operations_with_a_constant_are_pythons_for_every_int(op: str, x: int, c: int) -> None:
    outcome = W.logic(op, X, c, _pin_unused)
    assert isinstance(outcome, Ok)
    expected = {"&": x & c, "|": x | c, "^": x ^ c}[op]
    assert evaluate(outcome.value, {"x": x}) == expected  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.sampled_from(["<<", ">>"]), st.integers(-(2**70), 2**70), st.integers(0, 200))
def test_shifts_by_a_constant_are_pythons_for_every_int(op: str, x: int, k: int) -> None:
    outcome = W.shift(op, X, k, _pin_unused)
    assert isinstance(outcome, Ok)
    assert evaluate(outcome.value, {"x": x}) == (x << k if op == "<<" else x >> k)  # type: ignore[arg-type]
