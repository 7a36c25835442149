"""Lower one Python function (``ast``) to the IR control-flow graph.

Lowering is the only place that knows Python's statement and expression syntax. This module is
its public entry (``lower_function``, ``lower_lambda``, ``annotation_text``); the work is done by
the package ``pathloom.frontend.lowering``, whose mixins make up ``_Lowerer`` here. Invariants
of its output (checked by ``ircheck``): every block ends in one terminator; temporaries are named
``%N`` and cannot clash with Python names; short-circuit operators, chained comparisons and
conditional expressions become explicit control flow, so every ``Branch`` tests a bool made by
``Truth`` or ``Compare``; blocks inside a ``try`` body carry the handler label; loop headers
are entered from outside by a plain ``Goto`` and from their body by a ``Goto(back_edge=True)``.
Anything outside the supported subset raises ``Unsupported`` with the node's location.
"""

from __future__ import annotations

import ast

from pathloom.frontend import ir
from pathloom.frontend.lowering.cleanups import Cleanups
from pathloom.frontend.lowering.comprehensions import Comprehensions
from pathloom.frontend.lowering.contexts import Contexts
from pathloom.frontend.lowering.expressions import Expressions
from pathloom.frontend.lowering.functions import Functions, annotation_text
from pathloom.frontend.lowering.generators import InlinedGenerators
from pathloom.frontend.lowering.imports import Imports
from pathloom.frontend.lowering.library import Library
from pathloom.frontend.lowering.matching import Matching
from pathloom.frontend.lowering.statements import Statements

__all__ = ["annotation_text", "lower_function", "lower_lambda"]


class _Lowerer(Functions, Imports, Statements, Cleanups, Contexts, Matching, Expressions, Comprehensions, Library, InlinedGenerators):
    """The lowering of one function or lambda: the builder's state and primitives
    (``lowering.builder``) with every mixin; no two of them define the same method."""


def lower_function(module: object, qualname: str, node: ast.FunctionDef, cls: str | None) -> ir.Function:
    return _Lowerer(module, qualname, cls).function(node)


def lower_lambda(
    module: object, qualname: str, node: ast.Lambda | ast.FunctionDef, cls: str | None, captures: tuple[str, ...] = (), cells: tuple[str, ...] = ()
) -> ir.Function:
    """A lambda or a nested function; ``captures`` are the enclosing function's variables it
    closes over, its last parameters (their values come with the function value); those in
    ``cells`` come as cells (``ir.LoadCell`` reads them)."""
    lowerer = _Lowerer(module, qualname, cls)
    lowerer.captures = captures
    lowerer.cell_captures = frozenset(cells)
    if isinstance(node, ast.FunctionDef):
        lowerer.own_name = node.name
        return lowerer.function(node)
    return lowerer.lambda_function(node)
