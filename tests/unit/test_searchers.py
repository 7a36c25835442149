"""Searchers (KLEE's interface): ``select`` names a pending state without removing it,
``update(added, removed)`` adds the step's children and removes the states that left, by
identity; each strategy's order; and every strategy explores the same paths of a program."""

from __future__ import annotations

import pytest

from pathloom.api import explore
from pathloom.engines.searchers import BreadthFirst, CoverageFirst, DepthFirst, RandomPath, make_searcher
from pathloom.frontend.module import parse_module
from pathloom.options import Options


class St:
    """A state compared by identity only (two equal names are two states)."""

    def __init__(self, name: str) -> None:
        self.name = name


def names(states: list[St]) -> list[str]:
    return [s.name for s in states]


def test_depth_first_runs_the_first_child_of_the_newest_step_first() -> None:
    a, b, c, d = St("a"), St("b"), St("c"), St("d")
    searcher: DepthFirst[St] = DepthFirst()
    searcher.update([a, b], [])
    assert searcher.select() is a and searcher.select() is a  # select does not remove
    searcher.update([c, a], [a])  # a ran and became its own second child
    assert searcher.select() is c
    searcher.update([], [c])
    assert searcher.select() is a
    searcher.update([d], [a])
    assert names(searcher.drain()) == ["b", "d"] and searcher.empty()


def test_breadth_first_runs_the_oldest_state_first() -> None:
    a, b, c = St("a"), St("b"), St("c")
    searcher: BreadthFirst[St] = BreadthFirst()
    searcher.update([a, b], [])
    assert searcher.select() is a
    searcher.update([c], [a])
    assert searcher.select() is b
    searcher.update([], [c])  # a state that left from the middle of the queue
    assert names(searcher.drain()) == ["b"]


def test_removal_is_by_identity_not_equality() -> None:
    first, second = St("x"), St("x")
    searcher: DepthFirst[St] = DepthFirst()
    searcher.update([first, second], [])
    searcher.update([], [second])
    assert searcher.drain() == [first]


def test_random_is_deterministic_for_a_seed_and_selects_only_pending_states() -> None:
    def order(seed: int) -> list[str]:
        searcher: RandomPath[St] = RandomPath(seed)
        searcher.update([St(str(i)) for i in range(8)], [])
        seen = []
        while not searcher.empty():
            state = searcher.select()
            seen.append(state.name)
            searcher.update([], [state])
        return seen

    assert order(3) == order(3) and sorted(order(3)) == [str(i) for i in range(8)]
    assert any(order(seed) != order(3) for seed in range(4, 10))


def test_coverage_first_prefers_a_state_at_a_new_branch() -> None:
    a, b, c = St("a"), St("b"), St("c")
    searcher: CoverageFirst[St] = CoverageFirst(lambda s: s.name == "c")
    searcher.update([a, b, c], [])
    assert searcher.select() is c
    searcher.update([], [c])
    assert searcher.select() is a  # none new: depth-first
    with pytest.raises(ValueError):
        make_searcher("best", 0, lambda s: False)


SOURCE = """
def f(x: int, y: int, z: int) -> int:
    n = 0
    if x > 0:
        n += 1
    if y > x:
        n += 2
    if z == y:
        raise ValueError("eq")
    return n
"""


@pytest.mark.parametrize("strategy", ["dfs", "bfs", "random", "coverage"])
def test_every_strategy_explores_the_same_paths(strategy: str) -> None:
    result = explore(parse_module(SOURCE, "prog.py"), "f", Options(strategy=strategy, seed=5))
    assert result.complete
    outcomes = sorted(str(p.returned) if p.outcome == "return" else str(p.exception) for p in result.paths)
    assert outcomes == ["0", "1", "2", "3"] + ["ValueError"] * 4
