"""Theory lemmas between integer comparison atoms: valid on every integer, and strong enough
to decide the contradictions they are for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.guards.bdd import GuardManager
from pathloom.guards.theory import MAX_NODES, Lemmas, complement, int_set, literal_set, nearest, solve_intervals
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate

X = T.sym("x", T.INT)
Y = T.sym("y", T.INT)
LAWS = settings(derandomize=True, max_examples=150, deadline=None, database=None)

consts = st.integers(-4, 4)
atoms = st.one_of(
    st.builds(lambda c: T.eq(X, c), consts),
    st.builds(lambda c: T.lt(X, c), consts),
    st.builds(lambda c: T.le(X, c), consts),
    st.builds(lambda c: T.lt(c, X), consts),
    st.builds(lambda c: T.le(c, X), consts),
    st.builds(lambda c, k: T.lt(T.add(X, k), c), consts, consts),
    st.builds(lambda c: T.eq(Y, c), consts),
    st.builds(lambda c: T.lt(X, Y) if c else T.le(Y, X), st.booleans()),
)


def _members(s: tuple[tuple[int | None, int | None], ...], lo: int = -12, hi: int = 12) -> set[int]:
    return {v for v in range(lo, hi + 1) if any((a is None or a <= v) and (b is None or v <= b) for a, b in s)}


@LAWS
@given(st.lists(atoms, min_size=1, max_size=6), st.integers(-9, 9), st.integers(-9, 9))
def test_lemmas_hold_on_every_integer(found: list[T.Term], x: int, y: int) -> None:
    mgr = GuardManager()
    lemmas = Lemmas(mgr)
    for atom in found:
        if isinstance(atom, T.Term):
            lemmas.add_atom(atom, mgr.atom(atom))
    truth = {a: bool(evaluate(a, {"x": x, "y": y})) for a in found if isinstance(a, T.Term)}
    assert mgr.evaluate(lemmas.guard, truth)


@LAWS
@given(atoms, st.integers(-9, 9))
def test_int_set_is_the_atoms_meaning(atom: T.Term, x: int) -> None:
    found = int_set(atom)
    if found is None:
        assert T.symbols(atom) == {X, Y}  # only the two-variable comparisons have no set
        return
    term, s = found
    assert term is X or term is Y
    holds = bool(evaluate(atom, {"x": x, "y": x}))
    assert (x in _members(s)) == holds
    assert (x in _members(complement(s))) == (not holds)


def test_lemmas_decide_contradictions_with_the_input_domain() -> None:
    mgr = GuardManager()
    n = T.sym("xs.len", T.INT)
    lemmas = Lemmas(mgr, [T.le(0, n), T.le(n, 4)])
    beyond = T.lt(4, n)  # 4 < len: never, given len <= 4
    is_minus4, non_negative = T.eq(X, -4), T.le(0, X)
    for atom in (beyond, is_minus4, non_negative):
        lemmas.add_atom(atom, mgr.atom(atom))
    assert mgr.is_false(mgr.and_(mgr.atom(beyond), lemmas.guard))
    assert mgr.is_false(mgr.and_(mgr.and_(mgr.atom(is_minus4), mgr.atom(non_negative)), lemmas.guard))
    assert not mgr.is_false(mgr.and_(mgr.atom(is_minus4), lemmas.guard))


def test_lemmas_stop_growing_at_their_node_budget() -> None:
    """Atoms over many terms, allocated interleaved: the lemma BDD would grow as a product of
    the terms' constraints; it stops at ``MAX_NODES`` and what it holds stays valid."""
    mgr = GuardManager()
    lemmas = Lemmas(mgr)
    terms = [T.sym(f"t{i}", T.INT) for i in range(30)]
    for c in range(12):
        for t in terms:
            atom = T.lt(t, c)
            lemmas.add_atom(atom, mgr.atom(atom))
    assert lemmas.full
    assert mgr.size(lemmas.guard) <= MAX_NODES
    truth = {T.lt(t, c): bool(i % 7 < c) for i, t in enumerate(terms) for c in range(12)}
    assert mgr.evaluate(lemmas.guard, truth)  # t_i = i % 7 satisfies every lemma


@LAWS
@given(atoms, st.integers(-3, 3), st.integers(-3, 3))
def test_an_atom_decided_by_the_domain_has_that_value_on_every_input_in_it(atom: T.Term, lo: int, size: int) -> None:
    hi = lo + abs(size)
    lemmas = Lemmas(GuardManager(), [T.le(lo, X), T.le(X, hi)])
    decided = lemmas.decided(atom)
    values = {bool(evaluate(atom, {"x": x, "y": x})) for x in range(lo, hi + 1)}
    if decided is not None:
        assert values == {decided}
    elif T.symbols(atom) == {X}:
        assert values == {False, True}  # the domain decides every one-term atom it can


literals = st.builds(lambda atom, positive: atom if positive else T.not_(atom), atoms, st.booleans())


@LAWS
@given(st.lists(literals, min_size=1, max_size=5), st.integers(-6, 6), st.integers(-6, 6))
def test_interval_solutions_satisfy_every_literal_over_the_seeds_symbols(cube: list[T.Term], x: int, y: int) -> None:
    """``solve_intervals`` with the first literal as the seed: new values satisfy every
    literal over the symbols they change, ``False`` only when no value in a wide range
    does, ``None`` only when some literal over a seed's symbol is not an interval."""
    terms = [c for c in cube if isinstance(c, T.Term)]
    if not terms:
        return
    model = {"x": x, "y": y}
    found = solve_intervals(terms[:1], terms, model)
    seed_symbols = T.symbols(terms[0])
    touching = [c for c in terms if T.symbols(c) & seed_symbols]
    if found is None:
        assert any(literal_set(c) is None for c in touching) or literal_set(terms[0]) is None
    elif found is False:
        names = {str(s.args[0]) for s in seed_symbols}
        for value in range(-20, 21):
            env = {**model, **{n: value for n in names}}
            assert not all(evaluate(c, env) is True for c in touching)
    else:
        env = {**model, **found}
        assert all(evaluate(c, env) is True for c in touching)


@LAWS
@given(st.lists(st.tuples(st.integers(-9, 9), st.integers(0, 5)), min_size=1, max_size=3), st.integers(-15, 15))
def test_nearest_is_a_closest_member(intervals: list[tuple[int, int]], value: int) -> None:
    s = tuple(sorted({(lo, lo + width) for lo, width in intervals}))
    members = {v for lo, hi in s for v in range(lo, hi + 1)}
    picked = nearest(s, value)
    assert picked in members
    assert abs(picked - value) == min(abs(m - value) for m in members)
