"""Parameters without an annotation (issue 29): the type their default or the body's
``isinstance`` tests state is explored symbolically, reported as an input type tried in part
(the exploration is incomplete: the code may take other types); so do the literals its doctest
examples and the module's own calls pass; with none of these, one line refuses
the target, never a guessed type."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, refusal

SOURCE = """
def above(x: int, limit=10):
    if x > limit:
        return 1
    return 0


def maybe(n: int, k=None):
    if isinstance(k, int) and k > n:
        return k
    return 0


def either(v):
    if isinstance(v, (int, float)):
        return 1
    if type(v) is str:
        return 2
    return 3


def plain(x: int, marker=None):
    return x if marker is None else 0


def unknown(x):
    return x


def smallest(items, k):
    '''The k-th smallest.

    >>> smallest([3, 1, 2], 2)
    2
    '''
    if k < 1 or k > len(items):
        raise ValueError("k out of range")
    return sorted(items)[k - 1]


def scale(value, unit):
    if unit == "km":
        return value * 1000
    return value


def distance() -> int:
    return scale(3, "km") + scale(4, "m") + scale(2.5, None)


class Counter:
    def __init__(self) -> None:
        self.n = 0

    def bump(self, by) -> int:
        self.n += by
        return self.n

    def twice(self) -> int:
        self.bump(by=2)
        return self.bump(3)
"""


def _explore(tmp_path: Path, target: str, engine: str) -> dict[str, object]:
    return explore_source(tmp_path, SOURCE, "untyped.py", target, engine)


def _untried(result: dict[str, object]) -> list[str]:
    return [str(u) for u in result.get("untried", ())]  # type: ignore[attr-defined]


def _returned(result: dict[str, object]) -> set[object]:
    return {p["returned"] for p in result["paths"] if p["outcome"] == "return"}  # type: ignore[attr-defined]


@pytest.mark.parametrize("engine", engine_names())
def test_a_literal_default_gives_the_type(tmp_path: Path, engine: str) -> None:
    above = _explore(tmp_path, "above", engine)
    assert _returned(above) == {0, 1} and not above["complete"]
    assert _untried(above) == ["limit: no annotation; only int tried (from its default 10)"]
    assert any(p["inputs"]["limit"] != 10 for p in above["paths"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("engine", engine_names())
def test_isinstance_tests_give_the_types(tmp_path: Path, engine: str) -> None:
    maybe = _explore(tmp_path, "maybe", engine)
    inputs = [p["inputs"] for p in maybe["paths"]]  # type: ignore[attr-defined]
    assert any(i["k"] is None for i in inputs) and any(i["k"] is not None and i["k"] > i["n"] for i in inputs)  # k returned
    assert _untried(maybe) == ["k: no annotation; only int | None tried (from the isinstance tests of its body, and its default None)"]
    either = _explore(tmp_path, "either", engine)
    assert _returned(either) == {1, 2}  # no third type is stated: 3 is never returned, and the report says so
    assert _untried(either) == ["v: no annotation; only int | float | str tried (from the isinstance tests of its body)"]


@pytest.mark.parametrize("engine", engine_names())
def test_doctest_examples_then_the_modules_calls_give_the_types(tmp_path: Path, engine: str) -> None:
    smallest = _explore(tmp_path, "smallest", engine)
    assert _untried(smallest) == [
        "items: no annotation; only list[int] tried (from its doctest examples)",
        "k: no annotation; only int tried (from its doctest examples)",
    ]
    raised = {p["exception"] for p in smallest["paths"] if p["outcome"] == "raise"}  # type: ignore[attr-defined]
    assert "ValueError" in raised and _returned(smallest)  # both ends reached with lists of ints
    assert all(isinstance(i, int) for p in smallest["paths"] for i in p["inputs"]["items"])  # type: ignore[attr-defined]
    scale = _explore(tmp_path, "scale", engine)
    assert _untried(scale) == [
        "value: no annotation; only int | float tried (from the module's calls of it)",
        "unit: no annotation; only str | None tried (from the module's calls of it)",
    ]
    assert any(p["inputs"]["unit"] == "km" for p in scale["paths"])  # type: ignore[attr-defined]
    bump = _explore(tmp_path, "Counter.bump", engine)
    assert _untried(bump) == ["by: no annotation; only int tried (from the module's calls of it)"]


@pytest.mark.parametrize("engine", engine_names())
def test_another_default_is_kept_and_nothing_stated_is_refused(tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    plain = _explore(tmp_path, "plain", engine)
    assert plain["complete"] and all(p["inputs"] == {"x": p["inputs"]["x"]} for p in plain["paths"])  # type: ignore[attr-defined]
    capsys.readouterr()
    line = refusal(tmp_path / "untyped.py", "unknown", engine, capsys)
    assert (
        "unsupported: parameter 'x' has no type annotation (and no default, isinstance test, doctest example or call with a literal to infer one from)" in line
    )
