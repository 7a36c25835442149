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
CHARS = "ab1c.x_١ſ-"


def _pattern(parts: list[tuple[bool, str]]) -> str:
    return "".join(f"({p})" if group else f"(?:{p})" for group, p in parts)


patterns = st.lists(st.tuples(st.booleans(), st.sampled_from(ITEMS)), min_size=1, max_size=4).map(_pattern)


def _groups(pattern: str, text: str) -> list[str] | None:
    shape = RG.spans(pattern, 0)
    assert shape is not None
    found = re.fullmatch(pattern, text)
    if found is None:
        return None
    return [found.group(g) for g in sorted(shape.groups)]


def _z3_groups(pattern: str, text: str) -> list[str]:
    shape = RG.spans(pattern, 0)
    assert shape is not None
    texts = [RG.group_span(S, pattern, 0, g, shape)[2] for g in sorted(shape.groups)]
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
@given(pattern=patterns, texts=st.lists(st.text(st.sampled_from(CHARS), max_size=5), min_size=1, max_size=4))
@example(pattern=r"v?(\d+)\.(\d+)", texts=["v1.2", "١٢.3", "1.2.3", ""])
@example(pattern=r"(\d{2})-(\d{2})", texts=["١2-34", "12-34"])
@example(pattern=r"(a|ab)(c|bcd)", texts=["abcd", "abc", "ac"])
def test_the_pieces_are_cpythons_groups(pattern: str, texts: list[str]) -> None:
    assume(RG.spans(pattern, 0) is not None)
    for text in texts:
        expected = _groups(pattern, text)
        if expected is None:
            continue
        assert _z3_groups(pattern, text) == expected, (pattern, text)
        shape = RG.spans(pattern, 0)
        assert shape is not None
        assert [evaluate(RG.group_span(S, pattern, 0, g, shape)[2], {"s": text}) for g in sorted(shape.groups)] == expected


@pytest.mark.parametrize("pattern", [r"(a*)(a*)", r"(\w+)(\d*)", r"x(?:(y)|z)", r"(a)*", r"(.*)(.*)", r"(a|ab)(b)?c", "(a)", r"\1"])
def test_groups_not_determined_are_refused(pattern: str) -> None:
    shape = RG.spans(pattern, 0)
    assert shape is None or pattern == "(a)"
    if pattern == "(a)":
        assert shape is not None and shape.groups == {1: (0, 1)}


def test_an_ambiguous_boundary_is_found() -> None:
    assert RG.spans(r"(\d+)(\d)", 0) is not None  # greedy or not, the last digit is the second group
    assert RG.spans(r"(\d+)(\d*)", 0) is None
    assert RG.spans(r"(a+)(ab)", 0) is not None
    assert RG.spans(r"(a+)(a*b)", 0) is None
