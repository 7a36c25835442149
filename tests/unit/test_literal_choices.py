"""A character chosen from a literal at a symbolic index (``DIGITS[n % base]``, ``ascii_lowercase
[k]``: ``expr.char_at``'s choice among the literal's characters) stays a choice in the terms
built from it: its length is the choice of the lengths, a join of such characters compared
with a literal is a condition on the indices alone, split at each length the first part can
have. The rewritten terms evaluate exactly as the terms they stand for."""

from __future__ import annotations

import itertools

import pytest

from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate

K, J, X = T.sym("k", T.INT), T.sym("j", T.INT), T.sym("x", T.STR)
DIGIT = T.char_at("0123456789abcdef", K)
LETTER = T.char_at("ab", J)
TERMS = [
    DIGIT,
    T.concat(T.concat(DIGIT, LETTER), DIGIT),
    T.concat(X, DIGIT),
    T.concat(DIGIT, X),
    T.concat(T.concat(DIGIT, X), LETTER),
    T.concat(T.concat(X, DIGIT), X),
]
LITERALS = ["", "0", "a", "1a", "1a1", "a0", "0b", "zz", "00", "1aa1", "q1b"]


@pytest.mark.parametrize("term", TERMS, ids=str)
def test_comparisons_and_lengths_evaluate_as_the_whole_terms(term: T.Term) -> None:
    for k, j, x in itertools.product(range(-1, 17), range(-1, 3), ["", "a", "1a"]):
        model = {"k": k, "j": j, "x": x}
        value = evaluate(term, model)
        assert evaluate(T.str_len(term), model) == len(value)  # type: ignore[arg-type]
        for text in LITERALS:
            assert evaluate(T.eq(term, text), model) is evaluate(T.eq(text, term), model) is (value == text), (text, model)


def test_a_join_of_chosen_characters_compared_with_a_literal_is_a_test_of_the_indices() -> None:
    three = T.concat(T.concat(DIGIT, LETTER), DIGIT)
    assert T.eq(three, "abcd") is False  # no case is four characters long
    test = T.eq(three, "1a1")
    assert isinstance(test, T.Term) and {t.sort for t in T.postorder(test, set())} <= {T.INT, T.BOOL}


def test_the_text_of_an_int_compared_is_a_comparison_of_ints() -> None:
    """``str(x) == str(y)`` is ``x == y`` (``str`` is one-to-one on ints) and ``str(x) == "12"``
    is ``x == 12``, False for a text no int has (``"-0"``, ``"012"``, ``"+1"``): what made
    ``str(x) == str(-x)`` hard for Z3 at times is not asked of it."""
    x, y = T.sym("x", T.INT), T.sym("y", T.INT)
    assert T.eq(T.int_str(x), T.int_str(y)) is T.eq(x, y)
    for text in ["0", "-0", "12", "-12", "012", "+1", " 1", "1_0", "", "-", "\u0661"]:
        test = T.eq(text, T.int_str(x))
        assert all(evaluate(test, {"x": v}) is (str(v) == text) for v in range(-15, 16)), text
