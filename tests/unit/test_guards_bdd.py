"""Laws of GuardManager: BDD guards over opaque atoms, checked against truth tables."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable, Hashable
from typing import Union

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.guards.bdd import Guard, GuardManager

ATOMS = ("p", "q", "r", "s")
ASSIGNMENTS = tuple(dict(zip(ATOMS, bits)) for bits in itertools.product((False, True), repeat=4))
HAVE_CUDD = importlib.util.find_spec("dd.cudd") is not None
BACKENDS = ("cudd", "autoref") if HAVE_CUDD else ("autoref",)

LAWS = settings(derandomize=True, max_examples=60, deadline=None, database=None)

# A boolean expression: an atom name, a constant, or ("not", e) / ("and"|"or", e, e).
Expr = Union[str, bool, tuple[object, ...]]

exprs: st.SearchStrategy[Expr] = st.recursive(
    st.sampled_from(ATOMS) | st.booleans(),
    lambda sub: st.tuples(st.just("not"), sub) | st.tuples(st.sampled_from(("and", "or")), sub, sub),
    max_leaves=12,
)


@pytest.fixture(scope="module", params=BACKENDS)
def mgr(request: pytest.FixtureRequest) -> GuardManager:
    """One manager per backend, shared by the examples of this module."""
    return GuardManager(request.param)


def build(mgr: GuardManager, e: Expr) -> Guard:
    if isinstance(e, bool):
        return mgr.true if e else mgr.false
    if isinstance(e, str):
        return mgr.atom(e)
    if e[0] == "not":
        return mgr.not_(build(mgr, e[1]))  # type: ignore[arg-type]
    left, right = build(mgr, e[1]), build(mgr, e[2])  # type: ignore[arg-type]
    return mgr.and_(left, right) if e[0] == "and" else mgr.or_(left, right)


def truth(e: Expr, a: dict[str, bool]) -> bool:
    if isinstance(e, bool):
        return e
    if isinstance(e, str):
        return a[e]
    if e[0] == "not":
        return not truth(e[1], a)  # type: ignore[arg-type]
    left, right = truth(e[1], a), truth(e[2], a)  # type: ignore[arg-type]
    return (left and right) if e[0] == "and" else (left or right)


TOP: Expr = True
BOTTOM: Expr = False


def conj(x: Expr, y: Expr) -> Expr:
    return ("and", x, y)


def disj(x: Expr, y: Expr) -> Expr:
    return ("or", x, y)


def neg(x: Expr) -> Expr:
    return ("not", x)


def models(mgr: GuardManager, g: Guard) -> list[dict[str, bool]]:
    return [a for a in ASSIGNMENTS if mgr.evaluate(g, a)]


def cube_guard(mgr: GuardManager, cube: dict[Hashable, bool]) -> Guard:
    return mgr.and_all(mgr.atom(x) if b else mgr.not_(mgr.atom(x)) for x, b in cube.items())


# --------------------------------------------------------------- backend


def test_default_backend_prefers_cudd() -> None:
    assert GuardManager().backend == ("cudd" if HAVE_CUDD else "autoref")


def test_forced_backends() -> None:
    assert GuardManager("autoref").backend == "autoref"
    if HAVE_CUDD:
        assert GuardManager("cudd").backend == "cudd"
    with pytest.raises(ValueError):
        GuardManager("buddy")


def test_falls_back_to_autoref_without_cudd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dd.cudd", None)  # makes `import dd.cudd` fail
    mgr = GuardManager()
    assert mgr.backend == "autoref"
    assert mgr.is_false(mgr.and_(mgr.atom("p"), mgr.not_(mgr.atom("p"))))
    with pytest.raises(ImportError):
        GuardManager("cudd")


# ----------------------------------------------------------------- atoms


@pytest.mark.parametrize("backend", BACKENDS)
def test_atoms_get_variables_in_order_of_first_use(backend: str) -> None:
    mgr = GuardManager(backend)
    p, q = mgr.atom("p"), mgr.atom("q")
    assert mgr.atom("p") == p and p != q
    assert [mgr.var_name(x) for x in ("p", "q", "r")] == ["a0", "a1", None]
    assert mgr.atom_of("a1") == "q"
    assert mgr.atoms == ("p", "q")


@pytest.mark.parametrize("backend", BACKENDS)
def test_atoms_are_keyed_by_type(backend: str) -> None:
    mgr = GuardManager(backend)
    assert mgr.atom(1) != mgr.atom(True) != mgr.atom(1.0)
    assert mgr.atoms == (1, True, 1.0)


# ----------------------------------------------------------- operations


@LAWS
@given(e=exprs)
def test_guards_agree_with_truth_tables(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    assert [mgr.evaluate(g, a) for a in ASSIGNMENTS] == [truth(e, a) for a in ASSIGNMENTS]
    assert mgr.is_false(g) == (not any(truth(e, a) for a in ASSIGNMENTS))
    assert mgr.is_true(g) == all(truth(e, a) for a in ASSIGNMENTS)


@LAWS
@given(e=exprs, f=exprs)
def test_implies_is_model_inclusion(mgr: GuardManager, e: Expr, f: Expr) -> None:
    g, h = build(mgr, e), build(mgr, f)
    assert mgr.implies(g, h) == all(truth(f, a) for a in ASSIGNMENTS if truth(e, a))


@LAWS
@given(c=exprs, e=exprs, f=exprs)
def test_ite_and_folds(mgr: GuardManager, c: Expr, e: Expr, f: Expr) -> None:
    gc, g, h = build(mgr, c), build(mgr, e), build(mgr, f)
    assert mgr.ite(gc, g, h) == mgr.or_(mgr.and_(gc, g), mgr.and_(mgr.not_(gc), h))
    assert mgr.and_all([gc, g, h]) == mgr.and_(gc, mgr.and_(g, h))
    assert mgr.or_all([gc, g, h]) == mgr.or_(gc, mgr.or_(g, h))
    assert mgr.and_all([]) == mgr.true and mgr.or_all([]) == mgr.false


@LAWS
@given(e=exprs)
def test_support_lists_relevant_atoms(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    relevant = {x for x in ATOMS if any(mgr.evaluate(g, a) != mgr.evaluate(g, {**a, x: not a[x]}) for a in ASSIGNMENTS)}
    assert set(mgr.support(g)) == relevant


# -------------------------------------------------------------- formulas


@LAWS
@given(e=exprs)
def test_to_formula_round_trips(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    again = mgr.to_formula(g, mgr.and_, mgr.or_, mgr.not_, mgr.true, mgr.false, leaf=mgr.atom)
    assert again == g


@LAWS
@given(e=exprs)
def test_to_formula_builds_equivalent_terms(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    term = mgr.to_formula(g, conj, disj, neg, TOP, BOTTOM)
    assert [truth(term, a) for a in ASSIGNMENTS] == [truth(e, a) for a in ASSIGNMENTS]


@pytest.mark.parametrize("backend", BACKENDS)
def test_to_formula_and_cubes_handle_deep_guards(backend: str) -> None:
    mgr = GuardManager(backend)
    names = [f"x{i}" for i in range(2 * sys.getrecursionlimit())]
    variables = [mgr.atom(n) for n in names]
    g = mgr.true
    for v in reversed(variables):  # bottom-up, so dd's own recursion stays shallow
        g = mgr.and_(v, g)
    assert mgr.to_formula(g, mgr.and_, mgr.or_, mgr.not_, mgr.true, mgr.false, leaf=mgr.atom) == g
    assert list(mgr.cubes(g)) == [dict.fromkeys(names, True)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_to_formula_constants(backend: str) -> None:
    mgr = GuardManager(backend)
    for g, expected in ((mgr.true, "T"), (mgr.false, "F")):
        assert mgr.to_formula(g, max, max, str.lower, "T", "F") == expected


# ----------------------------------------------------------------- cubes


@LAWS
@given(e=exprs)
def test_cubes_partition_the_guard(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    cubes = [cube_guard(mgr, c) for c in mgr.cubes(g)]
    assert mgr.or_all(cubes) == g
    for i, c in enumerate(cubes):
        assert not mgr.is_false(c)
        assert all(mgr.is_false(mgr.and_(c, d)) for d in cubes[i + 1 :])


@LAWS
@given(e=exprs)
def test_cubes_with_care_are_the_models(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    found = [tuple(m[x] for x in ATOMS) for m in mgr.cubes(g, care=ATOMS)]
    assert sorted(found) == sorted(tuple(a.values()) for a in models(mgr, g))
    assert len(set(found)) == len(found)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cubes_care_must_cover_support(backend: str) -> None:
    mgr = GuardManager(backend)
    g = mgr.or_(mgr.atom("p"), mgr.atom("q"))
    with pytest.raises(ValueError):
        list(mgr.cubes(g, care=["p"]))
    assert list(mgr.cubes(mgr.true, care=["never-used"])) == [
        {"never-used": False},
        {"never-used": True},
    ]
    assert mgr.var_name("never-used") is None


# -------------------------------------------------------------- counters


@pytest.mark.parametrize("backend", BACKENDS)
def test_counters_increase_and_reset(backend: str) -> None:
    mgr = GuardManager(backend)
    assert (mgr.ops, mgr.time_s) == (0, 0.0)
    p = mgr.atom("p")
    g = mgr.and_(p, mgr.not_(mgr.atom("q")))
    ops, spent = mgr.ops, mgr.time_s
    assert ops >= 4 and spent == 0.0  # only timed() regions are timed
    with mgr.timed():
        with mgr.timed():  # nested regions count once
            mgr.to_formula(g, mgr.and_, mgr.or_, mgr.not_, mgr.true, mgr.false, leaf=mgr.atom)
    assert mgr.ops > ops and mgr.time_s > spent
    mgr.reset_counters()
    assert (mgr.ops, mgr.time_s) == (0, 0.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_operation_is_counted(backend: str) -> None:
    mgr = GuardManager(backend)
    p, q = mgr.atom("p"), mgr.atom("q")
    steps: list[Callable[[], object]] = [
        lambda: mgr.or_(p, q),
        lambda: mgr.ite(p, q, p),
        lambda: mgr.implies(p, q),
        lambda: mgr.support(p),
        lambda: mgr.size(p),
        lambda: mgr.evaluate(p, {"p": True}),
        lambda: list(mgr.cubes(p)),
    ]
    for step in steps:
        before = mgr.ops
        step()
        assert mgr.ops > before
    before = mgr.ops  # comparisons with the constants are pointer tests, not BDD operations
    assert not mgr.is_false(p) and not mgr.is_true(p)
    assert mgr.ops == before


@LAWS
@given(e=exprs)
def test_path_count_counts_the_cubes(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    assert mgr.path_count(g) == len(list(mgr.cubes(g)))


@LAWS
@given(e=exprs, bits=st.lists(st.booleans(), min_size=len(ASSIGNMENTS[0]), max_size=len(ASSIGNMENTS[0])))
def test_cube_near_follows_the_assignment_where_it_can(mgr: GuardManager, e: Expr, bits: list[bool]) -> None:
    g = build(mgr, e)
    if mgr.is_false(g):
        return
    assignment = dict(zip(sorted(ASSIGNMENTS[0]), bits))
    cube = dict(mgr.cube_near(g, assignment))
    assert mgr.implies(cube_guard(mgr, cube), g)  # a path of g to TRUE
    if mgr.evaluate(g, assignment):
        assert all(assignment[atom] == value for atom, value in cube.items())  # no flip needed


@LAWS
@given(e=exprs)
def test_split_cube_splits_forced_literals(mgr: GuardManager, e: Expr) -> None:
    g = build(mgr, e)
    literals, rest = mgr.split_cube(g)
    assert mgr.and_(cube_guard(mgr, dict(literals)), rest) == g
    for atom, value in literals:  # forced: every model of g agrees
        assert all(a[atom] == value for a in models(mgr, g))  # type: ignore[index]


@LAWS
@given(e=exprs, f=exprs)
def test_formula_builder_with_ite_round_trips_across_builds(mgr: GuardManager, e: Expr, f: Expr) -> None:
    builder = mgr.formula_builder(mgr.and_, mgr.or_, mgr.not_, mgr.true, mgr.false, leaf=mgr.atom, ite=mgr.ite)
    g, h = build(mgr, e), build(mgr, f)
    assert builder.build(g) == g and builder.build(h) == h and builder.build(g) == g  # one memo, many guards


def test_a_result_guard_too_large_to_state_is_one_path_and_an_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A MultiSE result guard of more BDD nodes than ``RESULT_GUARD_LIMIT`` is not turned into
    a formula (tree/max_height.py of the real-code corpus: a guard of 2.25M nodes took
    gigabytes): its path nearest the model is reported, with an input that replays, beside an
    ``unknown`` result; the run is incomplete, and the harness's checks still pass."""
    from pathlib import Path

    from pathloom.engines import multise
    from tests.differential.harness import check_program, load_regression

    monkeypatch.setattr(multise.limits, "RESULT_GUARD_LIMIT", 1)
    regression = load_regression(Path(__file__).parents[1] / "differential" / "regressions" / "multise_pose_replay_return_value_37fcd34c.py")
    report = check_program(regression.program, ["multise"], 10, options=regression.options, heaps=["pose"])
    assert report.ok, report.describe()
    exploration = next(iter(report.explorations.values()))
    unknown = [p for p in exploration.paths if p.outcome == "unknown"]
    assert unknown and not exploration.complete
    assert all("too large to state" in (p.reason or "") for p in unknown)
    assert any(p.outcome in ("return", "raise") for p in exploration.paths)
    assert report.checks["replay"] > 0
