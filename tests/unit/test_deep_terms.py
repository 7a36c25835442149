"""Terms as deep as a long loop makes them: every walk over a term works whatever its depth.

``while 0 <= hi: hi = hi // 2`` nests one ``floordiv`` per iteration, so after a few hundred
iterations the term is deeper than Python's recursion limit; evaluation, symbol collection,
the Z3 encoding and JSON serialization must not recurse on depth.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest
import z3

from pathloom.cli import main
from pathloom.terms import expr as T
from pathloom.terms.evaluate import _eval_deep, evaluate
from pathloom.terms.serialize import from_json, to_json
from pathloom.terms.z3_encode import encode

DEPTH = 3 * sys.getrecursionlimit()


def _halvings(depth: int) -> T.Arg:
    hi: T.Arg = T.sym("hi", T.INT)
    for _ in range(depth):
        hi = T.floordiv(hi, 2)
    return hi


def _mixed(depth: int) -> T.Arg:
    """A deep term using every kind of walk's special cases: ite, and, or, not, strings."""
    x = T.sym("x", T.INT)
    s = T.sym("s", T.STR)
    t: T.Arg = x
    for i in range(depth):
        cond = T.or_(T.and_(T.lt(t, i), T.not_(T.eq(s, "ab"))), T.le(T.str_len(s), 1))
        t = T.ite(cond, T.add(t, 1), T.sub(t, i % 5))
    return t


def _python_mixed(depth: int, x: int, s: str) -> int:
    t = x
    for i in range(depth):
        t = t + 1 if (t < i and s != "ab") or len(s) <= 1 else t - i % 5
    return t


def test_evaluate_a_term_deeper_than_the_recursion_limit() -> None:
    assert evaluate(_halvings(DEPTH), {"hi": 10**1000}) == 10**1000 // 2**DEPTH
    assert evaluate(_halvings(DEPTH), {"hi": -5}) == -1
    assert evaluate(_mixed(DEPTH), {"x": 3, "s": "abc"}) == _python_mixed(DEPTH, 3, "abc")
    assert evaluate(_mixed(DEPTH), {"x": -7, "s": "ab"}) == _python_mixed(DEPTH, -7, "ab")


def test_symbols_of_a_deep_term() -> None:
    assert T.symbols(_halvings(DEPTH)) == {T.sym("hi", T.INT)}
    assert T.symbols(_mixed(DEPTH)) == {T.sym("x", T.INT), T.sym("s", T.STR)}


def test_z3_encoding_of_a_deep_term_agrees_with_python() -> None:
    term = T.le(0, _halvings(DEPTH))
    solver = z3.Solver()
    solver.add(z3.Int("hi") == -3)
    solver.add(encode(term))
    assert solver.check() == z3.unsat
    solver = z3.Solver()
    solver.add(z3.Int("hi") == 2**40)
    solver.add(encode(term))
    assert solver.check() == z3.sat


def test_json_round_trip_of_a_deep_term() -> None:
    term = _mixed(DEPTH)
    assert from_json(to_json(term)) is term
    assert from_json(to_json(_halvings(DEPTH))) is _halvings(DEPTH)


def test_explore_a_loop_that_halves_until_it_is_negative(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """For ``hi >= 0`` the loop never ends in CPython (0 // 2 == 0) and its condition has one
    feasible side on every iteration, so only the timeout stops that path: reported as a cut
    path, never as the analyzer's own recursion limit (it was reached after 0.8 s). The
    depth-first search leaves the loop first, so the other state (``hi < 0``) is finished
    before it."""
    program = tmp_path / "halve.py"
    program.write_text(
        textwrap.dedent("""\
        def loop(hi: int) -> int:
            while 0 <= hi:
                hi = hi // 2
            return hi
        """)
    )
    code = main(["explore", f"{program}::loop", "--timeout", "3"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), (out, err)
    assert re.search(r"path 1 +returns -[1-9][0-9]*\n +input: hi=-[1-9][0-9]*\n", out), out
    assert re.search(r"path 2 +cut at line 2: timeout\n +input: hi=(0|[1-9][0-9]*)\n", out), out
    assert "INCOMPLETE" in out, out


def test_the_iterative_evaluator_agrees_with_the_recursive_one_on_every_operator() -> None:
    """``evaluate`` recurses on shallow terms and falls back to ``_eval_deep`` on deep ones."""
    x, y, s = T.sym("x", T.INT), T.sym("y", T.INT), T.sym("s", T.STR)
    nonzero = T.ite(T.eq(y, 0), 3, y)
    terms = [
        T.add(T.mul(x, y), T.neg(x)),
        T.sub(x, T.floordiv(x, nonzero)),
        T.mod(x, nonzero),
        T.and_(T.lt(x, y), T.le(y, 4)),
        T.or_(T.lt(x, y), T.eq(x, 2)),
        T.not_(T.lt(x, y)),
        T.ite(T.lt(x, 0), T.concat(s, "z"), T.from_code(T.add(97, T.mod(x, 26)))),
        T.contains(T.concat(s, s), "ba"),
        T.lt(T.concat(s, "a"), T.concat("b", s)),
        T.le(T.concat(s, "a"), s),
        T.eq(T.char_at(s, T.mod(x, 3)), "b"),
        T.to_code(T.char_at(s, 0)),
        T.str_len(T.concat(s, T.from_code(T.mod(y, 100)))),
    ]
    for env in ({"x": 5, "y": -2, "s": "abc"}, {"x": -4, "y": 0, "s": "ba"}, {"x": 0, "y": 7, "s": ""}):
        for term in terms:
            assert _eval_deep(term, env, {}) == evaluate(term, env), (term, env)


def test_multise_guard_of_a_connective_deeper_than_the_recursion_limit() -> None:
    """``MultiSEEngine.guard`` builds a BDD bottom-up without recursion: a real-code tree walk
    made a Bool term nested past Python's recursion limit (a RecursionError before)."""
    import sys

    from pathloom.api import Run
    from pathloom.frontend.module import parse_module
    from pathloom.options import Options

    run = Run(parse_module("def f(x: int) -> int:\n    return x\n", "<deep>"), "f", Options(engine="multise"))
    x = T.sym("x", T.INT)
    cond: T.Arg = T.lt(x, 0)
    for i in range(sys.getrecursionlimit() + 500):
        cond = T.or_(T.and_(T.lt(x, i + 1), T.not_(T.eq(x, -i))), T.not_(cond)) if i % 2 else T.or_(cond, T.eq(x, i))
    guard = run.engine.guard(cond)  # type: ignore[attr-defined]
    assert guard is run.engine.guard(cond)  # type: ignore[attr-defined]  (memoized)
