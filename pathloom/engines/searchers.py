"""Searchers: which pending state runs next, with KLEE's interface (``Searcher`` in KLEE's
``Searcher.h``): ``select`` names the next state without removing it; after it ran,
``update(added, removed)`` tells the searcher the states the step created and the ones that
left (the state that ran, which ended or became one of its own children). ``empty`` and
``drain`` (every pending state, when a bound stops the search) complete it. Small classes, one
per strategy. Deterministic: ``random`` uses its own seeded RNG.

Invariant: the pending states are exactly those added and not yet removed; ``select`` returns
one of them and is called only when ``empty()`` is false.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Callable, Generic, Protocol, TypeVar

S = TypeVar("S")


class Searcher(Protocol[S]):
    name: str

    def select(self) -> S: ...

    def update(self, added: list[S], removed: list[S]) -> None: ...

    def empty(self) -> bool: ...

    def drain(self) -> list[S]: ...


def _remove(states: list[S], removed: list[S]) -> None:
    """Remove ``removed`` from ``states`` by identity (states are not compared by value),
    looking from the end first: the state that ran is usually the last one selected."""
    for gone in removed:
        for i in range(len(states) - 1, -1, -1):
            if states[i] is gone:
                del states[i]
                break


class DepthFirst(Generic[S]):
    """The newest state first; of the children of one step, the first child first."""

    name = "dfs"

    def __init__(self) -> None:
        self.stack: list[S] = []

    def select(self) -> S:
        return self.stack[-1]

    def update(self, added: list[S], removed: list[S]) -> None:
        _remove(self.stack, removed)
        self.stack.extend(reversed(added))

    def empty(self) -> bool:
        return not self.stack

    def drain(self) -> list[S]:
        states, self.stack = self.stack, []
        return states


class BreadthFirst(Generic[S]):
    """The oldest state first."""

    name = "bfs"

    def __init__(self) -> None:
        self.queue: deque[S] = deque()

    def select(self) -> S:
        return self.queue[0]

    def update(self, added: list[S], removed: list[S]) -> None:
        for gone in removed:
            if self.queue and self.queue[0] is gone:
                self.queue.popleft()
            else:
                kept = [s for s in self.queue if s is not gone]
                self.queue = deque(kept)
        self.queue.extend(added)

    def empty(self) -> bool:
        return not self.queue

    def drain(self) -> list[S]:
        states = list(self.queue)
        self.queue.clear()
        return states


class RandomPath(Generic[S]):
    """A pending state chosen uniformly by a seeded RNG."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.states: list[S] = []

    def select(self) -> S:
        i = self.rng.randrange(len(self.states))
        self.states[i], self.states[-1] = self.states[-1], self.states[i]  # the chosen one last: its removal is cheap
        return self.states[-1]

    def update(self, added: list[S], removed: list[S]) -> None:
        _remove(self.states, removed)
        self.states.extend(added)

    def empty(self) -> bool:
        return not self.states

    def drain(self) -> list[S]:
        states, self.states = self.states, []
        return states


class CoverageFirst(Generic[S]):
    """Prefer states about to decide a branch with an uncovered direction; else depth-first."""

    name = "coverage"

    def __init__(self, is_new: Callable[[S], bool]) -> None:
        self.is_new = is_new
        self.stack: list[S] = []

    def select(self) -> S:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.is_new(self.stack[i]):
                self.stack.append(self.stack.pop(i))  # the chosen one on top: its removal is cheap
                break
        return self.stack[-1]

    def update(self, added: list[S], removed: list[S]) -> None:
        _remove(self.stack, removed)
        self.stack.extend(reversed(added))

    def empty(self) -> bool:
        return not self.stack

    def drain(self) -> list[S]:
        states, self.stack = self.stack, []
        return states


def make_searcher(strategy: str, seed: int, is_new: Callable[[S], bool]) -> Searcher[S]:
    if strategy == "dfs":
        return DepthFirst()
    if strategy == "bfs":
        return BreadthFirst()
    if strategy == "random":
        return RandomPath(seed)
    if strategy == "coverage":
        return CoverageFirst(is_new)
    raise ValueError(f"unknown strategy {strategy}")
