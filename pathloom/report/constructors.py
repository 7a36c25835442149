"""Which classes of the analysed file a generated test may build by calling them (issue 29,
"tests a user keeps": ``Node(1, Node(2, None))`` rather than ``object.__new__`` and one
assignment per field).

A class qualifies when calling it with its fields' values gives an object with exactly those
fields and those values, read from its source alone, without running it:

* a class with no base (or ``object``) whose ``__init__`` takes only named parameters (no
  ``*args``, ``**kwargs``, keyword-only or positional-only ones) and whose body, a docstring
  aside, is one ``self.p = p`` per parameter ``p``, each once;
* a ``@dataclass`` (``dataclasses.dataclass``, with no argument, or only ``frozen``, ``eq``,
  ``order``, ``repr`` or ``unsafe_hash``) with no base, no ``__init__``, ``__post_init__``
  or ``__new__`` of its own, whose fields are its annotated class-body names (``ClassVar``
  aside) and have no ``field(...)`` or default that is not a literal;

and neither defines ``__setattr__`` nor a method named as a field (a property's setter).

Invariant: for a class in ``constructor_fields``'s answer, ``Cls(*values)`` in the order
given sets exactly those fields to exactly ``values`` and runs no other code of the file; an
input object whose fields are exactly those is built so in the tests, any other the old way.
"""

from __future__ import annotations

import ast

_DATACLASS_OPTIONS = {"frozen", "eq", "order", "repr", "unsafe_hash"}


def constructor_fields(source: str) -> dict[str, list[str]]:
    """The top-level classes of ``source`` that qualify, each with its fields in the order its
    constructor takes them."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.keywords or any(not _is_object(b) for b in node.bases):
            continue
        fields = _dataclass_fields(node) if any(_is_dataclass(d) for d in node.decorator_list) else _init_fields(node)
        methods = _methods(node)
        if fields is None or len(node.decorator_list) > 1 or "__setattr__" in methods or set(fields) & set(methods):
            continue  # (a method named as a field: a property, whose setter would run)
        found[node.name] = fields
    return found


def _is_object(base: ast.expr) -> bool:
    return isinstance(base, ast.Name) and base.id == "object"


def _is_dataclass(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    named = (isinstance(target, ast.Name) and target.id == "dataclass") or (
        isinstance(target, ast.Attribute) and target.attr == "dataclass" and isinstance(target.value, ast.Name) and target.value.id == "dataclasses"
    )
    if not named or not isinstance(decorator, ast.Call):
        return named
    return not decorator.args and all(k.arg in _DATACLASS_OPTIONS for k in decorator.keywords)


def _methods(node: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {s.name: s for s in node.body if isinstance(s, ast.FunctionDef)}


def _init_fields(node: ast.ClassDef) -> list[str] | None:
    init = _methods(node).get("__init__")
    if init is None or init.decorator_list:
        return None
    args = init.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or len(args.args) < 2:
        return None
    params = [a.arg for a in args.args[1:]]
    this = args.args[0].arg
    body = init.body[1:] if _is_docstring(init.body[0]) else init.body
    assigned = []
    for statement in body:
        target, value = _assignment(statement)
        if target is None or not isinstance(target, ast.Attribute) or not _is_name(target.value, this):
            return None
        if not isinstance(value, ast.Name) or value.id != target.attr:
            return None
        assigned.append(target.attr)
    return params if sorted(assigned) == sorted(params) and len(set(assigned)) == len(assigned) else None


def _dataclass_fields(node: ast.ClassDef) -> list[str] | None:
    if {"__init__", "__post_init__", "__new__"} & set(_methods(node)):
        return None
    fields = []
    for statement in node.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        if "ClassVar" in ast.unparse(statement.annotation) or "InitVar" in ast.unparse(statement.annotation):
            return None
        if statement.value is not None and not _is_literal(statement.value):
            return None  # field(...), a default factory, a computed default
        fields.append(statement.target.id)
    return fields or None


def _assignment(statement: ast.stmt) -> tuple[ast.expr | None, ast.expr | None]:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        return statement.targets[0], statement.value
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        return statement.target, statement.value
    return None, None


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True
