"""Unpacking into one name (``r, = f(x)``, ``(item,) = xs``, ``[y] = xs``, ``for (v,) in rows``,
``[v + 1 for v, in rows]``, ``(letter, n), = pairs``) binds the name to the one item, not to
the whole sequence. Every engine once bound the tuple itself: ``check`` then said "complete,
0 bugs" on a failing assert and ``reach --asserts`` proved a reachable assert unreachable.
The engines now bind through ``semantics.step.bindings``; every input is replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source

SOURCE = """
def one_result(x: int) -> tuple[int]:
    return (x + 1,)


def reach_it(x: int) -> int:
    r, = one_result(x)
    assert r != 9
    return r


def first(xs: list[int]) -> int:
    [y] = xs
    return y + 1


def doubled(xs: tuple[int]) -> int:
    (item,) = xs
    return item * 2


def summed(rows: list[tuple[int]]) -> int:
    total = 0
    for (v,) in rows:
        total += v
    assert total != 5
    return total


def bumped(rows: list[tuple[int]]) -> list[int]:
    return [v + 1 for v, in rows]


def nested(pairs: list[tuple[str, int]]) -> str:
    (letter, n), = pairs
    assert n < 3
    return letter
"""

ENGINES = engine_names()


@pytest.mark.parametrize("engine", ENGINES)
def test_one_name_gets_the_item(tmp_path: Path, engine: str) -> None:
    for target, expected in (
        ("first", lambda i: i["xs"][0] + 1),
        ("doubled", lambda i: i["xs"][0] * 2),
        ("bumped", lambda i: [row[0] + 1 for row in i["rows"]]),
    ):
        result = explore_source(tmp_path, SOURCE, "one.py", target, engine, "--max-list-len", "2")
        assert result["complete"], target
        returns = [p for p in result["paths"] if p["outcome"] == "return"]  # type: ignore[union-attr]
        assert returns, target
        for path in returns:
            inputs = {k: _plain(v) for k, v in path["inputs"].items()}
            assert path["returned"] == expected(inputs), (target, path)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_failing_assert_after_one_name_unpacking_is_a_bug(tmp_path: Path, engine: str) -> None:
    for target, culprit in (
        ("reach_it", lambda i: i["x"] == 8),
        ("summed", lambda i: sum(r[0] for r in i["rows"]) == 5),
        ("nested", lambda i: i["pairs"][0][1] >= 3),
    ):
        result = explore_source(tmp_path, SOURCE, "one.py", target, engine, "--max-list-len", "2")
        failing = [p for p in result["paths"] if p["exception"] == "AssertionError"]  # type: ignore[union-attr, index]
        assert failing, target
        assert all(culprit({k: _plain(v) for k, v in p["inputs"].items()}) for p in failing), target


def test_reach_finds_the_assert_after_one_name_unpacking(tmp_path: Path) -> None:
    path = tmp_path / "one.py"
    path.write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "reach.json"
    assert main(["reach", f"{path}::reach_it", "--asserts", "--json", str(out)]) == 1
    (target,) = json.loads(out.read_text())["targets"]
    assert target["verdict"] == "reachable"
    assert target["inputs"] == {"x": 8}


def _plain(value: object) -> object:
    """A JSON input value as the Python value (``{"$tuple": [...]}`` is a tuple)."""
    if isinstance(value, dict) and "$tuple" in value:
        return tuple(_plain(v) for v in value["$tuple"])
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
