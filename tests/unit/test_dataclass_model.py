"""Plain dataclasses are analysed classes (``frontend.dataclass_model``): their generated
``__init__`` and comparisons are symbolic, field writes too; anything the model does not
write down stays opaque and runs in CPython. Every exploration is replayed in CPython
(``--verify``), so a wrong model fails here."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pathloom.frontend.module import load_module

from .verified import explore_source
from pathloom.engines.registry import engine_names

ENGINES = tuple(engine_names())

SOURCE = textwrap.dedent("""
    from dataclasses import dataclass, field


    @dataclass
    class D:
        a: int
        b: int = 3

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("negative")

        def total(self) -> int:
            return self.a + self.b


    @dataclass(order=True)
    class P:
        x: int
        y: int


    @dataclass(frozen=True)
    class Frozen:
        a: int


    @dataclass
    class Factory:
        xs: list[int] = field(default_factory=list)
        n: int = 2


    @dataclass
    class LambdaFactory:
        xs: list[int] = field(default_factory=lambda: [1])


    def factory(x: int) -> int:
        a = Factory()
        b = Factory(n=x)
        a.xs.append(x)
        c = Factory(None)  # type: ignore[arg-type]  # an explicit None is stored, not replaced
        if b.xs or c.xs is not None:
            return -1
        return len(a.xs) + a.xs[0] + b.n


    def write(x: int) -> int:
        d = D(0)
        d.a = x
        return d.a + d.b


    def equal(x: int, y: int) -> int:
        if D(x) == D(y, 3):
            return 1
        if D(x) != D(y):
            return 2
        return 3


    def ordered(x: int, y: int) -> int:
        if P(x, 1) < P(y, 2):
            return 1
        if P(x, 0) >= P(y, 0):
            return 2
        return 3


    def keywords(x: int) -> int:
        return D(b=x, a=1).total()


    def post_init(x: int) -> int:
        return D(x).a


    def missing(x: int) -> int:
        if x > 0:
            return D().a  # type: ignore[call-arg]
        return 0


    def other_class(x: int) -> bool:
        return D(x) == (x, 3)


    def direct_dunder(x: int) -> bool:
        return D(x).__eq__(5) is NotImplemented


    def frozen_write(x: int) -> int:
        f = Frozen(0)
        f.a = x  # type: ignore[misc]
        return f.a
""")

SYMBOLIC = ["write", "equal", "ordered", "keywords", "post_init", "missing", "D.total", "factory"]


def _explore(tmp_path: Path, target: str, engine: str) -> dict[str, object]:
    return explore_source(tmp_path, SOURCE, "dcs.py", target, engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", SYMBOLIC)
def test_plain_dataclasses_are_explored_symbolically(tmp_path: Path, engine: str, target: str) -> None:
    result = _explore(tmp_path, target, engine)
    assert result["complete"], result["stats"]
    assert not result["stats"]["concretizations"]  # type: ignore[index]


def test_the_comparisons_partition_the_inputs_as_cpython_does(tmp_path: Path) -> None:
    result = _explore(tmp_path, "ordered", "dse")
    returned = sorted(p["returned"] for p in result["paths"])  # type: ignore[union-attr,index]
    assert returned == [1, 2]  # (x,0) >= (y,0) whenever (x,1) < (y,2) fails: 3 is unreachable
    equal = _explore(tmp_path, "equal", "multise")
    outcomes = sorted((p["outcome"], p["returned"]) for p in equal["paths"])  # type: ignore[union-attr,index]
    assert outcomes == [("raise", None), ("return", 1), ("return", 2)]  # __post_init__ raises for x < 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_default_factory_gives_each_instance_a_fresh_value(tmp_path: Path, engine: str) -> None:
    result = _explore(tmp_path, "factory", engine)
    assert len(result["paths"]) == 1 and result["complete"]  # type: ignore[arg-type]
    assert result["paths"][0]["returned"] == 1 + result["paths"][0]["inputs"]["x"] * 2  # type: ignore[index]


def test_post_init_and_cpython_messages(tmp_path: Path) -> None:
    post = _explore(tmp_path, "post_init", "dse")
    assert {(p["outcome"], p.get("message")) for p in post["paths"]} >= {("raise", "negative")}  # type: ignore[union-attr]
    missing = _explore(tmp_path, "missing", "dse")
    raised = [p for p in missing["paths"] if p["outcome"] == "raise"]  # type: ignore[union-attr]
    assert [p["message"] for p in raised] == ["D.__init__() missing 1 required positional argument: 'a'"]


@pytest.mark.parametrize("target", ["other_class", "direct_dunder", "frozen_write"])
def test_what_the_model_leaves_out_runs_in_cpython(tmp_path: Path, target: str) -> None:
    result = _explore(tmp_path, target, "dse")
    assert result["stats"]["concretizations"]  # type: ignore[index]


def test_which_dataclasses_are_modelled(tmp_path: Path) -> None:
    path = tmp_path / "dcs.py"
    path.write_text(SOURCE, encoding="utf-8")
    module = load_module(str(path))
    assert {"D", "P", "Factory", "Frozen"} <= set(module.classes)
    assert "__setattr__" in module.classes["Frozen"].other  # the real one: it raises FrozenInstanceError
    assert {"LambdaFactory"} <= set(module.opaque)
    assert "D.__init__" not in module.targets() and "D.total" in module.targets()
    assert set(module.classes["P"].compare_methods) == {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"}
