"""``sorted(xs, key=lambda ...)`` and ``xs.sort(key=lambda ...)`` (``frontend.lower._sort_by_key``,
``semantics.aggregates.sort_by_keys``): the keys computed first, one call per item, then a
stable sort by them (``reverse=True`` keeps equal keys in order, as CPython's): a network for
int or str items, splits on key comparisons for other items. Both engines; every input replayed
in CPython, and the returned orders checked against CPython's here."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    class Interval:
        def __init__(self, start: int, end: int) -> None:
            self.start = start
            self.end = end


    class Deck:
        def __init__(self, n: int) -> None:
            self.n = n

        def sort(self, key: object = None, reverse: bool = False) -> int:
            return self.n


    def by_start(a: int, b: int, c: int) -> list[int]:
        intervals = [Interval(a, 1), Interval(b, 2), Interval(c, 3)]
        return [i.end for i in sorted(intervals, key=lambda i: i.start)]


    def by_first(xs: list[int], ys: list[int]) -> list[int]:
        pairs = [[x, y] for x, y in zip(xs, ys)]
        pairs.sort(key=lambda p: p[0], reverse=True)
        return [p[1] for p in pairs]


    def negated(xs: list[int]) -> list[int]:
        return sorted(xs, key=lambda v: -v)


    def longest_first(ws: list[str]) -> list[str]:
        return sorted(ws, key=lambda w: len(w), reverse=True)


    def inverse_keys(xs: list[int]) -> list[int]:
        return sorted(xs, key=lambda v: 12 // v)


    def by_pair(xs: list[int], ys: list[int]) -> list[int]:
        people = [[x, y] for x, y in zip(xs, ys)]
        people.sort(key=lambda p: (-p[0], p[1]))
        return [p[1] for p in people]


    def pair_keys(xs: list[int]) -> list[int]:
        return sorted(xs, key=lambda v: (v % 2, -v))


    def own_sort(n: int) -> int:
        d = Deck(n)
        return d.sort(key=lambda v: v)
""")


def _explored(tmp_path: Path, target: str, engine: str) -> list[dict]:  # type: ignore[type-arg]
    result = explore_source(tmp_path, SOURCE, "keys.py", target, engine, "--max-list-len", "3", "--max-str-len", "2")
    assert result["complete"] and not result["stats"]["concretizations"], result["stats"]  # type: ignore[index]
    return result["paths"]  # type: ignore[return-value]


@pytest.mark.parametrize("engine", ENGINES)
def test_objects_sorted_by_a_key_attribute_stably(tmp_path: Path, engine: str) -> None:
    for path in _explored(tmp_path, "by_start", engine):
        a, b, c = (path["inputs"][k] for k in "abc")
        assert path["returned"] == [end for _, end in sorted([(a, 1), (b, 2), (c, 3)], key=lambda p: p[0])]
    if engine == "dse":  # the six orders of three starts, ties kept in order
        assert len({tuple(p["returned"]) for p in _explored(tmp_path, "by_start", engine)}) == 6


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["by_first", "negated", "longest_first", "inverse_keys", "own_sort", "by_pair", "pair_keys"])
def test_key_sorts_are_symbolic_and_replay(tmp_path: Path, engine: str, target: str) -> None:
    assert _explored(tmp_path, target, engine)


def test_reverse_keeps_equal_keys_in_order_and_a_key_may_raise(tmp_path: Path) -> None:
    for path in _explored(tmp_path, "by_first", "dse"):
        xs, ys = path["inputs"]["xs"], path["inputs"]["ys"]
        ys = xs if ys == {"$same": "xs"} else ys  # one list passed twice
        assert path["returned"] == [y for _, y in sorted(zip(xs, ys), key=lambda p: p[0], reverse=True)]
    raised = [p for p in _explored(tmp_path, "inverse_keys", "dse") if p["outcome"] == "raise"]
    assert raised and all(p["exception"] == "ZeroDivisionError" and 0 in p["inputs"]["xs"] for p in raised)
    assert {p["returned"] for p in _explored(tmp_path, "own_sort", "dse")} == {0}  # Deck.sort, not a list's


def test_tuple_keys_compare_lexicographically(tmp_path: Path) -> None:
    for path in _explored(tmp_path, "by_pair", "dse"):
        xs, ys = path["inputs"]["xs"], path["inputs"]["ys"]
        ys = xs if ys == {"$same": "xs"} else ys
        assert path["returned"] == [y for _, y in sorted(zip(xs, ys), key=lambda p: (-p[0], p[1]))]
    for path in _explored(tmp_path, "pair_keys", "dse"):
        assert path["returned"] == sorted(path["inputs"]["xs"], key=lambda v: (v % 2, -v))
