"""List comprehensions and the generator expressions that builtins consume whole are lowered
to loops (``frontend.lower``): symbolic in both engines, with a scope of their own, items made
one at a time and ``any``/``all`` stopping early, as CPython does. Every exploration is
replayed in CPython (``--verify``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .verified import explore_source, explore_verified
from pathloom.engines.registry import engine_names


ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    def squares(xs: list[int]) -> list[int]:
        return [x * x for x in xs if x > 0]


    def nested(xs: list[int]) -> int:
        return len([(x, y) for x in xs if x < 3 for y in range(x)])


    def total(xs: list[int]) -> int:
        return sum(x for x in xs if x % 2 == 0)


    def has_big(xs: list[int]) -> bool:
        return any(x > 10 for x in xs)


    def all_positive(xs: list[int]) -> bool:
        return all(x > 0 for x in xs)


    def biggest(xs: list[int]) -> int:
        return max(x - 1 for x in xs)


    def smallest(xs: list[int]) -> int:
        return min(-x for x in xs)


    def scope(x: int) -> int:
        ys = [x for x in range(3)]
        return x + len(ys)


    def outer_iterable(x: list[int]) -> list[int]:
        return [x + 1 for x in x]


    def stops_early(xs: list[int]) -> bool:
        return any(10 // x > 2 for x in xs)


    def as_tuple(xs: list[int]) -> int:
        t = tuple(x for x in xs)
        return len(t)


    def kept(xs: list[int], lo: int, hi: int) -> list[int]:
        return list(filter(lambda x: lo <= x <= hi, xs))


    def mapped(xs: list[int]) -> int:
        return sum(map(lambda v: 2 * v, xs)) + len(list(filter(None, xs)))


    def inverses(xs: list[int]) -> list[int]:
        return list(map(lambda v: 12 // v, xs))
""")

SYMBOLIC = [
    "squares",
    "nested",
    "total",
    "has_big",
    "all_positive",
    "biggest",
    "smallest",
    "scope",
    "outer_iterable",
    "stops_early",
    "kept",
    "mapped",
    "inverses",
]


def _explore(tmp_path: Path, target: str, engine: str) -> dict[str, object]:
    return explore_source(tmp_path, SOURCE, "comprehensions.py", target, engine, "--max-list-len", "3")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", SYMBOLIC)
def test_comprehensions_are_symbolic_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    result = _explore(tmp_path, target, engine)
    assert result["complete"], result["stats"]
    assert not result["stats"]["concretizations"]  # type: ignore[index]


def test_tuple_of_a_generator_is_the_tuple_of_its_list(tmp_path: Path) -> None:
    result = _explore(tmp_path, "as_tuple", "dse")  # tuple() of the list: modelled (semantics.aggregates)
    assert not result["stats"]["concretizations"]  # type: ignore[index]
    assert result["complete"]


def test_the_comprehension_variable_does_not_leak(tmp_path: Path) -> None:
    result = _explore(tmp_path, "scope", "dse")
    assert [(p["inputs"]["x"], p["returned"]) for p in result["paths"]] == [(0, 3)]  # type: ignore[union-attr,index]


def test_any_stops_at_the_first_true_item(tmp_path: Path) -> None:
    result = _explore(tmp_path, "stops_early", "dse")
    outcomes = {(p["outcome"], p.get("exception")) for p in result["paths"]}  # type: ignore[union-attr]
    assert outcomes == {("return", None), ("raise", "ZeroDivisionError")}
    for path in result["paths"]:  # type: ignore[union-attr]
        xs = path["inputs"]["xs"]
        if path["outcome"] == "return" and path["returned"]:
            first = next(i for i, x in enumerate(xs) if x == 0 or 10 // x > 2)
            assert xs[first] != 0  # a True item came before any zero: CPython never divides by it


def test_min_and_max_of_nothing_raise_cpythons_valueerror(tmp_path: Path) -> None:
    result = _explore(tmp_path, "biggest", "multise")
    raised = [p for p in result["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert [(p["exception"], p["message"], p["inputs"]["xs"]) for p in raised] == [("ValueError", "max() arg is an empty sequence", [])]


def test_map_and_filter_of_a_lambda_are_the_generators_they_are(tmp_path: Path) -> None:
    """``list(filter(lambda ...))`` and ``list(map(lambda ...))`` (lowered as generator
    expressions): the values and the ZeroDivisionError of CPython, per input."""
    for path in _explore(tmp_path, "kept", "dse")["paths"]:  # type: ignore[union-attr]
        xs, lo, hi = (path["inputs"][k] for k in ("xs", "lo", "hi"))  # type: ignore[index]
        assert path["returned"] == [x for x in xs if lo <= x <= hi]  # type: ignore[index]
    raised = [p for p in _explore(tmp_path, "inverses", "dse")["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert raised and all(p["exception"] == "ZeroDivisionError" and 0 in p["inputs"]["xs"] for p in raised)  # type: ignore[index]


REDUCE_SOURCE = textwrap.dedent("""
    import functools
    import operator
    from functools import reduce


    def product(xs: list[int]) -> int:
        return reduce(lambda a, b: a * b, xs)


    def signed_total(xs: list[int], start: int) -> int:
        return functools.reduce(lambda a, b: a + b if b > 0 else a - 1, xs, start)


    def longest(xs: list[str]) -> str:
        def pick(a: str, b: str) -> str:
            return a if len(a) >= len(b) else b
        return reduce(pick, xs, "")


    def added(xs: list[int]) -> int:
        return reduce(operator.add, xs, 0)
""")


@pytest.mark.parametrize("engine", ENGINES + ("compose",))
@pytest.mark.parametrize("target", ["product", "signed_total", "longest"])
def test_reduce_is_the_loop_it_runs(tmp_path: Path, engine: str, target: str) -> None:
    """``functools.reduce`` of any function is lowered as its loop: symbolic (no concretization)
    with a lambda or an analysed function, CPython's TypeError on an empty list without an
    initial value, every value replayed."""
    path = tmp_path / "reduced.py"
    path.write_text(REDUCE_SOURCE, encoding="utf-8")
    result = explore_verified(path, target, engine, "--max-list-len", "3")
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
    raised = {(p["exception"], p["message"]) for p in result["paths"] if p["outcome"] == "raise"}  # type: ignore[union-attr]
    assert raised == ({("TypeError", "reduce() of empty iterable with no initial value")} if target == "product" else set())


def test_reduce_of_a_real_function_calls_it_per_item(tmp_path: Path) -> None:
    path = tmp_path / "reduced.py"
    path.write_text(REDUCE_SOURCE, encoding="utf-8")
    result = explore_verified(path, "added", "dse", "--max-list-len", "2")
    returned = [p for p in result["paths"] if p["outcome"] == "return"]  # type: ignore[union-attr]
    assert returned and all(p["returned"] == sum(p["inputs"]["xs"]) for p in returned)  # type: ignore[index]
