"""``re`` patterns as automata (``terms.regex_lang``) and their Z3 encoding (``terms.regex_z3``):
on generated patterns and strings, with the characters where Unicode bites, the automaton and
the Z3 term agree with CPython's ``re``; patterns outside the subset are refused."""

from __future__ import annotations

import re

import pytest
import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pathloom.terms import expr as T
from pathloom.terms import regex_lang as RL
from pathloom.terms.evaluate import evaluate
from pathloom.terms.z3_encode import decode, encode

S = T.sym("s", T.STR)
# '١' Arabic-indic digit, 'ſ' long s, 'K' Kelvin sign, 'İ'/'ı' dotted and dotless i, the line and
# file separators \u2028 and \x1c (whitespace to sre), 'ß', a digit beyond the BMP
TRICKY = "as1kKSkſ١_ \n\t\u2028\x1c\u0130\u0131iIß\U0001d7ce-.yYeE"
ITEMS = r"a s k i 1 y ſ K ١ \n \d \w \s \D \W \S . [a-c] [^a\d] [\s_] [0-9a-fA-F] [^k] [İ-ſ] \-".split()
QUANTIFIERS = ["*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,3}?", "{,2}"]
FLAGS = [0, re.IGNORECASE, re.ASCII, re.DOTALL, re.IGNORECASE | re.ASCII]


def _grow(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda t: t[0] + t[1]),
        pair.map(lambda t: f"(?:{t[0]}|{t[1]})"),
        children.map(lambda c: f"({c})"),
        st.tuples(st.sampled_from(["i", "a", "s", "-i"]), children).map(lambda t: f"(?{t[0]}:{t[1]})"),
        st.tuples(children, st.sampled_from(QUANTIFIERS)).map(lambda t: f"(?:{t[0]}){t[1]}"),
    )


bodies = st.recursive(st.sampled_from(ITEMS), _grow, max_leaves=6)
patterns = st.tuples(st.sampled_from(["", "^", r"\A"]), bodies, st.sampled_from(["", "$", r"\Z"])).map("".join)
texts = st.text(st.sampled_from(TRICKY), max_size=6)


def _cpython(pattern: str, flags: int, mode: str, s: str) -> bool:
    return getattr(re.compile(pattern, flags), mode)(s) is not None


def _z3_member(pattern: str, flags: int, mode: str, s: str) -> bool:
    solver = z3.Solver()
    solver.add(encode(T.eq(S, s)), encode(RL.member(S, pattern, flags, mode)))
    status = solver.check()
    assert status != z3.unknown, (pattern, s)
    return status == z3.sat


@settings(max_examples=400, deadline=None)
@given(pattern=patterns, flags=st.sampled_from(FLAGS), strings=st.lists(texts, min_size=1, max_size=8))
@example(pattern=r"y|yes", flags=re.IGNORECASE, strings=["yeſ", "YES", "yes\n", "y"])
@example(pattern=r"\d{2}-\d{2}", flags=0, strings=["١2-34", "12-34", "12-3"])
@example(pattern=r"\s", flags=0, strings=["\u2028", "\x1c", "\x85"])
@example(pattern=r"a$", flags=0, strings=["a\n", "a\n\n", "ba\n"])
@example(pattern=r"(?:a|)*b", flags=0, strings=["b", "aab", ""])
def test_the_automaton_is_cpythons_answer(pattern: str, flags: int, strings: list[str]) -> None:
    for mode in RL.MODES:
        dfa = RL.automaton(pattern, flags, mode)
        assert dfa is not None, (pattern, RL.explain(pattern, flags, mode))
        for s in strings:
            assert RL.run(dfa, s) is _cpython(pattern, flags, mode, s), (pattern, flags, mode, s)


@settings(max_examples=40, deadline=None)
@given(pattern=patterns, flags=st.sampled_from(FLAGS), s=texts)
@example(pattern=r"y|yes", flags=re.IGNORECASE, s="yeſ")
@example(pattern=r"[a-z]+", flags=re.IGNORECASE, s="K")
@example(pattern=r"\w\s", flags=0, s="١\x1c")
def test_the_z3_encoding_is_cpythons_answer(pattern: str, flags: int, s: str) -> None:
    for mode in RL.MODES:
        expected = _cpython(pattern, flags, mode, s)
        assert _z3_member(pattern, flags, mode, s) is expected, (pattern, flags, mode, s)
        assert evaluate(RL.member(S, pattern, flags, mode), {"s": s}) is expected


@pytest.mark.parametrize(
    "pattern, flags",
    [
        (r"(a)\1", 0),
        (r"(?=a)a", 0),
        (r"(?<!a)b", 0),
        (r"(?>a+)b", 0),
        (r"a*+", 0),
        (r"\bword", 0),
        (r"a^b", 0),
        (r"(^a|b)", 0),
        (r"^a", re.MULTILINE),
        (r"(?(1)a|b)", 0),
        (r"a{1000}{1000}", 0),
        (r"[", 0),
        (r"a", re.LOCALE),
        (r"a", re.DEBUG),
        (r"a", re.ASCII | re.UNICODE),
    ],
)
def test_patterns_outside_the_subset_are_refused(pattern: str, flags: int, capsys: pytest.CaptureFixture[str]) -> None:
    for mode in RL.MODES:
        assert RL.automaton(pattern, flags, mode) is None
        assert RL.explain(pattern, flags, mode)
    assert capsys.readouterr().out == ""  # (re.DEBUG's dump is CPython's to print, when it runs)


def _witness(constraint: z3.BoolRef) -> str | None:
    solver = z3.Solver()
    solver.add(constraint, z3.Length(encode(S)) <= 6)
    if solver.check() != z3.sat:
        return None
    return str(decode(solver.model().eval(encode(S), model_completion=True), T.STR))


def test_the_solver_finds_the_unicode_members() -> None:
    not_ascii = z3.Not(encode(T.str_class(S, "isascii")))
    found = _witness(z3.And(encode(RL.member(S, r"y|yes", re.IGNORECASE, "fullmatch")), not_ascii))
    assert found is not None and re.fullmatch(r"y|yes", found, re.IGNORECASE) and not found.isascii()
    found = _witness(z3.And(encode(RL.member(S, r"(\d{2})-(\d{2})", 0, "fullmatch")), not_ascii))
    assert found is not None and re.fullmatch(r"(\d{2})-(\d{2})", found) and not found.isascii()
    found = _witness(
        z3.And(
            encode(RL.member(S, r"[a-z][a-z0-9_]*", 0, "match")), z3.Not(encode(T.str_class(S, "isalnum"))), z3.Not(z3.Contains(encode(S), z3.StringVal("_")))
        )
    )
    assert found is not None and re.match(r"[a-z][a-z0-9_]*", found) and not found.isalnum() and "_" not in found
    assert _witness(z3.And(encode(RL.member(S, r"\d+", re.ASCII, "fullmatch")), not_ascii)) is None


def test_a_concrete_subject_folds() -> None:
    assert RL.member("12", r"\d+", 0, "fullmatch") is True
    assert RL.member("a12", r"\d+", 0, "match") is False
    assert RL.member("a12", r"\d+", 0, "search") is True


@pytest.mark.parametrize(
    "pattern, flags, expected",
    [
        (r"[+-]?[0-9]+", 0, True),
        (r"-?\d{1,3}", re.ASCII, True),
        (r"0|[1-9][0-9]*", 0, True),
        (r"\d+", 0, False),  # '١' is no ASCII digit
        (r"\d*", re.ASCII, False),  # nor is the empty string an int
        (r"[0-9a-f]+", 0, False),
        (r"\+?\d+", re.ASCII, True),
    ],
)
def test_patterns_of_ascii_integers_are_recognised(pattern: str, flags: int, expected: bool) -> None:
    assert RL.ascii_integers_only(pattern, flags, "fullmatch") is expected
    assert not RL.ascii_integers_only(pattern, flags, "match")


@settings(max_examples=100, deadline=None)
@given(s=st.text(st.sampled_from("+-0123١a"), max_size=5))
def test_the_int_lemma_holds_on_every_member(s: str) -> None:
    from pathloom.semantics.regex import _int_digits

    for pattern, flags in [(r"[+-]?[0-9]+", 0), (r"-?\d{1,3}", re.ASCII), (r"0|[1-9][0-9]*", 0)]:
        if re.fullmatch(pattern, s, flags):
            assert evaluate(_int_digits(S), {"s": s}) is True, (pattern, s)
