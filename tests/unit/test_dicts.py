"""The dict model (``semantics.dicts``): displays, comprehensions, ``d[k]``, ``d[k] = v``, ``in``,
iteration and the common methods are symbolic in both engines; the rest runs in CPython.
Every exploration is replayed in CPython (``--verify``), and the outcomes are checked against
what CPython says for the inputs found."""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

import pytest

from pathloom.cli import main

from .verified import explore_verified
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    def counter(words: list[str]) -> dict:
        counts = {}
        for w in words:
            counts[w] = counts.get(w, 0) + 1
        return counts


    def pair(x: int, y: int) -> dict:
        return {x: 1, y: 2}


    def lookup(k: int) -> int:
        d = {1: 10, 2: 20}
        return d[k]


    def alias(b: bool) -> dict:
        return {1: "a", b: "b"}


    def member(k: str, xs: list[str]) -> int:
        d = {x: len(x) for x in xs if x}
        if k in d:
            return d[k]
        return -1


    def order(a: int, b: int) -> list:
        d = {}
        d[a] = 1
        d[b] = 2
        d[a] = 3
        out = []
        for k, v in d.items():
            out.append(k * 10 + v)
        for k in d:
            out.append(k)
        return out


    def methods(a: int, b: int) -> tuple:
        d = {a: "x"}
        d.setdefault(b, "y")
        e = d.copy()
        v = e.pop(a)
        return (len(d), len(e), v, list(d), d.get(b, "none"), bool(e), e.pop(a, "gone"))


    def values_of(xs: list[int]) -> int:
        d = {i: xs[i] for i in range(len(xs))}
        total = 0
        for v in d.values():
            total += v
        return total + len(d)


    def view(a: int) -> object:
        d = {a: 1, 2: a}
        return d.items()


    def unhashable(xs: list[int]) -> int:
        d = {}
        d[xs] = 1
        return 0


    def in_cpython(a: bool) -> bool:
        d = {a: 1}
        d.update({2: 2})
        return d == {1: 1, 2: 2}
""")


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dicts") / "prog.py"
    path.write_text(SOURCE)
    return path


def _paths(result: dict) -> list[dict]:  # type: ignore[type-arg]
    return result["paths"]  # type: ignore[no-any-return]


def _symbolic(result: dict) -> None:  # type: ignore[type-arg]
    assert result["complete"], result
    assert not result["stats"]["concretizations"], result["stats"]["concretizations"]


def test_counter_forks_on_whether_each_word_was_seen_before(program: Path) -> None:
    """``counts[w] = counts.get(w, 0) + 1``: the found case is one if-then-else over the
    entries, so a path is the sequence of "seen before / new" decisions, each exactly once."""
    result = explore_verified(program, "counter", "dse")
    _symbolic(result)
    patterns = [tuple(w in words[:i] for i, w in enumerate(words)) for words in (p["inputs"]["words"] for p in _paths(result))]
    expected = [(False,) + rest for n in range(1, 5) for rest in itertools.product((False, True), repeat=n - 1)]
    assert sorted(patterns) == sorted([()] + expected)
    for p in _paths(result):
        words = p["inputs"]["words"]
        assert p["returned"] == {"$dict": [[w, words.count(w)] for w in dict.fromkeys(words)]}


@pytest.mark.parametrize("engine", ENGINES)
def test_counter(program: Path, engine: str) -> None:
    result = explore_verified(program, "counter", engine)
    _symbolic(result)
    assert {p["outcome"] for p in _paths(result)} == {"return"}


def test_equal_keys_in_a_display_keep_the_first_position_and_the_last_value(program: Path) -> None:
    result = explore_verified(program, "pair", "dse")
    _symbolic(result)
    returned = sorted((p["inputs"]["x"] == p["inputs"]["y"], len(p["returned"]["$dict"])) for p in _paths(result))
    assert returned == [(False, 2), (True, 1)]
    for p in _paths(result):
        x, y = p["inputs"]["x"], p["inputs"]["y"]
        assert p["returned"] == {"$dict": [[k, v] for k, v in {x: 1, y: 2}.items()]}


def test_a_bool_key_is_the_int_key(program: Path) -> None:
    result = explore_verified(program, "alias", "dse")
    _symbolic(result)
    assert {p["inputs"]["b"]: str(p["returned"]) for p in _paths(result)} == {
        True: str({"$dict": [[1, "b"]]}),
        False: str({"$dict": [[1, "a"], [False, "b"]]}),
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_key_raises_key_error_with_the_key(program: Path, engine: str) -> None:
    result = explore_verified(program, "lookup", engine)
    _symbolic(result)
    raised = [p for p in _paths(result) if p["outcome"] == "raise"]
    assert [p["exception"] for p in raised] == ["KeyError"]
    assert raised[0]["message"] == repr(raised[0]["inputs"]["k"])
    assert {p["returned"] for p in _paths(result) if p["outcome"] == "return"} <= {10, 20}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["member", "order", "methods", "values_of", "alias", "pair", "view"])
def test_symbolic_in_both_engines(program: Path, engine: str, target: str) -> None:
    result = explore_verified(program, target, engine)
    _symbolic(result)


def test_iteration_follows_insertion_order(program: Path) -> None:
    result = explore_verified(program, "order", "dse")
    for p in _paths(result):
        a, b = p["inputs"]["a"], p["inputs"]["b"]
        expected = [a * 10 + 3, b * 10 + 2, a, b] if a != b else [a * 10 + 3, a]
        assert p["returned"] == expected


def test_member_true_and_false(program: Path) -> None:
    result = explore_verified(program, "member", "dse")
    for p in _paths(result):
        k, xs = p["inputs"]["k"], p["inputs"]["xs"]
        assert p["returned"] == (len(k) if k in xs and k else -1)
    assert {p["returned"] > 0 for p in _paths(result)} == {True, False}


def test_unhashable_key_is_cpythons_type_error(program: Path) -> None:
    result = explore_verified(program, "unhashable", "dse")
    assert [(p["exception"], p["message"]) for p in _paths(result)] == [("TypeError", "unhashable type: 'list'")]


@pytest.mark.parametrize("engine", ENGINES)
def test_operations_outside_the_model_run_in_cpython(program: Path, engine: str) -> None:
    result = explore_verified(program, "in_cpython", engine)
    assert result["complete"]
    assert any("dict.update()" in site for site in result["stats"]["concretizations"])
    assert {p["returned"] for p in _paths(result)} == {True, False}


@pytest.mark.parametrize("target", ["counter", "pair", "lookup", "order", "methods", "member"])
def test_engines_agree(program: Path, target: str) -> None:
    assert main(["compare", f"{program}::{target}", "--engines", "dse,multise", "--quiet"]) in (0, 1)


DEFAULTDICT_SOURCE = textwrap.dedent("""
    from collections import defaultdict


    def count(xs: list[int]) -> dict[int, int]:
        c: dict[int, int] = defaultdict(int)
        for x in xs:
            c[x] += 1
        return c


    def groups(xs: list[str]) -> int:
        g = defaultdict(list)
        for x in xs:
            g[len(x)].append(x)
        if len(g[1]) > 1:
            return 1
        return len(g)


    def parity(xs: list[int]) -> int:
        s = defaultdict(set)
        for x in xs:
            s[x % 2].add(x)
        return len(s[0]) - len(s.get(1, ()))


    class Graph:
        def __init__(self, n: int) -> None:
            self.n = n
            self.graph: dict[int, list[int]] = defaultdict(list)

        def add_edge(self, a: int, b: int) -> None:
            self.graph[a].append(b)

        def reach(self, a: int, b: int, c: int) -> bool:
            self.add_edge(a, b)
            self.add_edge(b, c)
            seen = set()
            todo = [a]
            while todo:
                v = todo.pop()
                if v in seen:
                    continue
                seen.add(v)
                todo.extend(self.graph[v])
            return c in seen and a != c


    def shown(x: int) -> str:
        d = defaultdict(int)
        d[x] += 2
        plain = dict(d)
        plain[x + 1] = 0
        return repr(d) + type(d).__name__ + str(isinstance(d, dict)) + str(d.default_factory) + str(len(d)) + str(len(plain))
""")


@pytest.mark.parametrize("engine", ENGINES + ("compose",))
@pytest.mark.parametrize("target", ["count", "groups", "parity", "Graph.reach"])
def test_a_defaultdict_of_a_builtin_factory_is_a_symbolic_dict(tmp_path: Path, engine: str, target: str) -> None:
    """``defaultdict(list)`` (int, set...) is a dict of the model whose missing key's lookup
    inserts the factory's new value: explored with no concretization, every input replayed."""
    path = tmp_path / "defaults.py"
    path.write_text(DEFAULTDICT_SOURCE, encoding="utf-8")
    result = explore_verified(path, target, engine, "--max-list-len", "3")
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
    if target == "count":
        for p in result["paths"]:  # type: ignore[union-attr]
            xs = p["inputs"]["xs"]  # type: ignore[index]
            assert {k: v for k, v in p["returned"]["$dict"]} == {x: xs.count(x) for x in xs}  # type: ignore[index]


def test_a_defaultdict_is_one_where_its_type_shows(tmp_path: Path) -> None:
    path = tmp_path / "defaults.py"
    path.write_text(DEFAULTDICT_SOURCE, encoding="utf-8")
    result = explore_verified(path, "shown", "dse")
    returned = [p for p in result["paths"] if p["outcome"] == "return"]  # type: ignore[union-attr]
    assert returned
    for p in returned:
        x = p["inputs"]["x"]  # type: ignore[index]
        assert p["returned"] == f"defaultdict(<class 'int'>, {{{x}: 2}})defaultdictTrue<class 'int'>12"
