"""The library entry points the CLI, the reporters and the tests use.

``explore`` runs one engine on one target and returns an ``Exploration``; ``Run`` yields
path results as they are found (for streaming reporters and Ctrl-C); ``targets`` lists what
``FILE`` without ``::NAME`` means; ``explore_source`` is the same for source text.

Invariant: a result of kind ``precondition`` is one whose failed assert is a precondition of
the target (see ``precondition_lines``); any other is reported as ``assert``, a bug.
"""

from __future__ import annotations

import ast

from dataclasses import replace
from typing import Callable, Iterator

from pathloom import interrupt
from pathloom.engine_stats import EngineStats
from pathloom.engines.registry import engine_class
from pathloom.errors import UsageError
from pathloom.frontend import ir
from pathloom.frontend.module import Module, load_module, parse_module
from pathloom.options import Options
from pathloom.encoding.values import encode_python
from pathloom.results import Exploration, PathResult, RaiseKind

Progress = Callable[[EngineStats], None]


def targets(module: Module) -> list[str]:
    return module.targets()


def resolve_target(module: Module, name: str) -> str:
    if name in module.function_defs:
        return name
    if name in module.async_defs:
        raise module.unsupported(module.async_defs[name], "async function")
    if "." in name:
        cls, method = name.split(".", 1)
        node = _definition(module, cls, method)
        if node is not None and node.decorator_list:
            decorators = ", ".join("@" + ast.unparse(d) for d in node.decorator_list)
            raise module.unsupported(node, f"method with a decorator ({decorators}) as a target")
        if cls in module.opaque and isinstance(module.opaque[cls], ast.ClassDef) and node is not None:
            raise module.unsupported(
                module.opaque[cls],
                f"a method of class {cls}, which is not analysed (a decorator, several bases, a keyword or a base that is not an analysed class)",
            )
        if cls in module.classes:
            raise UsageError(f"{module.filename}: class {cls} has no method {method!r}")
    known = ", ".join(module.targets()) or "none"
    raise UsageError(f"{module.filename}: no function or method {name!r} (known: {known})")


def _definition(module: Module, cls: str, method: str) -> ast.FunctionDef | None:
    """The ``def`` of ``cls.method`` at the top level of the class body, if any."""
    for stmt in module.tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == cls:
            for item in stmt.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return item
    return None


class Run:
    """One engine run on one target: iterate ``results()``, then read ``exploration``."""

    def __init__(self, module: Module, target: str, options: Options, progress: Progress | None = None, keep_paths: bool = True) -> None:
        options.validate()
        self.keep_paths = keep_paths  # False: results are only streamed (memory stays bounded)
        self.module = module
        self.target = resolve_target(module, target)
        self.engine = engine_class(options.engine)(module, self.target, options, progress)
        entry = self.engine.entry
        self.exploration = Exploration(
            f"{module.filename}::{self.target}",
            options.engine,
            params=tuple(entry.params),
            environment=entry.environment,
            untried=tuple(entry.untried),
            module_globals={k: encode_python(v) for k, v in module.global_values().items()},
        )
        cls, _, method = self.target.partition(".")
        receiver = bool(method) and cls in module.classes and module.classes[cls].decorated.get(method, ("",))[0] != "staticmethod"
        passed = module.function(self.target).params[1 if receiver else 0 :]  # self (or cls) is no argument of the call
        self.exploration.positional_only = tuple(p.name for p in passed if p.kind == "posonly")
        if cls in module.classes and module.classes[cls].decorated.get(method, ("",))[0] == "property":
            self.exploration.accessor = "attribute"
        elif module.function(self.target).generator:
            self.exploration.accessor = "list"  # a generator function: its outcome is list(f(...))
        self.precondition_lines = precondition_lines(module, self.target) if options.preconditions else frozenset()
        # results recorded so far: Ctrl-C may stop the engine after it counted a path and before
        # the path arrived here (the CLI then reports this count)
        self.received = 0

    def results(self) -> Iterator[PathResult]:
        for result in self.engine.run():
            with interrupt.deferred():  # recorded whole: list, bug count and ``received`` agree
                if result.kind == RaiseKind.PRECONDITION and result.line not in self.precondition_lines:
                    result = replace(result, kind=RaiseKind.ASSERT)  # a callee's contract broken by its caller
                if self.keep_paths:
                    self.exploration.paths.append(result)
                self.exploration.count(result)
                self.received += 1
            yield result
        self.exploration.complete = self.engine.complete and not self.exploration.untried
        self.exploration.stats = self.engine.stats()


def precondition_lines(module: Module, target: str) -> frozenset[int]:
    """Lines of the asserts whose failure is the input's fault, not a bug: the leading asserts
    of the target, and of the constructor that builds a method target's receiver. The engines
    report a raise's line, not its frame, so a recursive call that breaks the target's own
    precondition is not told apart from the input breaking it."""
    functions = [module.function(target)]
    cls, _, method = target.partition(".")
    if method and method != "__init__" and cls in module.classes and "__init__" in module.classes[cls].methods:
        functions.append(module.function(module.classes[cls].methods["__init__"]))
    return frozenset(
        block.terminator.loc.line
        for function in functions
        for block in function.blocks.values()
        if isinstance(block.terminator, ir.Raise) and block.terminator.kind == "precondition"
    )


def explore(module: Module | str, target: str, options: Options | None = None, progress: Progress | None = None) -> Exploration:
    if isinstance(module, str):
        module = load_module(module)
    run = Run(module, target, options or Options(), progress)
    for _ in run.results():
        pass
    return run.exploration


def explore_source(source: str, target: str, options: Options | None = None, filename: str = "<source>") -> Exploration:
    return explore(parse_module(source, filename), target, options)
