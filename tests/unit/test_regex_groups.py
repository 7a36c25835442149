"""The groups of ``re.fullmatch`` as pieces of the string (``terms.regex_groups``): on generated
patterns whose group boundaries ``spans`` accepts, Z3's pieces are CPython's group texts and no
other split satisfies their definition; ambiguous patterns are refused."""

from __future__ import annotations

import re

import pytest
import z3
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from pathloom.terms import expr as T
from pathloom.terms import regex_groups as RG
from pathloom.terms.evaluate import evaluate
from pathloom.terms.z3_encode import decode, definitions, encode

S = T.sym("s", T.STR)
ITEMS = r"a b \d \w . [a-c] [^a] \d+ a* \w+? (?:a|bc) \.? [ab]{1,2} x|y".split()
CHARS = "ab1c.x_١ſ-\n"


def _pattern(parts: list[tuple[bool, str]]) -> str:
    return "".join(f"({p})" if group else f"(?:{p})" for group, p in parts)


bodies = st.lists(st.tuples(st.booleans(), st.sampled_from(ITEMS)), min_size=1, max_size=4).map(_pattern)
patterns = st.tuples(st.sampled_from(["", "^"]), bodies, st.sampled_from(["", "$", r"\Z"])).map("".join)


def _groups(pattern: str, mode: str, text: str) -> list[str] | None:
    shape = RG.spans(pattern, 0, mode)
    assert shape is not None
    found = getattr(re, mode)(pattern, text)
    if found is None:
        return None
    return [found.group(g) for g in sorted(shape.groups)]


def _texts(pattern: str, mode: str, s: T.Term | str) -> list[T.Arg]:
    shape = RG.spans(pattern, 0, mode)
    assert shape is not None
    return [RG.group_span(s, pattern, 0, mode, g, shape)[2] for g in sorted(shape.groups)]


def _z3_groups(pattern: str, mode: str, text: str) -> list[str]:
    texts = _texts(pattern, mode, S)
    solver = z3.Solver()
    solver.add(encode(T.eq(S, text)))
    for t in texts:
        encode(t)
    solver.add(*definitions([t for t in texts if isinstance(t, T.Term)]))  # the pieces' definitions
    assert solver.check() == z3.sat
    model = solver.model()
    values = [str(decode(model.eval(encode(t), model_completion=True), T.STR)) for t in texts]
    solver.add(z3.Or([encode(t) != z3.StringVal(v) for t, v in zip(texts, values)]))
    assert solver.check() == z3.unsat, (pattern, text, values)  # the split is unique
    return values


@settings(max_examples=150, deadline=None)
@given(pattern=patterns, mode=st.sampled_from(["fullmatch", "match"]), texts=st.lists(st.text(st.sampled_from(CHARS), max_size=5), min_size=1, max_size=4))
@example(pattern=r"v?(\d+)\.(\d+)", mode="fullmatch", texts=["v1.2", "١٢.3", "1.2.3", ""])
@example(pattern=r"(\d{2})-(\d{2})", mode="fullmatch", texts=["١2-34", "12-34"])
@example(pattern=r"(a|ab)(c|bcd)", mode="fullmatch", texts=["abcd", "abc", "ac"])
@example(pattern=r"(\d+)-", mode="match", texts=["12-34", "1-", "-1"])
@example(pattern=r"(a)b$", mode="match", texts=["ab", "ab\n", "ab\nx"])
@example(pattern=r"(a)(b)\Z", mode="match", texts=["ab", "ab\n"])
def test_the_pieces_are_cpythons_groups(pattern: str, mode: str, texts: list[str]) -> None:
    assume(RG.spans(pattern, 0, mode) is not None)
    for text in texts:
        expected = _groups(pattern, mode, text)
        if expected is None:
            continue
        assert _z3_groups(pattern, mode, text) == expected, (pattern, mode, text)
        assert [evaluate(t, {"s": text}) for t in _texts(pattern, mode, S)] == expected
        assert _texts(pattern, mode, text) == expected  # folded on a concrete string


@pytest.mark.parametrize("pattern", [r"(a*)(a*)", r"(\w+)(\d*)", r"x(?:(y)|z)", r"(a)*", r"(.*)(.*)", r"(a|ab)(b)?c", "(a)", r"\1"])
def test_groups_not_determined_are_refused(pattern: str) -> None:
    assert RG.spans(pattern, 0, "search") is None  # where a search starts is free
    shape = RG.spans(pattern, 0, "fullmatch")
    assert shape is None or pattern == "(a)"
    if pattern == "(a)":
        assert shape is not None and shape.groups == {1: (0, 1)}


def test_an_ambiguous_boundary_is_found() -> None:
    assert RG.spans(r"(\d+)(\d)", 0, "fullmatch") is not None  # greedy or not, the last digit is the second group
    assert RG.spans(r"(\d+)(\d*)", 0, "fullmatch") is None
    assert RG.spans(r"(a+)(ab)", 0, "fullmatch") is not None
    assert RG.spans(r"(a+)(a*b)", 0, "fullmatch") is None


def test_groups_of_a_match_are_determined_where_what_follows_cannot_take_part() -> None:
    assert RG.spans(r"(\d+)-", 0, "match") is not None
    assert RG.spans(r"(\d+)", 0, "match") is None  # the rest of the string may hold more digits
    assert RG.spans(r"(\d+)$", 0, "match") is not None  # the end or a final newline
    assert RG.spans(r"(\d+)\Z", 0, "match") is not None  # the end only
    assert RG.spans(r"^(\d+)", 0, "match") is None


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.sampled_from("v1.٢-+0a"), max_size=6))
@example(text="v1.2")
@example(text="١.0")
def test_the_group_lemmas_hold_on_every_string(text: str) -> None:
    from pathloom.domain.values import MatchVal
    from pathloom.semantics.regex import _group_lemmas

    for pattern in [r"v?(\d+)\.(\d+)", r"([+-]?[0-9]+)-(\d)", r"(\d+)\.", r"(a)(\d{2})"]:
        for mode in ("fullmatch", "match"):
            if RG.spans(pattern, 0, mode) is not None:
                assert evaluate(_group_lemmas(MatchVal(pattern, 0, mode, S)), {"s": text}) is True, (pattern, mode, text)
