"""Searchers: which pending state runs next. A four-method interface (add, select, empty,
name) with small classes, as in KLEE. Deterministic: ``random`` uses its own seeded RNG."""

from __future__ import annotations

import random
from collections import deque
from typing import Callable, Generic, Protocol, TypeVar

S = TypeVar("S")


class Searcher(Protocol[S]):
    name: str

    def add(self, states: list[S]) -> None: ...

    def select(self) -> S: ...

    def empty(self) -> bool: ...

    def drain(self) -> list[S]: ...


class DepthFirst(Generic[S]):
    name = "dfs"

    def __init__(self) -> None:
        self.stack: list[S] = []

    def add(self, states: list[S]) -> None:
        self.stack.extend(reversed(states))

    def select(self) -> S:
        return self.stack.pop()

    def empty(self) -> bool:
        return not self.stack

    def drain(self) -> list[S]:
        states, self.stack = self.stack, []
        return states


class BreadthFirst(Generic[S]):
    name = "bfs"

    def __init__(self) -> None:
        self.queue: deque[S] = deque()

    def add(self, states: list[S]) -> None:
        self.queue.extend(states)

    def select(self) -> S:
        return self.queue.popleft()

    def empty(self) -> bool:
        return not self.queue

    def drain(self) -> list[S]:
        states = list(self.queue)
        self.queue.clear()
        return states


class RandomPath(Generic[S]):
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.states: list[S] = []

    def add(self, states: list[S]) -> None:
        self.states.extend(states)

    def select(self) -> S:
        i = self.rng.randrange(len(self.states))
        self.states[i], self.states[-1] = self.states[-1], self.states[i]
        return self.states.pop()

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

    def add(self, states: list[S]) -> None:
        self.stack.extend(reversed(states))

    def select(self) -> S:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.is_new(self.stack[i]):
                return self.stack.pop(i)
        return self.stack.pop()

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
