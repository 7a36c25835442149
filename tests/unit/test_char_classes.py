"""``str`` character-class tests (``isdigit``, ``isalpha``, ``islower``...) as ``str_class``
terms: the Z3 encoding (a regular language, or code ranges for one character) agrees with
CPython on every string Z3 can build, and pathloom explores them without pinning."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pathloom.terms import char_classes
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.z3_encode import decode, encode

S, I = T.sym("s", T.STR), T.sym("i", T.INT)
METHODS = sorted(char_classes.METHODS)
# characters from the interesting classes, and anything Z3 can build
chars = st.one_of(st.sampled_from("aZ09 \t\u00b2\u0660\u01c5\u00aa\u2160\u3000\u00e9\u00c9_!\x00"), st.characters(max_codepoint=char_classes.MAX_CODE))


def _z3_value(term: T.Term, s: str, i: int = 0) -> bool:
    formula = z3.substitute(encode(term), (encode(S), z3.StringVal(s)), (encode(I), z3.IntVal(i)))
    return z3.is_true(z3.simplify(formula))


@settings(max_examples=150, deadline=None)
@given(text=st.text(chars, max_size=4))
@example(text="")
@example(text="ǅa")  # a title-case letter blocks islower
@example(text="aǅ")
@example(text="A1")
@example(text="²")
def test_the_encoding_is_cpythons_answer(text: str) -> None:
    for method in METHODS:
        term = T.str_class(S, method)
        assert evaluate(term, {"s": text}) is getattr(text, method)()
        if method not in char_classes.SMALL_LANGUAGES:
            continue  # never built over a whole string (see semantics.strings)
        solver = z3.Solver()
        solver.add(encode(S) == z3.StringVal(text))
        solver.add(encode(term) != z3.BoolVal(getattr(text, method)()))
        assert solver.check() == z3.unsat, (method, text)


@settings(max_examples=150, deadline=None)
@given(a=st.text(chars, max_size=3), b=st.text(chars, max_size=3))
@example(a="", b="")
@example(a="", b="1")
@example(a="a", b="")
def test_a_class_test_of_a_concatenation_is_each_parts(a: str, b: str) -> None:
    """``(x + y).isalpha()`` is built from the parts' tests (``""`` fails the all-of classes,
    passes ``isascii``); ``islower``/``isupper`` stay whole (a cased letter in either part)."""
    x, y = T.sym("x", T.STR), T.sym("y", T.STR)
    for method in METHODS:
        assert evaluate(T.str_class(T.concat(x, y), method), {"x": a, "y": b}) is getattr(a + b, method)(), (method, a, b)


def test_a_class_test_of_letters_chosen_from_a_literal_folds() -> None:
    """``(ascii_lowercase[k % 26] + ascii_lowercase[j % 26]).isalpha()`` is a condition on ``k``
    and ``j`` alone (each index within the literal), no str left for Z3 (caesar's letters-only
    path asked one Z3 could not refute in 7 s)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    k, j = T.sym("k", T.INT), T.sym("j", T.INT)
    pair = T.concat(T.char_at(letters, T.mod(k, 26)), T.char_at(letters, T.mod(j, 26)))
    test = T.str_class(pair, "isalpha")
    assert isinstance(test, T.Term) and {t.sort for t in T.postorder(test, set())} <= {T.INT, T.BOOL}, test
    for a, b in [(0, 0), (3, 25), (-1, 27)]:
        assert evaluate(test, {"k": a, "j": b}) is True


@settings(max_examples=150, deadline=None)
@given(char=chars)
def test_one_character_is_encoded_by_its_code_point(char: str) -> None:
    for method in METHODS:
        term = T.str_class(T.char_at(S, I), method)
        assert _z3_value(term, char + "x", 0) is getattr(char, method)(), (method, char)


def test_the_solver_finds_strings_of_each_class() -> None:
    for method in sorted(char_classes.SMALL_LANGUAGES):
        for wanted in (True, False):
            solver = z3.Solver()
            solver.add(encode(T.str_class(S, method)) == z3.BoolVal(wanted), z3.Length(encode(S)) == 2)
            assert solver.check() == z3.sat
            text = str(decode(solver.model().eval(encode(S)), T.STR))
            assert getattr(text, method)() is wanted, (method, text)


def test_a_password_checker_is_explored_without_pinning(tmp_path: Path) -> None:
    source = tmp_path / "password.py"
    source.write_text(
        "def kinds(p: str) -> int:\n"
        "    n = 0\n"
        "    if any(c.isdigit() for c in p):\n"
        "        n += 1\n"
        "    if p.isspace():\n"
        "        n += 2\n"
        "    if p and p[-1].isupper():\n"
        "        n += 4\n"
        "    return n\n"
    )
    report_file = tmp_path / "report.json"
    out = subprocess.run(
        [sys.executable, "-m", "pathloom", "explore", f"{source}::kinds", "--json", str(report_file), "--verify", "--max-str-len", "2", "--timeout", "60"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "all outcomes as predicted" in out.stderr + out.stdout and "concretized" not in out.stdout
    report = json.loads(report_file.read_text())
    assert report["complete"] is True
    returns = {p["returned"] for p in report["paths"] if p["outcome"] == "return"}
    assert returns == {0, 1, 2, 4, 5}, returns  # (a digit and a space cannot make one 2-char string: no 3)
