"""Methods decorated with exactly ``@property``, ``@staticmethod`` or ``@classmethod`` are
analysed (``ClassInfo.decorated``): read through instances and classes as CPython's
descriptors do, and explorable as targets. Every exploration is replayed in CPython."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    class Temp:
        def __init__(self, c: int) -> None:
            self.c = c

        @property
        def f(self) -> int:
            if self.c < -273:
                raise ValueError("below absolute zero")
            return self.c * 9 // 5 + 32

        @staticmethod
        def parse(x: int) -> int:
            return x // 2

        @classmethod
        def make(cls, c: int) -> int:
            return cls(c).f

        def warmer(self, d: int) -> bool:
            return Temp.parse(d) > 0 and self.make(self.c + d) > self.f


    class Setter:
        def __init__(self, v: int) -> None:
            self._v = v

        @property
        def v(self) -> int:
            return self._v

        @v.setter
        def v(self, value: int) -> None:
            self._v = value


    def use(c: int) -> int:
        t = Temp(c)
        if t.f > 100:
            return Temp.make(c) + t.parse(c)
        return 0


    def with_setter(v: int) -> int:
        s = Setter(v)
        s.v = v + 1
        return s.v
""")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", ["use", "Temp.f", "Temp.parse", "Temp.make", "Temp.warmer"])
def test_descriptors_are_analysed(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "descriptors.py", target, engine)
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]


def test_a_property_target_is_read_and_raises_at_its_line(tmp_path: Path) -> None:
    result = explore_source(tmp_path, SOURCE, "descriptors.py", "Temp.f", "dse")
    assert sorted((p["outcome"], p.get("line")) for p in result["paths"]) == [("raise", 9), ("return", None)]  # type: ignore[union-attr]
    assert all("self" in p["inputs"] for p in result["paths"])  # type: ignore[union-attr]


def test_a_property_with_a_setter_is_analysed(tmp_path: Path) -> None:
    """The setter is analysed like a method (``test_property_setters.py`` has the rest)."""
    result = explore_source(tmp_path, SOURCE, "descriptors.py", "with_setter", "dse")
    assert not result["stats"]["concretizations"] and result["complete"]  # type: ignore[index]
    assert all(p["returned"] == p["inputs"]["v"] + 1 for p in result["paths"])  # type: ignore[union-attr]
