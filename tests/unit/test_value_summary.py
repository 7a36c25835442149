"""Laws of ValueSummary, checked pointwise on every assignment of four atoms."""

from __future__ import annotations

import collections
import importlib.util
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.guards.bdd import Guard, GuardManager
from pathloom.guards.summary import ValueSummary, same_value, value_key

ATOMS = ("p", "q", "r", "s")
ASSIGNMENTS = tuple(dict(zip(ATOMS, bits)) for bits in itertools.product((False, True), repeat=4))
N = len(ASSIGNMENTS)
HAVE_CUDD = importlib.util.find_spec("dd.cudd") is not None
BACKENDS = ("cudd", "autoref") if HAVE_CUDD else ("autoref",)

LAWS = settings(derandomize=True, max_examples=50, deadline=None, database=None)

NAN = float("nan")
# Values that Python's == conflates in many ways; compaction must not.
POOL: tuple[object, ...] = (
    0,
    1,
    2,
    True,
    False,
    1.0,
    0.0,
    -0.0,
    NAN,
    "a",
    "",
    None,
    (1,),
    (True,),
    (0.0,),
    (-0.0,),
    frozenset({1}),
    frozenset({True}),
    abs,
    len,
)
MISSING = object()

Spec = tuple[list[object], list[int]]

# A raw summary: entry values, plus for each assignment the index of the entry
# whose guard holds there (indices past the end: no entry holds).  Guards built
# from such a table are disjoint; some may be false and values may repeat.
raw_specs = st.tuples(
    st.lists(st.sampled_from(POOL), max_size=5),
    st.lists(st.integers(0, 6), min_size=N, max_size=N),
)
# A path constraint: its truth table.
pcs = st.lists(st.booleans(), min_size=N, max_size=N)


def pair(a: object, b: object) -> object:
    return (a, b)


def same_type(a: object, b: object) -> object:
    return type(a) is type(b)


def smaller_repr(a: object, b: object) -> object:
    return a if repr(a) <= repr(b) else b


def truthy_or(a: object, b: object) -> object:
    return a or b


BINARY: tuple[Callable[[Any, Any], object], ...] = (pair, same_type, smaller_repr, truthy_or)
UNARY: tuple[Callable[[Any], object], ...] = (bool, repr, type, lambda v: v, lambda v: (v,))


@pytest.fixture(scope="module", params=BACKENDS)
def mgr(request: pytest.FixtureRequest) -> GuardManager:
    """One manager per backend, shared by the examples of this module."""
    return GuardManager(request.param)


# ---------------------------------------------------------------- helpers


def minterm(mgr: GuardManager, a: dict[str, bool]) -> Guard:
    return mgr.and_all(mgr.atom(x) if b else mgr.not_(mgr.atom(x)) for x, b in a.items())


def guard_of_table(mgr: GuardManager, table: Sequence[bool]) -> Guard:
    return mgr.or_all(minterm(mgr, a) for a, hit in zip(ASSIGNMENTS, table) if hit)


def raw(mgr: GuardManager, spec: Spec) -> ValueSummary[object]:
    values, table = spec
    return ValueSummary(tuple((guard_of_table(mgr, [i == j for j in table]), v) for i, v in enumerate(values)))


def at(mgr: GuardManager, s: ValueSummary[Any], a: dict[str, bool]) -> object:
    """The value of ``s`` under ``a``; asserts that at most one guard holds."""
    hits = [v for g, v in s if mgr.evaluate(g, a)]
    assert len(hits) <= 1, (s, a)
    return hits[0] if hits else MISSING


def table_of(mgr: GuardManager, s: ValueSummary[Any]) -> list[object]:
    return [at(mgr, s, a) for a in ASSIGNMENTS]


def same_tables(xs: Sequence[object], ys: Sequence[object]) -> bool:
    return len(xs) == len(ys) and all(same_value(x, y) for x, y in zip(xs, ys))


# ----------------------------------------------------------- value equality


def test_value_key_keeps_python_distinctions() -> None:
    distinct = [1, True, 1.0, 0.0, -0.0, (1,), (True,), (0.0,), (-0.0,), frozenset({1}), frozenset({True}), complex(0, 0), complex(0, -0.0)]
    keys = [value_key(v) for v in distinct]
    assert len(set(keys)) == len(keys)
    assert same_value(1, 1) and same_value("a", "a") and same_value((1, "x"), (1, "x"))
    assert same_value(NAN, NAN) and not same_value(NAN, float("nan"))
    point = collections.namedtuple("point", "x y")
    assert not same_value(point(1, 0.0), point(True, 0.0))
    assert not same_value(point(1, 0.0), point(1, -0.0))
    assert not same_value(point(1, 2), (1, 2)) and same_value(point(1, 2), point(1, 2))


@pytest.mark.parametrize("backend", BACKENDS)
def test_equal_values_join_and_lookalikes_do_not(backend: str) -> None:
    mgr = GuardManager(backend)
    p, q = mgr.atom("p"), mgr.atom("q")
    np_q, np_nq = mgr.and_(mgr.not_(p), q), mgr.and_(mgr.not_(p), mgr.not_(q))
    s = ValueSummary(((p, 1), (np_q, 1), (np_nq, True)))
    assert s.compact(mgr) == ValueSummary(((mgr.or_(p, np_q), 1), (np_nq, True)))
    lookalikes = ValueSummary(((p, 0.0), (np_q, -0.0), (np_nq, False)))
    assert len(lookalikes.compact(mgr)) == 3
    assert len(s.compact(mgr, join=False)) == 3


# ---------------------------------------------------------------- compaction


@LAWS
@given(spec=raw_specs, join=st.booleans())
def test_compaction_laws(mgr: GuardManager, spec: Spec, join: bool) -> None:
    s = raw(mgr, spec)
    c = s.compact(mgr, join=join)
    assert c.is_well_formed(mgr, joined=join)
    assert c.domain(mgr) == s.domain(mgr)
    assert same_tables(table_of(mgr, c), table_of(mgr, s))
    live = [v for g, v in s if not mgr.is_false(g)]
    if join:
        first_seen: dict[object, object] = {}
        for v in live:
            first_seen.setdefault(value_key(v), v)
        assert same_tables(c.values(), list(first_seen.values()))
    else:
        assert same_tables(c.values(), live)


@LAWS
@given(spec=raw_specs)
def test_false_guards_vanish(mgr: GuardManager, spec: Spec) -> None:
    s = raw(mgr, spec)
    for join in (True, False):
        assert not any(mgr.is_false(g) for g in s.compact(mgr, join=join).guards())
        merged = s.merge(mgr, ValueSummary.empty(), join=join)
        assert not any(mgr.is_false(g) for g in merged.guards())
    assert len(s.restrict(mgr, mgr.false)) == 0
    assert len(ValueSummary.guarded(mgr, mgr.false, 1)) == 0


# -------------------------------------------------------------------- merge


@LAWS
@given(spec=raw_specs)
def test_merge_with_itself_is_idempotent(mgr: GuardManager, spec: Spec) -> None:
    s = raw(mgr, spec).compact(mgr)
    assert s.merge(mgr, s) == s
    assert raw(mgr, spec).merge(mgr, raw(mgr, spec)).equivalent(mgr, s)


@LAWS
@given(spec=raw_specs, pc=pcs, join=st.booleans())
def test_merge_of_restrictions_rebuilds(mgr: GuardManager, spec: Spec, pc: list[bool], join: bool) -> None:
    s = raw(mgr, spec).compact(mgr)
    g = guard_of_table(mgr, pc)
    rebuilt = s.restrict(mgr, g).merge(mgr, s.restrict(mgr, mgr.not_(g)), join=join)
    assert rebuilt.is_well_formed(mgr)
    assert same_tables(table_of(mgr, rebuilt), table_of(mgr, s))
    if join:
        assert rebuilt.equivalent(mgr, s) and len(rebuilt) == len(s)


# ------------------------------------------------------------------ restrict


@LAWS
@given(spec=raw_specs, pc=pcs)
def test_restrict_is_pointwise(mgr: GuardManager, spec: Spec, pc: list[bool]) -> None:
    s = raw(mgr, spec)
    r = s.restrict(mgr, guard_of_table(mgr, pc))
    expected = [v if hit else MISSING for v, hit in zip(table_of(mgr, s), pc)]
    assert same_tables(table_of(mgr, r), expected)
    assert s.restrict(mgr, mgr.true) == s.compact(mgr, join=False)


# -------------------------------------------------------------------- assign


@LAWS
@given(spec=raw_specs, pc=pcs, new=st.sampled_from(POOL), join=st.booleans())
def test_assign_laws(mgr: GuardManager, spec: Spec, pc: list[bool], new: object, join: bool) -> None:
    s = raw(mgr, spec).compact(mgr, join=join)
    p = guard_of_table(mgr, pc)
    t = s.assign(mgr, p, new, join=join)
    assert t.is_well_formed(mgr, joined=join)
    assert t.restrict(mgr, mgr.not_(p)) == s.restrict(mgr, mgr.not_(p))
    assert t.restrict(mgr, p) == ValueSummary.guarded(mgr, p, new)
    expected = [new if hit else v for v, hit in zip(table_of(mgr, s), pc)]
    assert same_tables(table_of(mgr, t), expected)


@LAWS
@given(spec=raw_specs, rhs=raw_specs, pc=pcs, join=st.booleans())
def test_assign_summary_is_pointwise(
    mgr: GuardManager,
    spec: Spec,
    rhs: Spec,
    pc: list[bool],
    join: bool,
) -> None:
    s, r = raw(mgr, spec).compact(mgr), raw(mgr, rhs).compact(mgr)
    t = s.assign_summary(mgr, guard_of_table(mgr, pc), r, join=join)
    assert t.is_well_formed(mgr, joined=join)
    expected = [w if hit else v for v, w, hit in zip(table_of(mgr, s), table_of(mgr, r), pc)]
    assert same_tables(table_of(mgr, t), expected)


@LAWS
@given(spec=raw_specs, pc=pcs, pick=st.integers(0, 4))
def test_assigning_a_value_held_around_the_pc_changes_nothing(mgr: GuardManager, spec: Spec, pc: list[bool], pick: int) -> None:
    """The shortcut of ``assign_summary``: the value is already there under a guard that
    contains the pc, so the summary comes back as it is, and pointwise it is right."""
    s = raw(mgr, spec).compact(mgr)
    if not s.entries:
        return
    g, v = s.entries[pick % len(s.entries)]
    p = mgr.and_(g, guard_of_table(mgr, pc))  # inside g
    t = s.assign(mgr, p, v)
    assert t is s
    hits = [mgr.evaluate(p, a) for a in ASSIGNMENTS]
    expected = [v if hit else old for old, hit in zip(table_of(mgr, s), hits)]
    assert same_tables(table_of(mgr, t), expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_assign_matches_the_paper_example(backend: str) -> None:
    """Slides 44-46: ``z = r - 1`` under pc phi6 keeps z0 under not phi6."""
    mgr = GuardManager(backend)
    phi12, phi3, big = mgr.atom("phi1|phi2"), mgr.atom("phi3"), mgr.atom("r0>1")
    r: ValueSummary[str | float] = ValueSummary(((phi12, "r0"), (mgr.and_(mgr.not_(phi12), phi3), 1.3)))
    phi6 = mgr.or_(mgr.and_(phi12, big), mgr.and_(mgr.not_(phi12), phi3))
    z: ValueSummary[str | float] = ValueSummary.single(mgr, "z0")
    r_minus_1 = r.restrict(mgr, phi6).map(mgr, lambda v: f"{v}-1" if isinstance(v, str) else v - 1)
    z2 = z.assign_summary(mgr, phi6, r_minus_1)
    assert z2 == ValueSummary(
        (
            (mgr.not_(phi6), "z0"),
            (mgr.and_(phi6, phi12), "r0-1"),
            (mgr.and_(phi6, mgr.and_(mgr.not_(phi12), phi3)), 1.3 - 1),
        )
    )


# ----------------------------------------------------------------- lifting


@LAWS
@given(spec=raw_specs, fn=st.sampled_from(UNARY), join=st.booleans())
def test_map_is_pointwise(mgr: GuardManager, spec: Spec, fn: Callable[[Any], object], join: bool) -> None:
    s = raw(mgr, spec)
    m = s.map(mgr, fn, join=join)
    assert m.is_well_formed(mgr, joined=join)
    expected = [MISSING if v is MISSING else fn(v) for v in table_of(mgr, s)]
    assert same_tables(table_of(mgr, m), expected)


@LAWS
@given(x=raw_specs, y=raw_specs, fn=st.sampled_from(BINARY), join=st.booleans())
def test_lift2_is_pointwise(
    mgr: GuardManager,
    x: Spec,
    y: Spec,
    fn: Callable[[Any, Any], object],
    join: bool,
) -> None:
    s1, s2 = raw(mgr, x), raw(mgr, y)
    lifted = s1.lift2(mgr, s2, fn, join=join)
    assert lifted.is_well_formed(mgr, joined=join)
    for a in ASSIGNMENTS:
        v1, v2 = at(mgr, s1, a), at(mgr, s2, a)
        holding = [v for g, v in lifted if mgr.evaluate(g, a)]
        if v1 is MISSING or v2 is MISSING:
            assert holding == []
        else:
            assert len(holding) == 1 and same_value(holding[0], fn(v1, v2))


@LAWS
@given(specs=st.lists(raw_specs, min_size=0, max_size=3))
def test_lift_is_pointwise(mgr: GuardManager, specs: list[Spec]) -> None:
    summaries = [raw(mgr, spec) for spec in specs]
    lifted = ValueSummary.lift(mgr, summaries, lambda *vs: vs)
    assert lifted.is_well_formed(mgr, joined=True)
    for a in ASSIGNMENTS:
        args = tuple(at(mgr, s, a) for s in summaries)
        expected = MISSING if any(v is MISSING for v in args) else args
        assert same_value(at(mgr, lifted, a), expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_lift_calls_fn_only_on_feasible_combinations(backend: str) -> None:
    mgr = GuardManager(backend)
    p, not_p = mgr.atom("p"), mgr.not_(mgr.atom("p"))
    num = ValueSummary(((p, 2), (not_p, 4)))
    den = ValueSummary(((p, 1), (not_p, 0)))
    calls: list[tuple[int, int]] = []

    def record(a: int, b: int) -> int:
        calls.append((a, b))
        return a * b

    assert num.lift2(mgr, den, record) == ValueSummary(((p, 2), (not_p, 0)))
    assert calls == [(2, 1), (4, 0)]
    assert ValueSummary.lift(mgr, [], lambda: "k") == ValueSummary.single(mgr, "k")


# ------------------------------------------------------------------ queries


@LAWS
@given(spec=raw_specs, pred=st.sampled_from(UNARY[:1] + (callable, lambda v: v is None)))
def test_guard_of_is_pointwise(mgr: GuardManager, spec: Spec, pred: Callable[[Any], object]) -> None:
    s = raw(mgr, spec)
    g = s.guard_of(mgr, pred)
    expected = [v is not MISSING and bool(pred(v)) for v in table_of(mgr, s)]
    assert [mgr.evaluate(g, a) for a in ASSIGNMENTS] == expected


@LAWS
@given(spec=raw_specs)
def test_structural_equality_and_hash(mgr: GuardManager, spec: Spec) -> None:
    s, t = raw(mgr, spec).compact(mgr), raw(mgr, spec).compact(mgr)
    assert s == t and hash(s) == hash(t)
    assert list(s) == list(s.entries) and len(s) == len(s.values()) == len(s.guards())
    if len(s) > 1:
        swapped = ValueSummary(s.entries[1:] + s.entries[:1])
        assert swapped != s and swapped.equivalent(mgr, s)


def test_immutable() -> None:
    s: ValueSummary[int] = ValueSummary.empty()
    with pytest.raises(AttributeError):
        s.entries = ()  # type: ignore[misc]


@pytest.mark.parametrize("backend", BACKENDS)
def test_operations_are_counted_by_the_manager(backend: str) -> None:
    mgr = GuardManager(backend)
    p = mgr.atom("p")
    s = ValueSummary.single(mgr, 0).assign(mgr, p, 1)
    before_ops, before_time = mgr.ops, mgr.time_s
    s.lift2(mgr, s, lambda a, b: a + b)
    assert mgr.ops > before_ops and mgr.time_s > before_time
