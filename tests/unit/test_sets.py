"""The set model (``semantics.sets``): displays, comprehensions, ``set()``, ``in``, the
operators and methods are symbolic in both engines; iteration follows CPython's order where
the model knows it (replayed history), runs on pinned values where the items are symbolic, and
is unsupported where CPython's order is not determined (strs). Every exploration is replayed in
CPython (``--verify``), and the outcomes are checked against what CPython says for the inputs
found."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_verified, unsupported_said
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    ODD = frozenset({1, 3, 5})
    EVEN = {0, 2, 4}
    PRIMES = [2, 3, 5, 3]


    def with_real_sets(x: int, y: int) -> tuple:
        s = {x, y}
        u = EVEN | s
        t = s | ODD
        p = set(PRIMES) - s
        return (u, t, p, s <= ODD, EVEN == s, s != EVEN, s.issubset(ODD), s.isdisjoint(EVEN), len(s & EVEN))


    def display(x: int, y: int) -> set:
        return {x, y}


    def alias(b: bool) -> set:
        return {1, b}


    def member(x: int, xs: list[int]) -> int:
        s = set(xs)
        if x in s:
            return len(s)
        return -len(s)


    def methods(a: int, b: int) -> tuple:
        s = {a}
        s.add(b)
        t = s.copy()
        t.discard(a)
        s.remove(b)
        return (len(s), len(t), a in t, b in s)


    def remove_missing(a: int, b: int) -> int:
        s = {a}
        s.remove(b)
        return a


    def unhashable(xs: list[int]) -> int:
        s = {1}
        s.add(xs)
        return 0


    def operators(a: int, b: int, c: int) -> tuple:
        s = {a, b}
        t = {b, c}
        return (len(s | t), len(s & t), len(s - t), len(s ^ t), s <= t, s < t, s == t, s != t, t >= s)


    def in_place(a: int, b: int) -> int:
        s = {a, 1}
        s |= {b}
        s &= {1, 2, b}
        s -= {2}
        s ^= {3}
        return len(s) * 10 + (b in s)


    def identity(b: bool, n: int) -> tuple:
        ones = {b}
        ints = {n, 2}
        return (ones | ints, ints | ones, ones & ints, ints & ones, {1} & ones, ones & {1})


    def method_forms(a: int, xs: list[int]) -> tuple:
        s = {a, 5}
        u = s.union(xs)
        i = s.intersection(xs)
        d = s.difference(xs)
        x = s.symmetric_difference(xs)
        s.update(xs)
        return (u, i, d, x, s, s.issuperset(xs), u.issubset(s), d.isdisjoint(xs))


    def comprehension(n: int) -> list:
        s = {i * i % 7 for i in range(n % 9) if i != 3}
        out = []
        for v in s:
            out.append(v)
        return out


    def symbolic_order(xs: list[int]) -> list:
        out = []
        for v in set(xs):
            out.append(v)
        return out


    def small_order(xs: list[int]) -> list:
        assert all(0 <= x < 8 for x in xs)
        s = set(xs)
        s.add(len(xs))
        return [v for v in s]


    def order_free(xs: list[int]) -> tuple:
        s = set(xs)
        if not s:
            return ()
        return (min(s), max(s))


    def changed_while_iterated(n: int) -> int:
        s = {1, 2}
        for v in s:
            if n > 0:
                s.add(v + 10)
        return len(s)


    def pop(n: int) -> tuple:
        s = {n % 3, 5}
        return (s.pop(), len(s))


    def unhashable_in_comprehension(xs: list[int]) -> int:
        s = {
            [x] if x > 5 else 10 // x
            for x in xs
        }
        return len(s)


    def of_generator(xs: list[int]) -> int:
        s = set(
            [x] if x > 5 else 10 // x
            for x in xs
        )
        return len(s)


    def dict_comprehension_key(xs: list[int]) -> int:
        d = {
            [x]: 1
            for x in xs
        }
        return len(d)


    def input_set(s: set[int], x: int) -> int:
        if x in s:
            s.discard(x)
            return len(s)
        s.add(x)
        return -len(s)


    def input_order(s: set[int]) -> list:
        return [v for v in s]


    def input_words(words: set[str], w: str) -> bool:
        return w in words and len(words) > 1


    def of_strs(words: list[str]) -> int:
        s = {w for w in words if w}
        if "ab" in s:
            return len(s)
        return 0
""")


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sets") / "prog.py"
    path.write_text(SOURCE)
    return path


def _paths(result: dict) -> list[dict]:  # type: ignore[type-arg]
    return result["paths"]  # type: ignore[no-any-return]


def _symbolic(result: dict) -> None:  # type: ignore[type-arg]
    assert result["complete"], result
    assert not result["stats"]["concretizations"], result["stats"]["concretizations"]


def _run(name: str, *args: object) -> object:
    namespace: dict[str, object] = {}
    exec(compile(SOURCE, "prog.py", "exec"), namespace)  # noqa: S102 - our own test source
    return namespace[name](*args)  # type: ignore[operator]


def _set(encoded: object) -> set[object]:
    assert isinstance(encoded, dict) and "$set" in encoded, encoded
    return set(encoded["$set"])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "target",
    [
        "display",
        "alias",
        "member",
        "methods",
        "remove_missing",
        "operators",
        "in_place",
        "identity",
        "method_forms",
        "comprehension",
        "order_free",
        "of_strs",
        "with_real_sets",
        "input_set",
        "input_words",
    ],
)
def test_symbolic_in_both_engines(program: Path, engine: str, target: str) -> None:
    # method_forms takes dse about 21 s alone (18,565 solver calls); the default 60-s timeout
    # cut it in CI runs sharing the two cores: completeness is asked, not speed
    result = explore_verified(program, target, engine, "--timeout", "300")
    _symbolic(result)


def test_equal_items_are_one_item(program: Path) -> None:
    result = explore_verified(program, "display", "dse")
    sizes = sorted((p["inputs"]["x"] == p["inputs"]["y"], len(_set(p["returned"]))) for p in _paths(result))
    assert sizes == [(False, 2), (True, 1)]


def test_a_bool_equal_to_an_int_is_the_int_kept_first(program: Path) -> None:
    result = explore_verified(program, "alias", "dse")
    assert {p["inputs"]["b"]: p["returned"] for p in _paths(result)} == {True: {"$set": [1]}, False: {"$set": [1, False]}}


def test_membership_and_size_of_a_set_of_a_list(program: Path) -> None:
    result = explore_verified(program, "member", "dse")
    for p in _paths(result):
        assert p["returned"] == _run("member", p["inputs"]["x"], p["inputs"]["xs"])
    sizes = {abs(p["returned"]) for p in _paths(result)}
    assert sizes == {0, 1, 2, 3, 4}
    assert {p["returned"] > 0 for p in _paths(result)} == {True, False}


def test_remove_of_a_missing_item_is_key_error_with_the_item(program: Path) -> None:
    result = explore_verified(program, "remove_missing", "dse")
    raised = [p for p in _paths(result) if p["outcome"] == "raise"]
    assert [p["exception"] for p in raised] == ["KeyError"]
    assert raised[0]["message"] == repr(raised[0]["inputs"]["b"])


def test_an_unhashable_item_is_cpythons_type_error(program: Path) -> None:
    result = explore_verified(program, "unhashable", "dse")
    assert [(p["exception"], p["message"]) for p in _paths(result)] == [("TypeError", "unhashable type: 'list'")]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["unhashable_in_comprehension", "of_generator", "dict_comprehension_key"])
def test_an_unhashable_item_is_reported_where_cpython_reports_it(program: Path, engine: str, target: str) -> None:
    """CPython reports an unhashable item of a set or dict comprehension at the
    comprehension's first line, and one of ``set(generator)`` at the call; a division by
    zero in the item at the item's line. ``--verify`` compares the lines with CPython's."""
    result = explore_verified(program, target, engine)
    raised = {p["exception"]: p["line"] for p in _paths(result) if p["outcome"] == "raise"}
    first = SOURCE.splitlines().index(f"def {target}(xs: list[int]) -> int:") + 2
    assert raised["TypeError"] == first
    if target != "dict_comprehension_key":
        assert raised["ZeroDivisionError"] == first + 1


@pytest.mark.parametrize("target", ["operators", "in_place", "identity", "methods", "with_real_sets"])
def test_every_path_returns_what_cpython_returns(program: Path, target: str) -> None:
    result = explore_verified(program, target, "dse")
    for p in _paths(result):
        expected = _run(target, *p["inputs"].values())
        returned = p["returned"]
        if isinstance(returned, dict) and "$tuple" in returned:
            returned = tuple(set(x["$set"]) if isinstance(x, dict) and "$set" in x else x for x in returned["$tuple"])
        assert returned == expected


def test_operators_keep_cpythons_objects(program: Path) -> None:
    """``a | b`` keeps ``a``'s object, ``a & b`` the smaller set's (the right one on a tie):
    with ``b`` True and ``n`` 1 the sets hold ``True`` or ``1`` exactly as CPython's do."""
    result = explore_verified(program, "identity", "dse")
    for p in _paths(result):
        expected = _run("identity", p["inputs"]["b"], p["inputs"]["n"])
        shown = [sorted((type(v).__name__, v) for v in x["$set"]) for x in p["returned"]["$tuple"]]
        assert shown == [sorted((type(v).__name__, v) for v in x) for x in expected]
    assert any(p["inputs"]["b"] is True and p["inputs"]["n"] == 1 for p in _paths(result))


def test_iteration_over_concrete_ints_is_cpythons_order_without_pinning(program: Path) -> None:
    for engine in ENGINES:
        result = explore_verified(program, "comprehension", engine)
        _symbolic(result)
    orders = {tuple(p["returned"]) for p in _paths(result)}
    assert tuple(_run("comprehension", 8)) in orders


@pytest.mark.parametrize("engine", ENGINES)
def test_iteration_over_symbolic_ints_runs_on_pinned_values(program: Path, engine: str) -> None:
    result = explore_verified(program, "symbolic_order", engine)
    assert "line 96: iteration" in result["stats"]["concretizations"] or any("iteration" in site for site in result["stats"]["concretizations"])
    for p in _paths(result):
        if p["outcome"] == "return":
            assert p["returned"] == _run("symbolic_order", p["inputs"]["xs"])


@pytest.mark.parametrize("engine", ENGINES)
def test_small_ints_iterate_in_ascending_order_symbolically(program: Path, engine: str) -> None:
    """Ints in ``range(table_size(n))`` sit at their own slots: ascending, no pinning."""
    result = explore_verified(program, "small_order", engine)
    _symbolic(result)
    for p in _paths(result):
        if p["outcome"] == "return":
            xs = p["inputs"]["xs"]
            assert p["returned"] == _run("small_order", xs) == sorted(set(xs) | {len(xs)})


def test_table_size_is_cpythons() -> None:
    """``table_size`` against CPython's own table (``sys.getsizeof``: 16 bytes a slot beyond
    the 8 slots kept inside the set object), and ascending order for distinct ints below it
    added in any order."""
    import random
    import sys

    from pathloom.semantics.set_order import table_size

    empty = sys.getsizeof(set())
    rng = random.Random(15)
    for n in range(60):
        s: set[int] = set()
        for i in range(n):
            s.add(1000 + 7 * i)
        external = (sys.getsizeof(s) - empty) // 16
        assert (external or 8) == table_size(n)
        for _ in range(20):
            items = rng.sample(range(table_size(n)), n)
            made: set[int] = set()
            for x in items + items[: rng.randint(0, n)]:
                made.add(x)
            assert list(made) == sorted(items)


def test_min_and_max_of_a_set_are_symbolic(program: Path) -> None:
    result = explore_verified(program, "order_free", "dse")
    _symbolic(result)
    for p in _paths(result):
        xs = p["inputs"]["xs"]
        assert p["returned"] == ({"$tuple": [min(xs), max(xs)]} if xs else {"$tuple": []})


def test_a_set_changed_while_iterated_is_unsupported(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "a set changed during iteration" in unsupported_said(program, "changed_while_iterated", capsys)


@pytest.mark.parametrize("engine", ENGINES)
def test_pop_of_concrete_items_is_cpythons(program: Path, engine: str) -> None:
    result = explore_verified(program, "pop", engine)
    for p in _paths(result):
        assert p["returned"] == {"$tuple": list(_run("pop", p["inputs"]["n"]))}


@pytest.mark.parametrize("target", ["display", "member", "methods", "operators", "in_place", "identity", "method_forms"])
def test_engines_agree(program: Path, target: str) -> None:
    assert main(["compare", f"{program}::{target}", "--engines", "dse,multise", "--quiet"]) in (0, 1)


def test_set_annotations_are_input_types() -> None:
    from pathloom.frontend.input_types import parse_input_type

    assert parse_input_type("set[int]") == ("set", "int")
    assert parse_input_type("Set[str]") == ("set", "str")
    assert parse_input_type("set") == ("set", "int")
    assert parse_input_type("Optional[set[int]]") == ("optional", ("set", "int"))
    for unsupported in ("set[list[int]]", "list[set[int]]", "set[float]"):
        assert parse_input_type(unsupported) is None, unsupported


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["input_set", "input_order", "input_words"])
def test_set_inputs_have_different_items_and_replay(program: Path, engine: str, target: str) -> None:
    """A ``set[T]`` input is reported as ``{"$set": [...]}``, its items pairwise different,
    in the order the replay adds them (``set([...])``); every size up to the list bound."""
    result = explore_verified(program, target, engine)
    sizes = set()
    for p in _paths(result):
        items = next(iter(p["inputs"].values()))["$set"]
        assert len(set(items)) == len(items)
        sizes.add(len(items))
        if p["outcome"] == "return":
            args = [set(v["$set"]) if isinstance(v, dict) else v for v in p["inputs"].values()]
            expected = _run(target, *args)
            assert p["returned"] == expected or p["returned"] == {"$tuple": list(expected)}
    if engine == "dse":
        assert sizes == {0, 1, 2, 3, 4}
