"""Faster str queries, same answers: the lemmas ``solver.char_lemmas`` asserts are valid (true
on every string), a literal indexed or searched at a symbolic position is the choice among its
characters (``expr.char_at``, ``expr.index_of``), and one character's case mapping is encoded
without recursion (``z3_encode._char_case``): each checked against Python's own meaning."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.solver.char_lemmas import char_lemmas
from pathloom.terms import expr as T
from pathloom.terms import str_ops as SO
from pathloom.terms.evaluate import evaluate
from pathloom.terms.z3_encode import assertion, encode

S, I = T.sym("s", T.STR), T.sym("i", T.INT)
CHARS = st.sampled_from("aZ0 _é١\u2028ſK\x00A9")
METHODS = ["isascii", "isalpha", "isdigit", "isupper", "islower", "isalnum", "isspace"]


def _query() -> list[T.Term]:
    """Whole-string and per-character tests of ``s`` at indices 0..3 and ``i``."""
    chars = [T.char_at(S, k) for k in (0, 1, 2, 3)] + [T.char_at(S, I)]
    found: list[T.Arg] = [T.str_class(S, m) for m in ("isascii", "isalpha", "isdigit")]
    found += [T.str_class(c, m) for c in chars for m in METHODS]
    return [t for t in found if isinstance(t, T.Term)]


LEMMAS = char_lemmas(_query())


def test_there_are_lemmas_of_both_kinds() -> None:
    text = [str(lemma) for lemma in LEMMAS]
    assert any("isalpha" in t and "len(s)" in t for t in text)  # whole string -> character
    assert any("90" in t for t in text)  # isupper narrowed to 'A'..'Z'


@settings(max_examples=300, deadline=None)
@given(st.text(CHARS, max_size=5), st.integers(-1, 6))
def test_every_lemma_holds_on_every_string(s: str, i: int) -> None:
    for lemma in LEMMAS:
        assert evaluate(lemma, {"s": s, "i": i}) is True, lemma


@settings(max_examples=200, deadline=None)
@given(st.text(CHARS, max_size=5), st.integers(-2, 7), st.sampled_from(["", "abc", "abca", "hello world", "aé١"]))
def test_a_literal_at_a_symbolic_index_is_its_characters(s: str, i: int, literal: str) -> None:
    env = {"s": s, "i": i}
    assert evaluate(T.char_at(literal, I), env) == (literal[i] if 0 <= i < len(literal) else "")
    char = s[i] if 0 <= i < len(s) else ""
    assert evaluate(T.index_of(literal, T.char_at(S, I)), env) == literal.find(char)
    assert evaluate(T.str_class(T.char_at(literal, I), "isalpha"), env) == (0 <= i < len(literal) and literal[i].isalpha())


def test_one_characters_case_mapping_is_exact_in_z3() -> None:
    """``ascii_case`` of ``s[0]`` (ASCII letters mapped, every other character kept), proved
    equal to Python's mapping for each sample character by Z3."""
    for to in ("lower", "upper"):
        mapped = SO.ascii_case(T.char_at(S, 0), to)
        for c in "aZ_é\x00ſK":
            want = (c.lower() if to == "lower" else c.upper()) if c.isascii() else c
            solver = z3.Solver()
            solver.add(assertion(T.eq(S, c + "x")), z3.Not(encode(T.eq(mapped, want))))
            assert solver.check() == z3.unsat, (to, c)
