"""The ``match`` statement (``lowering/matching.py``), lowered to explicit tests so every engine
has it: literal, ``None``/``True``/``False``, dotted-name, capture, wildcard, ``as`` and ``|``
patterns, guards, and sequence patterns with a star (not matching a str); mapping and class
patterns in ``test_match_patterns.py``. Every input is replayed in CPython, and each path's
outcome is compared with CPython's on the same input."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathloom.engines.registry import engine_names
from tests.unit.verified import explore_source, python_outcome

SOURCE = """
import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


def ints(x: int) -> int:
    match x:
        case 1:
            return 10
        case 2 | 3:
            return 20
        case -1:
            return -100
        case v if v > 5:
            return v
    return 0


def strs(s: str) -> int:
    match s:
        case "a":
            return 1
        case "ab" as w:
            return len(w) * 10
        case [c]:
            return 99
        case _:
            return 0


def singletons(x: int, p: bool) -> int:
    match (None if x > 0 else (p if x > -5 else x + 6)):
        case False:
            return 2
        case True as t:
            return int(t)
        case None:
            return 0
        case 1:
            return 4
    return 3


def sequences(xs: list[int]) -> int:
    match xs:
        case []:
            return 0
        case [a, b]:
            return a * 10 + b
        case [1, *rest]:
            return 100 + len(rest)
        case [a, *_, 2]:
            return 200 + a
        case [*init, z] if z > 3:
            return 300 + z + len(init)
        case _:
            return -1


def bound_late(xs: list[int]) -> int:
    a = -7
    match xs:
        case [a, 5]:
            return a
        case _:
            return a


def tuples(x: int, s: str) -> int:
    match (x, s):
        case (0, "a") | (1, "b"):
            return 1
        case (n, _) if n > 2:
            return n
    return 0


def colors(x: int) -> int:
    match Color.RED if x > 0 else Color.GREEN:
        case Color.GREEN:
            return 2
        case Color.RED:
            return 1
    return 0


def mapping(x: int) -> int:
    match {"a": x}:
        case {"a": v}:
            return v
    return 0
"""

ENGINES = engine_names()
TARGETS = ("ints", "strs", "singletons", "sequences", "bound_late", "tuples", "colors", "mapping")


def _python(target: str, inputs: dict[str, object]) -> object:
    return python_outcome(SOURCE, target, inputs)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_path_is_cpython_s(tmp_path: Path, engine: str) -> None:
    returned: dict[str, set[object]] = {}
    for target in TARGETS:
        result = explore_source(tmp_path, SOURCE, "m.py", target, engine, "--max-list-len", "3", "--max-str-len", "2")
        assert result["complete"], target
        for path in result["paths"]:  # type: ignore[attr-defined]
            assert path["outcome"] == "return", (target, path)
            assert path["returned"] == _python(target, dict(path["inputs"])), (target, path)
            returned.setdefault(target, set()).add(path["returned"])
    assert returned["ints"] >= {10, 20, -100, 0} and any(v > 5 for v in returned["ints"])  # type: ignore[operator]
    assert returned["strs"] == {1, 20, 0}  # a one-character str is no sequence: 99 never (CPython)
    assert returned["singletons"] == {0, 1, 2, 3, 4}  # 1 is no True: case 1 gives 4
    assert returned["sequences"] >= {0, -1} and {v // 100 for v in returned["sequences"]} >= {0, 1, 2, 3}  # type: ignore[operator]
    assert -7 in returned["bound_late"]  # a failed pattern binds nothing
    assert returned["colors"] == {1, 2}
    assert len(returned["mapping"]) == 1  # the one path: v, the symbolic x
