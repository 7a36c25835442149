"""Exploration techniques (``engines.techniques``): hooks chain in order, the first technique
outermost; a hook a technique does not override is not in the chain; a technique changes the
exploration only through its hooks (one that drops a branch's children loses those paths, one
that only observes changes nothing). Compose and navigation are built on these hooks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pathloom.engines.compose.engine import ComposeTechnique
from pathloom.engines.forking import ForkingEngine, State
from pathloom.engines.registry import engine_class
from pathloom.engines.techniques import Technique
from pathloom.frontend.module import parse_module
from pathloom.options import Options
from pathloom.results import PathResult
from pathloom.terms.expr import Arg

SOURCE = """
def f(x: int, y: int) -> int:
    if x > 0:
        if y > x:
            return 1
        return 2
    raise ValueError("neg")
"""


def run(techniques: list[Technique]) -> tuple[ForkingEngine, list[PathResult]]:
    engine = ForkingEngine(parse_module(SOURCE, "prog.py"), "f", Options(), techniques=techniques)
    return engine, list(engine.run())


class Log(Technique):
    def __init__(self, tag: str, log: list[str]) -> None:
        self.tag = tag
        self.log = log

    def run(self, proceed: Callable[[], Iterator[PathResult]]) -> Iterator[PathResult]:
        self.log.append(f"{self.tag} run")
        yield from proceed()
        self.log.append(f"{self.tag} end")

    def finish(self, proceed: Callable[[State, PathResult], PathResult], state: State, partial: PathResult) -> PathResult:
        self.log.append(f"{self.tag} finish {partial.outcome}")
        return proceed(state, partial)


class DropElse(Technique):
    """Keeps only the first case of every two-way decision (the ``then`` side of a branch)."""

    def decide(
        self, proceed: Callable[..., object], state: State, cases: list[tuple[Arg, Any]], apply: Callable[[State, Any], object], schedule: Any
    ) -> object:
        return proceed(state, cases[:1], apply, schedule)


def test_plain_engine_explores_every_path() -> None:
    _, results = run([])
    assert sorted(r.outcome for r in results) == ["raise", "return", "return"]


def test_hooks_chain_first_technique_outermost() -> None:
    log: list[str] = []
    _, results = run([Log("a", log), Log("b", log)])
    assert len(results) == 3
    assert log[:2] == ["a run", "b run"] and log[-2:] == ["b end", "a end"]
    finishes = log[2:-2]
    assert len(finishes) == 6
    for i in range(0, 6, 2):  # each path's finish goes through a, then b
        assert finishes[i].startswith("a finish") and finishes[i + 1].startswith("b finish")


def test_observer_changes_nothing_and_unused_hooks_stay_out_of_the_chain() -> None:
    engine, results = run([Log("a", [])])
    assert sorted(r.outcome for r in results) == ["raise", "return", "return"]
    assert "_fork" not in vars(engine) and "_finish" in vars(engine)  # Log overrides finish, not decide


def test_decide_hook_changes_the_exploration() -> None:
    _, results = run([DropElse()])
    assert [(r.outcome, r.returned) for r in results] == [("return", 1)]


def test_compose_is_the_forking_engine_with_its_technique() -> None:
    engine = engine_class("compose")(parse_module(SOURCE, "prog.py"), "f", Options(engine="compose"), None)
    assert isinstance(engine, ForkingEngine) and engine.name == "compose"
    assert any(isinstance(t, ComposeTechnique) for t in engine.techniques)
    results = list(engine.run())
    assert sorted(r.outcome for r in results) == ["raise", "return", "return"]
    assert "trees_built" in engine.stats()
