"""Which functions get a memoization tree, and in which order: the static call graph.

A function is *summarizable* when the path it takes is decided by its arguments alone, so
that a path condition over its formals, found once with fresh symbols, holds in every calling
context (the paper's memoization tree; its heap path conditions are not needed then):

- a top-level function of the analysed file (no method, closure, lambda or linked module),
  every parameter a formal ``formals.param_sort`` knows (``int``, ``bool``, ``str``,
  ``float``, a list of one of the first three, an analysed class or ``Optional`` of one), no
  ``*args``/``**kwargs``;
- its instructions only compute with locals and constants and read and assign attributes
  (no item writes, no list, dict or function building, no method calls; an attribute write
  on anything but an input object makes its exploration alone reject it), and every
  module-level name it reads is
  a builtin the subset models, a builtin exception class, a literal constant of the real
  module (None, bool, int, float, str, tuples of these) or another summarizable function;
- it contains a conditional (``Branch`` or ``ForIter``): the paper skips branch-free methods,
  whose replay gains nothing.

This is checked on the IR, before any exploration; the tree builder (``engine``) also rejects
a function whose isolated exploration wrote the heap or ran an operation in CPython. Calls of
functions that are not summarizable are executed inline, exactly as DSE does.

Departure from the paper: call cycles are not special-cased. A recursive function gets a tree
built with its recursive calls executed inline up to the call-depth bound (the paper's
"summary tree built directly up to a pre-specified bound"); a path cut by that bound is a
leaf that is re-executed in each context instead of replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from pathloom.engines.compose.formals import object_class, param_sort
from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.domain.names import EXCEPTION_BASES

# builtins whose model computes on plain values only
PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "ord", "chr", "range", "bool", "int"})

_VALUE_INSTRUCTIONS = (
    ir.Assign,
    ir.BinOp,
    ir.UnaryOp,
    ir.Compare,
    ir.Truth,
    ir.Call,
    ir.GetItem,
    ir.GetSlice,
    ir.BuildTuple,
    ir.Unpack,
    ir.GetIter,
    ir.CurrentException,
    ir.ExcMatch,
    ir.Unbind,
    ir.Format,
    ir.BuildString,
    ir.GetAttr,
    ir.SetAttr,
)


@dataclass(frozen=True)
class CallGraph:
    """Functions reachable from a target and the summarizable ones among them, callees first."""

    reachable: tuple[str, ...]
    bottom_up: tuple[str, ...]  # the summarizable functions with a conditional, each after the ones it calls


def _operands(instr: ir.Instruction | ir.Terminator) -> list[ir.Operand]:
    found: list[ir.Operand] = []
    for value in vars(instr).values():
        if isinstance(value, (ir.Var, ir.Const, ir.Global)):
            found.append(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, (ir.Var, ir.Const, ir.Global)):
                    found.append(item)
                elif isinstance(item, tuple):
                    found.extend(x for x in item if isinstance(x, (ir.Var, ir.Const, ir.Global)))
    return found


def _nodes(function: ir.Function) -> list[ir.Instruction | ir.Terminator]:
    nodes: list[ir.Instruction | ir.Terminator] = []
    for block in function.blocks.values():
        nodes.extend(block.instrs)
        if block.terminator is not None:
            nodes.append(block.terminator)
    return nodes


def referenced_functions(module: Module, function: ir.Function) -> set[str]:
    """Qualnames of the analysed functions ``function`` may call (an over-approximation:
    every function named by a global it reads, the methods of every class it names, the
    nested functions and lambdas it builds)."""
    found: set[str] = set()
    for node in _nodes(function):
        if isinstance(node, ir.MakeFunction):
            found.add(node.qualname)
        for operand in _operands(node):
            if not isinstance(operand, ir.Global) or ":" in operand.name:
                continue
            if operand.name in module.function_defs:
                found.add(operand.name)
            elif operand.name in module.classes:
                found.update(module.classes[operand.name].methods.values())
    if function.class_name is not None and function.class_name in module.classes:
        found.update(module.classes[function.class_name].methods.values())
    for param in function.params:  # an attribute read may run a property of a parameter's class
        sort = param_sort(param.annotation, module.classes)
        reference = object_class(sort) if sort is not None else None
        if reference is not None and reference[0] in module.classes:
            found.update(module.classes[reference[0]].methods.values())
    return found


def _global_is_pure(module: Module, name: str, pure_candidates: set[str]) -> bool:
    if ":" in name:
        return False
    if name in module.function_defs:
        return name in pure_candidates
    if name in module.classes:
        return False
    if module.has_runtime(name):
        value = module.runtime_value(name)
        return _literal(value)
    if name in module.constants:
        return _literal(module.constants[name])
    return name in PURE_BUILTINS or name in EXCEPTION_BASES


def _literal(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    return type(value) is tuple and all(_literal(v) for v in value)


def _shape_ok(module: Module, function: ir.Function) -> bool:
    if function.class_name is not None or function.captures or function.foreign_file is not None:
        return False
    if "." in function.qualname or ":" in function.qualname or "<" in function.qualname:
        return False
    return all(param_sort(p.annotation, module.classes) is not None for p in function.params) and bool(function.params)


def _has_conditional(function: ir.Function) -> bool:
    return any(isinstance(node, (ir.Branch, ir.ForIter)) for node in _nodes(function))


def _body_ok(module: Module, function: ir.Function, pure_candidates: set[str]) -> bool:
    for node in _nodes(function):
        if not isinstance(node, _VALUE_INSTRUCTIONS + (ir.Goto, ir.Return, ir.Raise, ir.Branch, ir.ForIter)):
            return False
        for operand in _operands(node):
            if isinstance(operand, ir.Global) and not _global_is_pure(module, operand.name, pure_candidates):
                return False
        if isinstance(node, ir.Call) and not isinstance(node.func, ir.Global):
            return False
    return True


def call_graph(module: Module, target: str) -> CallGraph:
    """The functions reachable from ``target`` and the summarizable ones, bottom-up."""
    reachable: list[str] = []
    seen = {target}
    stack = [target]
    edges: dict[str, set[str]] = {}
    while stack:
        qualname = stack.pop()
        try:
            function = module.function(qualname)
        except Exception:  # noqa: BLE001 - a function the frontend cannot lower: never summarized
            continue
        reachable.append(qualname)
        edges[qualname] = referenced_functions(module, function)
        for callee in sorted(edges[qualname]):
            if callee not in seen:
                seen.add(callee)
                stack.append(callee)
    candidates = {q for q in reachable if q != target and _shape_ok(module, module.function(q))}
    # a candidate stays pure only while everything it names is: iterate to the fixpoint
    changed = True
    while changed:
        changed = False
        for q in sorted(candidates):
            if not _body_ok(module, module.function(q), candidates):
                candidates.discard(q)
                changed = True
    summarized = {q for q in candidates if _has_conditional(module.function(q))}
    order: list[str] = []
    visited: set[str] = set()

    def visit(q: str) -> None:  # post-order: callees first; a cycle is entered once
        visited.add(q)
        for callee in sorted(edges.get(q, ())):
            if callee in candidates and callee not in visited:
                visit(callee)
        order.append(q)

    for q in sorted(candidates):
        if q not in visited:
            visit(q)
    return CallGraph(tuple(reachable), tuple(q for q in order if q in summarized))
