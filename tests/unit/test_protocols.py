"""``len``, truth, ``not``, ``in`` and ``!=`` on instances of analysed classes call the user's
``__len__``/``__bool__``/``__contains__``/``__eq__`` symbolically (``frontend.protocols``) and
check what they return as CPython does. Every exploration is replayed in CPython."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    class Stack:
        def __init__(self, n: int) -> None:
            self.n = n

        def __len__(self) -> int:
            return self.n

        def __contains__(self, x: int) -> bool:
            return 0 <= x < self.n


    class Flag:
        def __init__(self, v: int) -> None:
            self.v = v

        def __bool__(self) -> bool:
            return self.v > 3

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Flag) and other.v == self.v


    class Bad:
        def __init__(self, v: int) -> None:
            self.v = v

        def __bool__(self) -> int:
            return self.v

        def __len__(self) -> str:
            return "x"


    def sized(n: int) -> int:
        s = Stack(n)
        if not s:
            return 0
        return len(s)


    def member(n: int, x: int) -> bool:
        return x in Stack(n) and x not in Stack(2)


    def differ(a: int, b: int) -> int:
        if Flag(a) != Flag(b):
            return 1
        if Flag(a):
            return 2
        return 3


    def bad_bool(v: int) -> int:
        if Bad(v):
            return 1
        return 0


    def bad_len(v: int) -> int:
        return len(Bad(v))
""")

TARGETS = ["sized", "member", "differ", "bad_bool", "bad_len"]


def _explore(tmp_path: Path, target: str, engine: str) -> dict[str, object]:
    return explore_source(tmp_path, SOURCE, "protocols.py", target, engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", TARGETS)
def test_dunders_run_symbolically(tmp_path: Path, engine: str, target: str) -> None:
    result = _explore(tmp_path, target, engine)
    assert result["complete"], result["stats"]
    assert not result["stats"]["concretizations"]  # type: ignore[index]


def test_what_len_makes_of_the_result_is_cpythons(tmp_path: Path) -> None:
    result = _explore(tmp_path, "sized", "dse")
    raised = sorted((p["exception"], p["message"], p["line"]) for p in result["paths"] if p["outcome"] == "raise")  # type: ignore[union-attr]
    assert raised == [
        ("OverflowError", "cannot fit 'int' into an index-sized integer", 37),  # at `if not s:`, as CPython's traceback
        ("ValueError", "__len__() should return >= 0", 37),
    ]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("bad_bool", "__bool__ should return bool, returned int"),
        ("bad_len", "'str' object cannot be interpreted as an integer"),
    ],
)
def test_wrong_result_types_raise_cpythons_typeerror(tmp_path: Path, target: str, message: str) -> None:
    result = _explore(tmp_path, target, "multise")
    assert [(p["exception"], p["message"]) for p in result["paths"]] == [("TypeError", message)]  # type: ignore[union-attr]
