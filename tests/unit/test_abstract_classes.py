"""An abstract root (``class C(ABC)`` or ``metaclass=ABCMeta``) and its subclasses are analysed
classes; instantiating a class with abstract methods left is CPython's TypeError. Every
exploration is replayed in CPython."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.frontend.module import load_module

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from abc import ABC, ABCMeta, abstractmethod


    class Shape(ABC):
        @abstractmethod
        def area(self) -> int: ...

        def bigger(self, other: int) -> bool:
            return self.area() > other


    class Square(Shape):
        def __init__(self, s: int) -> None:
            self.s = s

        def area(self) -> int:
            return self.s * self.s


    class Meta(metaclass=ABCMeta):
        @abstractmethod
        def f(self) -> int: ...

        def g(self) -> int:
            return 1


    def compare(s: int, t: int) -> int:
        if Square(s).bigger(t):
            return 1
        return 0


    def abstract(s: int) -> int:
        if s > 0:
            return Shape().area()  # type: ignore[abstract]
        return Meta().f()  # type: ignore[abstract]
""")


def test_abstract_hierarchies_are_analysed(tmp_path: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(SOURCE, encoding="utf-8")
    module = load_module(str(path))
    assert {"Shape", "Square", "Meta"} <= set(module.classes)
    assert module.classes["Shape"].abstract == {"area"} and not module.classes["Square"].abstract


@pytest.mark.parametrize("engine", ENGINES)
def test_methods_of_a_concrete_subclass_run_symbolically(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "shapes.py", "compare", engine)
    assert result["complete"] and not result["stats"]["concretizations"]  # type: ignore[index]
    assert {p["returned"] for p in result["paths"]} == {0, 1}  # type: ignore[union-attr]


@pytest.mark.parametrize("engine", ENGINES)
def test_instantiating_an_abstract_class_is_cpythons_typeerror(tmp_path: Path, engine: str) -> None:
    result = explore_source(tmp_path, SOURCE, "shapes.py", "abstract", engine)
    messages = sorted(p["message"] for p in result["paths"])  # type: ignore[union-attr]
    assert messages == [
        "Can't instantiate abstract class Meta with abstract method f",
        "Can't instantiate abstract class Shape with abstract method area",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_method_of_an_abstract_class_runs_on_a_concrete_heir(tmp_path: Path, engine: str) -> None:
    """No instance of ``Shape`` can be built (CPython's TypeError before the method runs), so
    ``Shape.bigger`` is explored on an instance of the first concrete subclass that inherits it
    unchanged, ``Square``: the method CPython runs through it is the target itself (replayed)."""
    result = explore_source(tmp_path, SOURCE, "shapes.py", "Shape.bigger", engine)
    assert result["complete"] and {type(p["returned"]) for p in result["paths"]} == {bool}  # type: ignore[union-attr]
    assert all(p["inputs"]["self"]["$new"] == "Square" for p in result["paths"])  # type: ignore[index]


def test_a_method_of_an_abstract_class_no_heir_inherits_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``Meta`` has no concrete subclass: ``Meta.g`` is refused, not reported as a bug at the
    class's line (the real-code benchmark's replay mismatches for AbstractStack.is_empty and
    the like, before heirs were used)."""
    from pathloom.cli import main

    path = tmp_path / "shapes.py"
    path.write_text(SOURCE, encoding="utf-8")
    assert main(["explore", f"{path}::Meta.g"]) == 2
    assert (
        "a method of the abstract class Meta, which CPython cannot instantiate (and no concrete subclass in the module inherits it)" in capsys.readouterr().err
    )
    assert main(["explore", f"{path}::Square.area", "--quiet"]) == 0
