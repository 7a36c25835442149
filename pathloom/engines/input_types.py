"""The input types pathloom explores, parsed from a parameter's annotation text.

A shape is ``"int"``, ``"bool"`` or ``"str"``; ``("list", item)`` for ``list[T]`` (``List[T]``,
and bare ``list``, which is ``list[int]``: a documented default); or ``("tuple", items)`` for a
fixed-length ``tuple[T1, ..., Tn]`` (``Tuple[...]``). Items may be any shape, nested.
Invariant: ``parse_input_type`` returns None for every other annotation (``Optional``,
``float``, ``dict``, a class, ``tuple[T, ...]``); the caller reports it unsupported.
"""

from __future__ import annotations

import ast
from typing import Union

Shape = Union[str, tuple[str, object]]

SCALARS = frozenset({"int", "bool", "str"})
_LISTS = frozenset({"list", "List", "typing.List"})
_TUPLES = frozenset({"tuple", "Tuple", "typing.Tuple"})


def parse_input_type(annotation: str) -> Shape | None:
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return None
    return _shape(node)


def _shape(node: ast.expr) -> Shape | None:
    name = ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if name in SCALARS:
        return name
    if name in _LISTS:
        return ("list", "int")
    if not isinstance(node, ast.Subscript):
        return None
    outer = ast.unparse(node.value)
    if outer in _LISTS:
        item = _shape(node.slice)
        return None if item is None else ("list", item)
    if outer in _TUPLES:
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts):
            return None  # tuple[T, ...]: a tuple of any length
        items = [_shape(p) for p in parts]
        return None if any(i is None for i in items) else ("tuple", tuple(items))
    return None
