"""The library entry points the CLI, the reporters and the tests use.

``explore`` runs one engine on one target and returns an ``Exploration``; ``stream`` yields
path results as they are found (for streaming reporters and Ctrl-C); ``targets`` lists what
``FILE`` without ``::NAME`` means; ``explore_source`` is the same for source text.
"""

from __future__ import annotations

from typing import Callable, Iterator

from pathloom.engines.registry import engine_class
from pathloom.errors import UsageError
from pathloom.frontend.module import Module, load_module, parse_module
from pathloom.options import Options
from pathloom.results import Exploration, PathResult

Progress = Callable[[dict[str, object]], None]


def targets(module: Module) -> list[str]:
    return module.targets()


def resolve_target(module: Module, name: str) -> str:
    if name in module.function_defs:
        return name
    if name in module.async_defs:
        raise module.unsupported(module.async_defs[name], "async function")
    if "." in name:
        cls = name.split(".")[0]
        if cls in module.classes:
            raise UsageError(f"{module.filename}: class {cls} has no method {name.split('.', 1)[1]!r}")
    known = ", ".join(module.targets()) or "none"
    raise UsageError(f"{module.filename}: no function or method {name!r} (known: {known})")


class Run:
    """One engine run on one target: iterate ``results()``, then read ``exploration``."""

    def __init__(self, module: Module, target: str, options: Options, progress: Progress | None = None, keep_paths: bool = True) -> None:
        options.validate()
        self.keep_paths = keep_paths  # False: results are only streamed (memory stays bounded)
        self.module = module
        self.target = resolve_target(module, target)
        self.engine = engine_class(options.engine)(module, self.target, options, progress)
        entry = self.engine.entry
        self.exploration = Exploration(f"{module.filename}::{self.target}", options.engine, params=tuple(entry.params), environment=entry.environment)

    def results(self) -> Iterator[PathResult]:
        for result in self.engine.run():
            if self.keep_paths:
                self.exploration.paths.append(result)
            if result.is_bug:
                self.exploration.bug_count += 1
            yield result
        self.exploration.complete = self.engine.complete
        self.exploration.stats = self.engine.stats()


def explore(module: Module | str, target: str, options: Options | None = None, progress: Progress | None = None) -> Exploration:
    if isinstance(module, str):
        module = load_module(module)
    run = Run(module, target, options or Options(), progress)
    for _ in run.results():
        pass
    return run.exploration


def explore_source(source: str, target: str, options: Options | None = None, filename: str = "<source>") -> Exploration:
    return explore(parse_module(source, filename), target, options)
