"""Terms: interning, folding, and agreement of the Z3 encoding with Python semantics."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate
from pathloom.terms.serialize import from_json, to_json
from pathloom.terms.z3_encode import assertion, encode

x = T.sym("x", T.INT)
y = T.sym("y", T.INT)
s = T.sym("s", T.STR)


def test_interning_and_commutative_order() -> None:
    assert T.add(x, y) is T.add(y, x)
    assert T.add(x, 1) is T.add(x, 1)
    assert T.eq(x, 3) is T.eq(3, x)


def test_constant_folding_keeps_concrete_values_concrete() -> None:
    assert T.add(2, 3) == 5
    assert T.floordiv(-7, 2) == -4
    assert T.mod(-7, 2) == 1
    assert T.mul(x, 0) == 0
    assert T.mul(x, 1) is x
    assert T.and_(True, T.lt(x, 1)) is T.lt(x, 1)
    assert T.not_(T.not_(T.lt(x, 1))) is T.lt(x, 1)
    assert T.ite(True, x, y) is x


def test_bools_and_ints_are_not_conflated_by_interning() -> None:
    a = T.ite(T.lt(x, 0), 1, 0)
    b = T.ite(T.lt(x, 0), True, False)
    assert a is not b
    assert b is T.lt(x, 0)


def _z3_value(term: T.Arg, env: dict[str, int]) -> int:
    solver = z3.Solver()
    for name, value in env.items():
        solver.add(z3.Int(name) == value)
    assert solver.check() == z3.sat
    return solver.model().eval(encode(term), model_completion=True).as_long()  # type: ignore[no-any-return]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(-50, 50), st.integers(-50, 50).filter(lambda v: v != 0))
def test_floor_division_and_modulo_match_python(a: int, b: int) -> None:
    env = {"x": a, "y": b}
    for term, expected in ((T.floordiv(x, y), a // b), (T.mod(x, y), a % b)):
        assert evaluate(term, env) == expected
        assert _z3_value(term, env) == expected


def test_pow2_is_exact_up_to_its_bound() -> None:
    n = T.sym("n", T.INT)
    for k in (0, 1, 31, 61, T.POW2_MAX):
        assert evaluate(T.pow2(n), {"n": k}) == 2**k
        assert _z3_value(T.pow2(n), {"n": k}) == 2**k
        assert _z3_value(T.floordiv(x, T.pow2(n)), {"x": -(3**40), "n": k}) == -(3**40) >> k


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.one_of(st.integers(-1000, 1000), st.integers(-(10**30), 10**30)))
def test_int_str_is_cpythons_decimal_text(a: int) -> None:
    term = T.int_str(x)
    assert evaluate(term, {"x": a}) == str(a)
    solver = z3.Solver()
    solver.add(z3.Int("x") == a, assertion(T.eq(T.str_len(term), len(str(a)))))
    assert solver.check() == z3.sat
    assert solver.model().eval(encode(term), model_completion=True).as_string() == str(a)


def test_pow2_and_int_str_factories_fold_and_print() -> None:
    assert T.pow2(5) == 32 and T.int_str(-12) == "-12"
    assert repr(T.mul(x, T.pow2(y))) == "(x * (2 ** y))"
    assert repr(T.concat(T.int_str(x), "!")) == "(str(x) + '!')"
    assert repr(T.eq(T.int_str(x), "-12")) == "(-12 == x)"  # the only int whose text it is
    assert from_json(to_json(T.floordiv(x, T.pow2(y)))) is T.floordiv(x, T.pow2(y))


def test_string_terms_evaluate_like_python() -> None:
    env = {"s": "abca"}
    assert evaluate(T.str_len(s), env) == 4
    assert evaluate(T.char_at(s, 2), env) == "c"
    assert evaluate(T.contains(s, "bc"), env) is True
    assert evaluate(T.contains("aeiou", T.char_at(s, 3)), env) is True
    assert evaluate(T.to_code(T.char_at(s, 0)), env) == 97


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.text("ab", max_size=4), st.integers(-2, 5), st.integers(-2, 5))
def test_substr_evaluates_like_z3_for_every_argument(text: str, start: int, count: int) -> None:
    """``substr`` is SMT-LIB's ``str.substr`` in the evaluator too (negative start or count,
    past the end), and with a non-negative start and count it is Python's
    ``s[start:start + count]``."""
    term = T.substr(s, x, y)
    env = {"s": text, "x": start, "y": count}
    solver = z3.Solver()
    solver.add(z3.String("s") == z3.StringVal(text), z3.Int("x") == start, z3.Int("y") == count)
    assert solver.check() == z3.sat
    in_z3 = solver.model().eval(encode(term), model_completion=True).as_string()
    assert evaluate(term, env) == in_z3 == T.substr(text, start, count)
    if start >= 0 and count >= 0:
        assert in_z3 == text[start : start + count]


def test_substr_of_a_whole_string_is_the_string() -> None:
    assert T.substr(s, 0, T.str_len(s)) is s
    assert T.substr(s, 1, T.str_len(s)) is not s
    assert str(T.substr(s, 1, 2)) == "substr(s, 1, 2)"


def test_serialization_round_trips_through_interning() -> None:
    term = T.ite(T.lt(x, T.add(y, 1)), T.str_len(s), T.neg(x))
    assert from_json(to_json(term)) is term
    assert from_json(to_json(True)) is True


def _ite_chain(levels: int) -> T.Arg:
    """A term whose tree triples with each level (every level uses the previous one 3 times)."""
    t: T.Arg = x
    for i in range(levels):
        t = T.ite(T.lt(t, i), t, T.add(t, 1))
    return t


def test_small_terms_print_as_trees() -> None:
    from pathloom.terms.printer import show

    assert show(T.add(T.mul(x, 3), 1)) == "(1 + (3 * x))"
    assert show(T.ite(T.lt(x, 0), x, T.neg(x))) == "(x if (x < 0) else -x)"
    assert show(7) == "7"


def test_shared_subterms_are_named_once_in_large_terms() -> None:
    from pathloom.terms.printer import show

    text = show(_ite_chain(60))  # as a tree: about 3**60 nodes
    assert text.startswith("let @1 = (x if (x < 0) else (1 + x)); @2 = (@1 if (@1 < 1) else (1 + @1));")
    assert text.endswith(" in (@59 if (@59 < 59) else (1 + @59))")
    assert len(text) < 5_000
    small = show(_ite_chain(2))
    assert "let" not in small and small.count("(x if (x < 0) else (1 + x))") == 3


def test_deep_terms_print_without_recursion() -> None:
    from pathloom.terms.printer import show

    t: T.Arg = x
    for i in range(3_000):  # deeper than Python's recursion limit
        t = T.add(T.mul(t, 3), T.sym(f"y{i}", T.INT))
    text = show(t, limit=10**6)
    assert text.count("(3 * ") == 3_000 and "let" not in text  # nothing shared: a tree


def test_long_texts_are_cut_and_say_so() -> None:
    """A path condition of thousands of conjuncts (a loop cut by the timeout) is written up to
    ``MAX_CHARS`` characters: writing a 234-KB condition into --json took 7 s past --timeout."""
    from pathloom.terms.printer import MAX_CHARS, show

    t: T.Arg = T.lt(x, 0)
    for i in range(20_000):
        t = T.and_(t, T.lt(T.sym(f"y{i}", T.INT), i))
    whole = show(t, limit=10**7)
    assert whole.count(" and ") == 20_000
    text = show(t)
    assert text == whole[:MAX_CHARS] + f" ... (cut: longer than {MAX_CHARS} characters)"
    named = show(_ite_chain(3_000), limit=500)
    assert named.startswith("let @1 = (x if (x < 0) else (1 + x));") and named.endswith("(cut: longer than 500 characters)")


@settings(max_examples=60)
@given(st.text("ab", max_size=4), st.text("ab", max_size=3))
def test_startswith_endswith_find_agree_with_z3_and_python(text: str, part: str) -> None:
    """``prefixof``, ``suffixof`` and ``indexof`` are ``str.startswith``, ``str.endswith`` and
    ``str.find`` in the evaluator, in Z3 and when folded, the empty part included."""
    p = T.sym("p", T.STR)
    env = {"s": text, "p": part}
    solver = z3.Solver()
    solver.add(z3.String("s") == z3.StringVal(text), z3.String("p") == z3.StringVal(part))
    assert solver.check() == z3.sat
    model = solver.model()
    for term, expected in ((T.prefix_of(p, s), text.startswith(part)), (T.suffix_of(p, s), text.endswith(part)), (T.index_of(s, p), text.find(part))):
        in_z3 = model.eval(encode(term), model_completion=True)
        in_z3_value = in_z3.as_long() if z3.is_int(in_z3) else z3.is_true(in_z3)
        assert evaluate(term, env) == in_z3_value == expected
    assert T.prefix_of(part, text) == text.startswith(part) and T.index_of(text, part) == text.find(part)


def test_ints_beyond_cpythons_str_conversion_limit_cross_to_z3_and_back() -> None:
    """CPython refuses int <-> decimal str beyond 4300 digits (a Z3 model of a real-code tree
    program had an int of 4301 and crashed the decoder): the encoder and the decoder convert
    such ints by pieces."""
    import z3

    from pathloom.terms.z3_encode import decode, decimal_of_int, encode, int_of_decimal

    for n in (0, -7, 10**4299, 10**4300 + 7, -(10**9001) - 3, 2**50_000):
        assert decode(z3.simplify(encode(T.add(n, 0) if isinstance(n, int) else n)), T.INT) == n  # type: ignore[arg-type]
        assert int_of_decimal(decimal_of_int(n)) == n
    assert decimal_of_int(12345) == "12345" and int_of_decimal("-00042") == -42


def test_input_size_of_an_int_beyond_a_floats_range() -> None:
    """The size that picks a bug group's simplest input: an int past a float's range is
    infinitely large, not an OverflowError (a real-code tree program's input under DSE)."""
    import math

    from pathloom.results import input_size

    assert input_size({"a": 10**400, "b": [1, 2]}) == math.inf
    assert input_size({"a": -3, "b": [1, True], "c": 2.5}) == 3 + 2 + 1 + 1 + 2.5
