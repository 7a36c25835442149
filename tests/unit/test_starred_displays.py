"""Starred items in displays (``[*xs, x]``, ``(x, *xs)``, ``{*xs, x}``) and ``**`` in dict
displays (``{**d, k: v}``), built as CPython's compiler builds them: the items before the first
starred one, then each starred item extending (updating) and each other item appended (added),
a dict's runs of ``k: v`` and its mappings merged in order. Lists, tuples, strs (symbolic ones
too), ranges, dicts and sets are iterated in the model; a value that is not iterable (not a
mapping) is CPython's TypeError with its message. Every engine, every input replayed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source

SOURCE = """
def joined(x: int, xs: list[int]) -> list[int]:
    return [x, *xs, x + 1, *xs]


def as_tuple(x: int, xs: list[int]) -> tuple[int, ...]:
    t = (*xs, x)
    return t


def kinds(x: int, s: str) -> list[object]:
    return [*s, *range(x % 3), *{x: 1, 7: 2}, *(x, s), *[x]]


def not_iterable(x: int, xs: list[int]) -> int:
    if x > 3:
        return len([*xs, *x])
    if x < -3:
        return len((*None, x))
    return len({*xs, *x})


def unique(x: int, xs: list[int]) -> int:
    s = {x, *xs, *range(1, 3)}
    return len(s)


def merged(x: int, s: str, d: dict[str, int]) -> dict[str, int]:
    return {s: x, **d, "z": 2, **{s: 3}}


def not_a_mapping(x: int, xs: list[int]) -> int:
    if x > 0:
        return len({**xs})
    return len({"a": 1, **{"b": 2}, **x})
"""

ENGINES = engine_names()


def _run(tmp_path: Path, target: str, engine: str) -> list[dict[str, object]]:
    result = explore_source(tmp_path, SOURCE, "displays.py", target, engine, "--max-list-len", "2", "--max-str-len", "2", "--max-dict-len", "2")
    assert result["complete"], target
    return result["paths"]  # type: ignore[return-value]


def _plain(value: object) -> object:
    if isinstance(value, dict) and "$tuple" in value:
        return tuple(_plain(v) for v in value["$tuple"])
    if isinstance(value, dict) and "$dict" in value:
        return {_plain(k): _plain(v) for k, v in value["$dict"]}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@pytest.mark.parametrize("engine", ENGINES)
def test_starred_items_in_list_and_tuple_displays(tmp_path: Path, engine: str) -> None:
    for target, expected in (("joined", lambda x, xs: [x, *xs, x + 1, *xs]), ("as_tuple", lambda x, xs: (*xs, x))):
        paths = _run(tmp_path, target, engine)
        for path in paths:
            inputs = {k: _plain(v) for k, v in path["inputs"].items()}  # type: ignore[attr-defined]
            assert _plain(path["returned"]) == expected(inputs["x"], inputs["xs"]), (target, path)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_iterable_kind_is_unpacked_symbolically(tmp_path: Path, engine: str) -> None:
    paths = _run(tmp_path, "kinds", engine)
    for path in paths:
        x, s = path["inputs"]["x"], path["inputs"]["s"]  # type: ignore[index]
        assert _plain(path["returned"]) == [*s, *range(x % 3), *{x: 1, 7: 2}, *(x, s), *[x]], path


@pytest.mark.parametrize("engine", ENGINES)
def test_a_value_that_is_not_iterable_is_cpythons_type_error(tmp_path: Path, engine: str) -> None:
    messages = {p["message"] for p in _run(tmp_path, "not_iterable", engine) if p["outcome"] == "raise"}
    assert messages == {"Value after * must be an iterable, not int", "Value after * must be an iterable, not NoneType", "'int' object is not iterable"}


@pytest.mark.parametrize("engine", ENGINES)
def test_starred_items_in_a_set_display(tmp_path: Path, engine: str) -> None:
    for path in _run(tmp_path, "unique", engine):
        x, xs = path["inputs"]["x"], path["inputs"]["xs"]  # type: ignore[index]
        assert path["returned"] == len({x, *xs, 1, 2}), path


@pytest.mark.parametrize("engine", ENGINES)
def test_double_starred_items_merge_in_order(tmp_path: Path, engine: str) -> None:
    paths = _run(tmp_path, "merged", engine)
    for path in paths:
        inputs = {k: _plain(v) for k, v in path["inputs"].items()}  # type: ignore[attr-defined]
        expected = {inputs["s"]: inputs["x"], **inputs["d"], "z": 2, **{inputs["s"]: 3}}  # type: ignore[dict-item]
        returned = _plain(path["returned"])
        assert returned == expected and list(returned) == list(expected), path  # type: ignore[call-overload]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_double_starred_value_that_is_not_a_mapping(tmp_path: Path, engine: str) -> None:
    messages = {p["message"] for p in _run(tmp_path, "not_a_mapping", engine)}
    assert messages == {"'list' object is not a mapping", "'int' object is not a mapping"}
