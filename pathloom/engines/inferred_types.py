"""The input type of a parameter without an annotation (issue 29, "parameters without annotations").

The first source that answers gives it:

1. the default's literal: ``y=2`` is an ``int``, ``s="a"`` a ``str``, ``flag=False`` a ``bool``,
   ``0.5`` a ``float``;
2. the types the function's own body tests the parameter against, ``isinstance(x, T)`` (a tuple
   of types too) and ``type(x) is T`` / ``type(x) == T``, with the builtin types the inputs model
   (``list``, ``tuple``, ``set`` and ``dict`` of ints): their union, ``| None`` when the default
   is ``None``;
A parameter whose default is another value (``None`` with no test, a call, a name) keeps that
default as its value, as before: nothing says what else the code expects there. One with
neither a default nor a test is refused (one line): a guessed type (``int | str``) would make
the code's ``TypeError`` on a str it never meant to take a reported bug. Such inputs need
their own label, "outside what the code states", before they are tried.

Invariant: an inferred annotation is one ``frontend.input_types`` parses, and every inference is
reported as an input type tried in part (``Entry.untried``): the exploration is incomplete, and
``reach`` never calls a line unreachable for the inferred types alone.
"""

from __future__ import annotations

import ast

from pathloom.frontend import ir
from pathloom.frontend.module import Module

#: the builtin types an ``isinstance`` test may name, as input annotations
_TESTED = {
    "int": "int",
    "bool": "bool",
    "str": "str",
    "float": "float",
    "list": "list[int]",
    "tuple": "tuple[int,...]",
    "set": "set[int]",
    "dict": "dict[str,int]",
}


def infer(module: Module, function: ir.Function, param: ir.Param) -> tuple[str, str] | None:
    """The annotation to explore ``param`` with, and why (the phrase the report shows); None
    when nothing states one (the parameter keeps its default value, or is refused)."""
    default = param.default
    literal = default.value if isinstance(default, ir.Const) else _NO_DEFAULT if default is None else _OTHER
    if isinstance(literal, (bool, int, float, str)):
        name = type(literal).__name__
        return name, f"from its default {literal!r}"
    tested = _tested_types(module, function, param.name) if literal is None or literal is _NO_DEFAULT else []
    if not tested:
        return None
    union = "|".join(dict.fromkeys(_TESTED[t] for t in tested))
    if literal is None:
        return f"{union}|None", "from the isinstance tests of its body, and its default None"
    return union, "from the isinstance tests of its body"


_NO_DEFAULT = object()
_OTHER = object()


def _tested_types(module: Module, function: ir.Function, name: str) -> list[str]:
    """The builtin types ``function``'s body tests ``name`` against, in the order written."""
    node = _definition(module, function)
    found: list[str] = []
    if node is None:
        return found
    for sub in ast.walk(node):
        if not isinstance(sub, (ast.Call, ast.Compare)):
            continue
        if isinstance(sub, ast.Call) and _is_call(sub, "isinstance") and len(sub.args) == 2 and _is_name(sub.args[0], name):
            kinds = sub.args[1].elts if isinstance(sub.args[1], ast.Tuple) else [sub.args[1]]
            found += [k.id for k in kinds if isinstance(k, ast.Name) and k.id in _TESTED]
        elif isinstance(sub, ast.Compare) and len(sub.ops) == 1 and isinstance(sub.ops[0], (ast.Is, ast.Eq)):
            left, right = sub.left, sub.comparators[0]
            if isinstance(left, ast.Call) and _is_call(left, "type") and len(left.args) == 1 and _is_name(left.args[0], name):
                if isinstance(right, ast.Name) and right.id in _TESTED:
                    found.append(right.id)
    return found


def _definition(module: Module, function: ir.Function) -> ast.FunctionDef | None:
    for node in ast.walk(module.tree):
        if isinstance(node, ast.FunctionDef) and node.name == function.name and node.lineno == function.line:
            return node
    return None


def _is_call(node: ast.Call, name: str) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == name


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
