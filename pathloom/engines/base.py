"""The engine protocol: what the library (``api.Run``) asks of every registered engine.

An engine is built from the module, the target's qualname, the options and a progress
callback, and then ``run`` yields the path results as they are found. After ``run`` ends,
``complete`` says whether every path was explored (no bound, time limit or unknown stopped
one) and ``stats`` gives the engine's counters (typed: ``pathloom.engine_stats``). ``entry`` is the symbolic entry the engine
explores from (its parameters and their input domains), which the exploration reports.

Invariant: an engine reports each path once, and ``complete`` is true only if no path was cut,
paused or left unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pathloom.engine_stats import EngineStats
    from pathloom.engines.entry import Entry
    from pathloom.frontend.module import Module
    from pathloom.options import Options
    from pathloom.results import PathResult

Progress = Callable[["EngineStats"], None]


class Engine(Protocol):
    name: str
    entry: Entry
    complete: bool

    def run(self) -> Iterator[PathResult]: ...

    def stats(self) -> EngineStats: ...


EngineFactory = Callable[["Module", str, "Options", "Progress | None"], Engine]
